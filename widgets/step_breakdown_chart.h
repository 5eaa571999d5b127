#pragma once

#include <QtCharts/QChartView>

#include <cstddef>

namespace ws {

struct StepBreakdown;

/*
 * StepBreakdownChart: the step time breakdown as a stacked bar per step (Qt Charts), one bar set
 * per role in torch-tb-profiler's order (Kernel at the bottom), values in ms, with a legend. Roles
 * that are zero in every step are left out of the chart (the table still lists them). At most
 * kMaxBars steps are drawn (the first ones): a chart of thousands of bars is unreadable and slow;
 * the table below has them all.
 */
class StepBreakdownChart : public QChartView {
    Q_OBJECT
public:
    static constexpr int kMaxBars = 100;

    explicit StepBreakdownChart(QWidget* parent = nullptr);
    // axisMaxMs > 0 fixes the time axis's top (two charts compared on one scale); else its steps' longest.
    void setBreakdown(const StepBreakdown& breakdown, double axisMaxMs = 0);
    // Translated role name and its fixed color (the table uses them too).
    static QString roleTitle(size_t role);
    static QColor roleColor(size_t role);
    // Bar sets now in the chart (for tests).
    int setCount() const { return m_sets; }

private:
    int m_sets = 0;
};

} // namespace ws
