#pragma once

#include "analysis/kernel_groups.h"

#include <QWidget>

#include <memory>
#include <vector>

class QChart;
class QChartView;

namespace ws {

class Session;

/*
 * The top-N pie of the kernel view: the N kernel groups with the most GPU time, and one "Other"
 * slice for the rest, so the pie always adds up to the kernel time of the rows shown.
 */
class KernelPieChart : public QWidget {
    Q_OBJECT
public:
    static constexpr size_t kTopN = 10;
    explicit KernelPieChart(QWidget* parent = nullptr);
    // Groups sorted by total time descending (as groupKernels returns them).
    void setGroups(const Session& session, const std::vector<KernelGroup>& groups);
    // Labels and values of the slices shown (for tests): top groups then "Other" if any.
    QStringList sliceLabels() const;
    std::vector<double> sliceValues() const;
    // The full kernel name of slice `index` (its tooltip); empty for "Other".
    QString fullName(int index) const;

private:
    QChart* m_chart;
    QChartView* m_view;
};

} // namespace ws
