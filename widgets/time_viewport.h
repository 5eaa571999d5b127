#pragma once

#include <QObject>

#include <cstdint>
#include <optional>
#include <vector>

namespace ws {

/* A selected slice: (track index, slice index) into the session. */
struct SliceRef {
    uint32_t track = 0;
    uint32_t slice = 0;
    bool operator==(const SliceRef&) const = default;
};

/* A selected time range [start, end) in session ns. */
struct TimeRange {
    int64_t start = 0;
    int64_t end = 0;
    int64_t length() const { return end - start; }
    bool operator==(const TimeRange&) const = default;
};

/*
 * TimeViewport: the one shared zoom and selection state that every view of a session follows.
 *
 * The visible window is [t0, t0 + widthPx * nsPerPx); zoom keeps the time under the cursor fixed
 * and is clamped between 1 ns per 100 px (deepest) and the whole session in the window plus a
 * margin (widest). Panning is clamped so some of the session always stays in view. Selection holds
 * at most one slice and at most one time range; both emit when they change. Marked ranges are a set
 * of intervals a view points out (the Overview's idle gaps of one cause), drawn as bands, apart
 * from the selection.
 */
class TimeViewport : public QObject {
    Q_OBJECT
public:
    explicit TimeViewport(QObject* parent = nullptr);

    void setSessionRange(int64_t start, int64_t end);
    void setWidthPx(int widthPx);

    int64_t t0() const { return m_t0; }
    int64_t t1() const { return m_t0 + static_cast<int64_t>(m_widthPx * m_nsPerPx); }
    double nsPerPx() const { return m_nsPerPx; }
    int widthPx() const { return m_widthPx; }
    int64_t sessionStart() const { return m_sessionStart; }
    int64_t sessionEnd() const { return m_sessionEnd; }

    double xForTime(int64_t t) const { return static_cast<double>(t - m_t0) / m_nsPerPx; }
    int64_t timeForX(double x) const { return m_t0 + static_cast<int64_t>(x * m_nsPerPx); }

    // factor > 1 zooms in around pixel x.
    void zoomAt(double x, double factor);
    void panPx(double dx);
    void showRange(int64_t start, int64_t end); // with a small margin
    void fitAll();
    void centerOn(int64_t t);

    std::optional<SliceRef> selectedSlice() const { return m_selected; }
    void setSelectedSlice(std::optional<SliceRef> slice);
    std::optional<TimeRange> selectedRange() const { return m_range; }
    void setSelectedRange(std::optional<TimeRange> range);
    const std::vector<TimeRange>& markedRanges() const { return m_marked; }
    void setMarkedRanges(std::vector<TimeRange> ranges); // sorted by start

signals:
    void viewChanged();
    void selectedSliceChanged();
    void selectedRangeChanged();
    void markedRangesChanged();

private:
    void clampAndEmit();

    int64_t m_sessionStart = 0;
    int64_t m_sessionEnd = 1;
    int m_widthPx = 1000;
    int64_t m_t0 = 0;
    double m_nsPerPx = 1;
    std::optional<SliceRef> m_selected;
    std::optional<TimeRange> m_range;
    std::vector<TimeRange> m_marked;
};

} // namespace ws
