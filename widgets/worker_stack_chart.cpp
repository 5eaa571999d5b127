#include "worker_stack_chart.h"

#include "time_bar_axes.h"

#include <QtCharts/QBarSet>
#include <QtCharts/QChart>
#include <QtCharts/QLegend>
#include <QtCharts/QStackedBarSeries>

#include <algorithm>

namespace ws {

WorkerStackChart::WorkerStackChart(const QString& objectName, QWidget* parent) : QChartView(parent) {
    setObjectName(objectName);
    setRenderHint(QPainter::Antialiasing);
    setMinimumHeight(220);
    auto* chart = new QChart();
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setMargins(QMargins(4, 4, 4, 4));
    // QChartView made a default chart of its own and gives up its ownership here: delete it (it
    // leaked once per view, which LeakSanitizer reported).
    QChart* previous = QChartView::chart();
    setChart(chart);
    delete previous;
}

void WorkerStackChart::setData(const QStringList& workers, const std::vector<Part>& parts, const QString& title) {
    QChart* chart = this->chart();
    chart->removeAllSeries();
    for (QAbstractAxis* axis : chart->axes()) {
        chart->removeAxis(axis); // the chart gives a removed axis back: delete it
        delete axis;
    }
    chart->setTitle(title);
    m_bars = static_cast<int>(std::min<qsizetype>(workers.size(), kMaxBars));
    auto* series = new QStackedBarSeries();
    std::vector<double> totals(static_cast<size_t>(m_bars), 0.0);
    for (const Part& p : parts) {
        auto* set = new QBarSet(p.title);
        set->setColor(p.color);
        set->setBorderColor(p.color);
        for (int w = 0; w < m_bars; ++w) {
            const double v = static_cast<size_t>(w) < p.ms.size() ? std::max(0.0, p.ms[static_cast<size_t>(w)]) : 0.0;
            *set << v;
            totals[static_cast<size_t>(w)] += v;
        }
        series->append(set);
    }
    series->setBarWidth(0.7);
    chart->addSeries(series);
    const double maxTotal = totals.empty() ? 0.0 : *std::max_element(totals.begin(), totals.end());
    attachTimeBarAxes(chart, series, workers.mid(0, m_bars),
                      workers.size() > m_bars ? tr("Worker (first %1 of %2)").arg(m_bars).arg(workers.size()) : tr("Worker"),
                      maxTotal);
}

} // namespace ws
