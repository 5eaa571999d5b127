#include "kernel_pie_chart.h"

#include "model/session.h"

#include <QChart>
#include <QChartView>
#include <QPieSeries>
#include <QPieSlice>
#include <QVBoxLayout>

namespace ws {

namespace {

// Kernel names are C++ signatures; the legend shows the head of them.
QString shortName(std::string_view name) {
    QString s = QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size()));
    constexpr qsizetype kMax = 48;
    return s.size() > kMax ? s.left(kMax - 1) + QChar(0x2026) : s;
}

} // namespace

KernelPieChart::KernelPieChart(QWidget* parent) : QWidget(parent), m_chart(new QChart), m_view(new QChartView(m_chart, this)) {
    m_chart->setTitle(tr("Top kernels by GPU time"));
    m_chart->legend()->setAlignment(Qt::AlignRight);
    m_chart->setMargins(QMargins(2, 2, 2, 2));
    m_view->setRenderHint(QPainter::Antialiasing);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view);
}

void KernelPieChart::setGroups(const Session& session, const std::vector<KernelGroup>& groups) {
    m_chart->removeAllSeries();
    auto* series = new QPieSeries;
    int64_t other = 0;
    int64_t total = 0;
    for (const KernelGroup& g : groups)
        total += g.totalNs;
    for (size_t i = 0; i < groups.size(); ++i) {
        if (i >= kTopN) {
            other += groups[i].totalNs;
            continue;
        }
        series->append(shortName(session.str(groups[i].name)), static_cast<double>(groups[i].totalNs));
    }
    if (other > 0)
        series->append(tr("Other"), static_cast<double>(other));
    for (QPieSlice* slice : series->slices()) {
        const double pct = total > 0 ? 100.0 * slice->value() / static_cast<double>(total) : 0;
        slice->setLabel(tr("%1 (%2 %)").arg(slice->label()).arg(pct, 0, 'f', 1));
    }
    series->setPieSize(0.85);
    m_chart->addSeries(series);
}

QStringList KernelPieChart::sliceLabels() const {
    QStringList out;
    for (QAbstractSeries* s : m_chart->series())
        if (auto* pie = qobject_cast<QPieSeries*>(s))
            for (QPieSlice* slice : pie->slices())
                out << slice->label();
    return out;
}

std::vector<double> KernelPieChart::sliceValues() const {
    std::vector<double> out;
    for (QAbstractSeries* s : m_chart->series())
        if (auto* pie = qobject_cast<QPieSeries*>(s))
            for (QPieSlice* slice : pie->slices())
                out.push_back(slice->value());
    return out;
}

} // namespace ws
