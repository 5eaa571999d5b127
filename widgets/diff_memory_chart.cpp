#include "diff_memory_chart.h"

#include <QChart>
#include <QLineSeries>
#include <QPen>
#include <QValueAxis>

#include <algorithm>

namespace ws {

DiffMemoryChart::DiffMemoryChart(QWidget* parent)
    : QChartView(parent), m_series{new QLineSeries, new QLineSeries}, m_axisX(new QValueAxis), m_axisY(new QValueAxis) {
    setObjectName(QStringLiteral("diffMemoryChart"));
    setRenderHint(QPainter::Antialiasing);
    setMinimumHeight(220);
    auto* c = new QChart();
    c->setMargins(QMargins(4, 4, 4, 4));
    c->legend()->setAlignment(Qt::AlignTop);
    const QColor colours[2] = {QColor(0x5b, 0x7d, 0xb1), QColor(0xd0, 0x4a, 0x4a)};
    for (size_t s = 0; s < 2; ++s) {
        QPen pen(colours[s]);
        pen.setWidthF(1.6);
        m_series[s]->setPen(pen);
        c->addSeries(m_series[s]);
    }
    m_axisX->setTitleText(tr("Time since the start of the run or step (ms)"));
    m_axisY->setTitleText(tr("Allocated (MiB)"));
    m_axisX->setLabelFormat(QStringLiteral("%.4g"));
    m_axisY->setLabelFormat(QStringLiteral("%.4g"));
    c->addAxis(m_axisX, Qt::AlignBottom);
    c->addAxis(m_axisY, Qt::AlignLeft);
    for (QLineSeries* s : m_series) {
        s->attachAxis(m_axisX);
        s->attachAxis(m_axisY);
    }
    // QChartView made a default chart of its own and gives up its ownership here: delete it (it
    // leaked once per view, which LeakSanitizer reported).
    QChart* previous = QChartView::chart();
    setChart(c);
    delete previous;
}

void DiffMemoryChart::setCurves(const MemoryOverlayCurve& a, const MemoryOverlayCurve& b) {
    double maxX = 1, maxY = 1;
    const MemoryOverlayCurve* curves[2] = {&a, &b};
    for (size_t s = 0; s < 2; ++s) {
        const MemoryOverlayCurve& c = *curves[s];
        const QString device = tr("GPU %1").arg(c.device.id);
        m_series[s]->setName(!c.found ? (s == 0 ? tr("A: no GPU memory records") : tr("B: no GPU memory records"))
                                      : (s == 0 ? tr("A: allocated on %1") : tr("B: allocated on %1")).arg(device));
        QList<QPointF> points;
        points.reserve(static_cast<qsizetype>(c.points.size() * 2));
        for (size_t i = 0; i < c.points.size(); ++i) {
            const double x = static_cast<double>(c.points[i].ts) / 1e6, y = static_cast<double>(c.points[i].value) / (1024.0 * 1024.0);
            if (i > 0) // a step curve: the previous value holds until this record
                points.append(QPointF(x, points.back().y()));
            points.append(QPointF(x, y));
            maxX = std::max(maxX, x);
            maxY = std::max(maxY, y);
        }
        m_series[s]->replace(points);
    }
    m_axisX->setRange(0, maxX * 1.02);
    m_axisY->setRange(0, maxY * 1.1);
    m_axisY->applyNiceNumbers();
}

int DiffMemoryChart::pointCount(size_t run) const { return static_cast<int>(m_series[run]->count()); }

} // namespace ws
