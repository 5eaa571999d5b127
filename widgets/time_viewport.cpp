#include "time_viewport.h"

#include <algorithm>
#include <cmath>

namespace ws {

namespace {
constexpr double kMinNsPerPx = 0.01; // 1 ns spans 100 px at the deepest zoom
constexpr double kFitMargin = 0.02;   // fraction of the range left free on each side when fitting
} // namespace

TimeViewport::TimeViewport(QObject* parent) : QObject(parent) {}

void TimeViewport::setSessionRange(int64_t start, int64_t end) {
    m_sessionStart = start;
    m_sessionEnd = std::max(end, start + 1);
    fitAll();
}

void TimeViewport::setWidthPx(int widthPx) {
    if (widthPx <= 0 || widthPx == m_widthPx)
        return;
    // Keep the same time span visible when the widget is resized.
    const double span = m_widthPx * m_nsPerPx;
    m_widthPx = widthPx;
    m_nsPerPx = span / widthPx;
    clampAndEmit();
}

void TimeViewport::zoomAt(double x, double factor) {
    if (factor <= 0)
        return;
    const double anchor = static_cast<double>(m_t0) + x * m_nsPerPx;
    const double maxNsPerPx = static_cast<double>(m_sessionEnd - m_sessionStart) * (1 + 2 * kFitMargin) / m_widthPx;
    m_nsPerPx = std::clamp(m_nsPerPx / factor, kMinNsPerPx, std::max(kMinNsPerPx, maxNsPerPx));
    m_t0 = static_cast<int64_t>(std::llround(anchor - x * m_nsPerPx));
    clampAndEmit();
}

void TimeViewport::panPx(double dx) {
    m_t0 += static_cast<int64_t>(std::llround(dx * m_nsPerPx));
    clampAndEmit();
}

void TimeViewport::showRange(int64_t start, int64_t end) {
    const double span = static_cast<double>(std::max<int64_t>(end - start, 1));
    const double margin = span * kFitMargin;
    m_nsPerPx = std::max(kMinNsPerPx, (span + 2 * margin) / m_widthPx);
    m_t0 = start - static_cast<int64_t>(margin);
    clampAndEmit();
}

void TimeViewport::fitAll() { showRange(m_sessionStart, m_sessionEnd); }

void TimeViewport::centerOn(int64_t t) {
    m_t0 = t - static_cast<int64_t>(m_widthPx * m_nsPerPx / 2);
    clampAndEmit();
}

void TimeViewport::clampAndEmit() {
    // Keep at least a tenth of the window over the session.
    const auto span = static_cast<int64_t>(m_widthPx * m_nsPerPx);
    const int64_t keep = span / 10;
    m_t0 = std::clamp(m_t0, m_sessionStart - span + keep, std::max(m_sessionStart - span + keep, m_sessionEnd - keep));
    emit viewChanged();
}

void TimeViewport::setSelectedSlice(std::optional<SliceRef> slice) {
    if (slice == m_selected)
        return;
    m_selected = slice;
    emit selectedSliceChanged();
}

void TimeViewport::setSelectedRange(std::optional<TimeRange> range) {
    if (range == m_range)
        return;
    m_range = range;
    emit selectedRangeChanged();
}

void TimeViewport::setMarkedRanges(std::vector<TimeRange> ranges) {
    if (ranges == m_marked)
        return;
    m_marked = std::move(ranges);
    emit markedRangesChanged();
}

} // namespace ws
