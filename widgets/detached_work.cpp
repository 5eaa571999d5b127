#include "detached_work.h"

namespace ws {

namespace detail {
std::atomic<int>& detachedWorkCount() {
    static std::atomic<int> count{0};
    return count;
}
} // namespace detail

int detachedWorkRunning() { return detail::detachedWorkCount().load(); }

} // namespace ws
