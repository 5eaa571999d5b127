#pragma once

#include <QColor>
#include <QStringList>
#include <QtCharts/QChartView>

#include <vector>

namespace ws {

/*
 * WorkerStackChart: one stacked bar per worker of a job (Qt Charts), e.g. the Distributed view's
 * computation / overlap / communication / other split or its synchronizing / transfer split.
 * Values are ms. At most kMaxBars workers are drawn (the first, by rank): a chart of a thousand
 * bars is unreadable; the tables have every worker.
 */
class WorkerStackChart : public QChartView {
    Q_OBJECT
public:
    static constexpr int kMaxBars = 64;

    struct Part {
        QString title;
        QColor color;
        std::vector<double> ms; // per worker
    };

    explicit WorkerStackChart(const QString& objectName, QWidget* parent = nullptr);
    void setData(const QStringList& workers, const std::vector<Part>& parts, const QString& title);
    int barCount() const { return m_bars; }

private:
    int m_bars = 0;
};

} // namespace ws
