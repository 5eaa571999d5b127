#include "analysis/key_order.h"

#include <algorithm>
#include <utility>

namespace ws {

std::vector<uint32_t> orderByKeys(std::vector<int64_t> keys, bool descending) {
    const size_t n = keys.size();
    int64_t lo = INT64_MAX;
    int64_t hi = INT64_MIN;
    for (int64_t& k : keys) {
        if (k == kMissingSortKey)
            continue;
        if (descending)
            k = -k;
        lo = std::min(lo, k);
        hi = std::max(hi, k);
    }
    std::vector<uint32_t> order(n);
    if (lo == INT64_MAX || static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo) < 0xffffffffull) {
        std::vector<uint64_t> packed(n);
        for (size_t i = 0; i < n; ++i) {
            const uint64_t k = keys[i] == kMissingSortKey ? 0xffffffffull : static_cast<uint64_t>(keys[i] - lo);
            packed[i] = k << 32 | i;
        }
        std::sort(packed.begin(), packed.end());
        for (size_t i = 0; i < n; ++i)
            order[i] = static_cast<uint32_t>(packed[i]);
        return order;
    }
    std::vector<std::pair<int64_t, uint32_t>> keyed(n);
    for (size_t i = 0; i < n; ++i)
        keyed[i] = {keys[i], static_cast<uint32_t>(i)};
    std::sort(keyed.begin(), keyed.end());
    for (size_t i = 0; i < n; ++i)
        order[i] = keyed[i].second;
    return order;
}

} // namespace ws
