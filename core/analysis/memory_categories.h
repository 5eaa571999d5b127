#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ws {

class Session;

/*
 * MemoryCategories: what a PyTorch memory timeline says memory was used for (parameters,
 * optimizer state, inputs, temporaries, activations, gradients, autograd detail, unknown), from the
 * session's "Memory by category" counter series (torch_memory_timeline_importer.h): the peak of
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

} // namespace ws
