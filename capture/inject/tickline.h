#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ws {

/*
 * TickLine: turns a counter's ticks into nanoseconds of another clock through pairs of readings of
 * both (HostTicks::calibrate), piecewise linearly: a tick count between two pairs lies on the line
 * through them, one before the first or after the last on the line through the nearest two. A
 * conversion inside a segment is as good as the two pairs, however long the segment, so a clock
 * slewed by NTP stays right; a step forward of the other clock between two pairs is spread over
 * their segment. A pair that does not come after the last in both (the other clock stepped back)
 * is dropped, and the last segment is extended until the clock has passed its end again: the
 * records CUPTI times go back at such a step, these do not. With fewer than two pairs, ticks are
 * taken as nanoseconds offset from the one pair (or unchanged without any); the tracer pairs once
 * at the start and again before every conversion.
 *
 * A pair that comes less than minSpacingNs after the previous one replaces it rather than adding a
 * point, so the line's end follows the latest reading at every take while its length grows by at
 * most one point per minSpacingNs of capture.
 */
class TickLine {
public:
    explicit TickLine(uint64_t minSpacingNs = 250'000'000) : m_minSpacingNs(minSpacingNs) {}

    void add(uint64_t ticks, uint64_t ns) {
        if (!m_points.empty() && (ticks <= m_points.back().ticks || ns < m_points.back().ns))
            return; // not after the last pair: a reading out of order is dropped, never bends the line back
        const std::size_t n = m_points.size();
        if (n >= 2 && m_points[n - 1].ns - m_points[n - 2].ns < m_minSpacingNs)
            m_points.back() = {ticks, ns}; // the last point was too close to keep: it moves on
        else
            m_points.push_back({ticks, ns});
    }

    uint64_t toNs(uint64_t ticks) const {
        const std::size_t n = m_points.size();
        if (n == 0)
            return ticks;
        if (n == 1)
            return m_points[0].ns + (ticks - m_points[0].ticks);
        // The segment whose start is the last point at or before ticks (the first or the last segment outside).
        std::size_t lo = 0, hi = n - 1;
        while (hi - lo > 1) {
            const std::size_t mid = lo + (hi - lo) / 2;
            (m_points[mid].ticks <= ticks ? lo : hi) = mid;
        }
        const Point& a = m_points[lo];
        const Point& b = m_points[hi];
        const double slope = static_cast<double>(b.ns - a.ns) / static_cast<double>(b.ticks - a.ticks);
        const double offset = static_cast<double>(static_cast<int64_t>(ticks - a.ticks)) * slope;
        return a.ns + static_cast<uint64_t>(static_cast<int64_t>(offset >= 0 ? offset + 0.5 : offset - 0.5));
    }

    std::size_t points() const { return m_points.size(); }

private:
    struct Point {
        uint64_t ticks;
        uint64_t ns;
    };
    std::vector<Point> m_points;
    uint64_t m_minSpacingNs;
};

} // namespace ws
