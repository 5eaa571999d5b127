#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ws {

class Session;

/*
 * MemoryCategories: what a PyTorch memory timeline says memory was used for (parameters,
 * optimizer state, inputs, temporaries, activations, gradients, autograd detail, unknown), from the
 * session's "Memory by category" counter series (model/memory_timeline_categories.h): the peak of
 * their sum and when it happened, and per category its own peak, its share at the total's peak and
 * what is left at the end. O(samples). Empty (`present` false) for sessions without the series.
 */
struct MemoryCategory {
    std::string name;
    int64_t peakBytes = 0;
    int64_t atTotalPeakBytes = 0;
    int64_t finalBytes = 0;
};

struct MemoryCategories {
    bool present = false;
    int64_t peakTotalBytes = 0;
    int64_t peakTs = 0; // session ns
    std::vector<MemoryCategory> categories; // in the exporter's order

    static MemoryCategories build(const Session& session);
};

// Walks a memory timeline's state: fn(ts, bytes per category, in the exporter's order) at every
// time a category changes, in time order. Returns the category names (empty: no timeline). The
// Memory tab's curve of such a session is the sum (memory_curve.h).
std::vector<std::string> forEachMemoryTimelineState(
    const Session& session, const std::function<void(int64_t ts, const std::vector<int64_t>& bytes)>& fn);

} // namespace ws
