#pragma once

#include "analysis/session_diff.h"

#include <QWidget>

#include <memory>

namespace ws {

/*
 * DiffWaterfallChart: where the GPU kernel time went between two runs, as a waterfall: run A's
 * total, then the kernels whose time changed most (bars floating from the running sum, red for
 * more time, green for less), the rest as one bar, and run B's total. One row per bar, labels on
 * the left; the axis starts near the smaller total so the changes are visible.
 */
class DiffWaterfallChart : public QWidget {
    Q_OBJECT
public:
    explicit DiffWaterfallChart(QWidget* parent = nullptr);
    // byOperator: the kernels grouped by launching operator + name (SessionDiff::operatorKernels).
    void setDiff(std::shared_ptr<const SessionDiff> diff, int top = 10, bool byOperator = false);

    struct Bar {
        QString label;
        int64_t from = 0; // ns on the running sum
        int64_t to = 0;
        bool total = false;
    };
    const std::vector<Bar>& bars() const { return m_bars; }
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    std::vector<Bar> m_bars;
};

} // namespace ws
