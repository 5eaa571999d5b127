#include "index/counter_lod.h"

#include <algorithm>
#include <cmath>

namespace ws {

void CounterLod::build(std::span<const int64_t> ts, std::span<const double> values) {
    m_ts = ts;
    m_min.assign(1, std::vector<double>(values.begin(), values.end()));
    m_max.assign(1, m_min[0]);
    while (m_min.back().size() > 1) {
        const std::vector<double>& pmin = m_min.back();
        const std::vector<double>& pmax = m_max.back();
        std::vector<double> nmin((pmin.size() + 1) / 2), nmax(nmin.size());
        for (size_t i = 0; i < nmin.size(); ++i) {
            const size_t a = 2 * i, b = std::min(2 * i + 1, pmin.size() - 1);
            nmin[i] = std::min(pmin[a], pmin[b]);
            nmax[i] = std::max(pmax[a], pmax[b]);
        }
        m_min.push_back(std::move(nmin));
        m_max.push_back(std::move(nmax));
    }
}

void CounterLod::rangeMinMax(size_t first, size_t last, double& mn, double& mx) const {
    mn = INFINITY;
    mx = -INFINITY;
    // Climb while the range is aligned to larger blocks, then descend: the classic segment walk.
    size_t level = 0;
    while (first < last) {
        if ((first & 1) && first < last) {
            mn = std::min(mn, m_min[level][first]);
            mx = std::max(mx, m_max[level][first]);
            ++first;
        }
        if ((last & 1) && first < last) {
            --last;
            mn = std::min(mn, m_min[level][last]);
            mx = std::max(mx, m_max[level][last]);
        }
        first >>= 1;
        last >>= 1;
        ++level;
        if (level >= m_min.size())
            break;
    }
}

void CounterLod::columns(int64_t t0, double nsPerPx, int widthPx, std::vector<Column>& out) const {
    out.assign(static_cast<size_t>(std::max(0, widthPx)), Column{});
    if (m_ts.empty())
        return;
    const std::vector<double>& values = m_min[0];
    for (int x = 0; x < widthPx; ++x) {
        const auto left = t0 + static_cast<int64_t>(std::floor(x * nsPerPx));
        const auto right = t0 + static_cast<int64_t>(std::floor((x + 1) * nsPerPx));
        // Samples starting inside the column, plus the one in force at its left edge.
        size_t a = static_cast<size_t>(std::upper_bound(m_ts.begin(), m_ts.end(), left) - m_ts.begin());
        const size_t b = static_cast<size_t>(std::lower_bound(m_ts.begin() + static_cast<ptrdiff_t>(a), m_ts.end(), right) -
                                             m_ts.begin());
        if (a > 0)
            --a; // include the sample in force at the left edge; then b > a
        else if (b == 0)
            continue; // the series has not started yet
        Column& c = out[static_cast<size_t>(x)];
        rangeMinMax(a, b, c.min, c.max);
        c.last = values[b - 1];
        c.valid = true;
    }
}

} // namespace ws
