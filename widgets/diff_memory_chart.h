#pragma once

#include "analysis/memory_overlay.h"

#include <QChartView>

class QLineSeries;
class QValueAxis;

namespace ws {

/*
 * DiffMemoryChart: the allocated GPU memory of two runs laid over each other (the Compare tab), each
 * from the start of its window (the chosen step, or the run), so A's and B's curves start together.
 * Step curves in MiB against ms; a run without GPU allocator records has no line and says so.
 */
class DiffMemoryChart : public QChartView {
    Q_OBJECT
public:
    explicit DiffMemoryChart(QWidget* parent = nullptr);
    void setCurves(const MemoryOverlayCurve& a, const MemoryOverlayCurve& b);
    // Points drawn per run (steps doubled), for tests.
    int pointCount(size_t run) const;

private:
    QLineSeries* m_series[2];
    QValueAxis* m_axisX;
    QValueAxis* m_axisY;
};

} // namespace ws
