#pragma once

#include <algorithm>
#include <vector>

namespace ws {

// The p-th percentile (0..1, nearest rank) of the GUI benches' timings; 0 for none.
inline double percentile(std::vector<double> v, double p) {
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, static_cast<size_t>(p * static_cast<double>(v.size() - 1) + 0.5))];
}

} // namespace ws
