#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace ws {

/*
 * CounterLod: min/max envelope of a counter series per pixel column, so a peak narrower than a
 * pixel never vanishes when zoomed out, at a cost bounded by pixels.
 *
 * build() precomputes a pyramid of block minima and maxima over the sample values (level k holds
 * blocks of 2^k samples; about 2n values in all). columns() then answers each pixel column with two
 * binary searches for its sample range and an O(log n) walk of the pyramid for that range's
 * min/max, so a frame costs O(widthPx * log n) however many samples are in view.
 *
 * A counter is a step function: the value of sample i holds from ts[i] until ts[i+1]. A column
 * therefore also includes the sample in force at its left edge.
 */
class CounterLod {
public:
    struct Column {
        double min = 0;
        double max = 0;
        double last = 0;   // value in force at the column's right edge
        bool valid = false; // false before the first sample
    };

    void build(std::span<const int64_t> ts, std::span<const double> values);
    // Fills `out` with `widthPx` columns covering [t0, t0 + widthPx * nsPerPx).
    void columns(int64_t t0, double nsPerPx, int widthPx, std::vector<Column>& out) const;
    // Min and max over samples [first, last) (first < last).
    void rangeMinMax(size_t first, size_t last, double& mn, double& mx) const;

private:
    std::span<const int64_t> m_ts;
    std::vector<std::vector<double>> m_min; // m_min[0] are the values themselves
    std::vector<std::vector<double>> m_max;
};

} // namespace ws
