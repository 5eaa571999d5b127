#include "kernel_pie_chart.h"

#include "analysis/kernel_display_name.h"
#include "model/session.h"

#include <QChart>
#include <QChartView>
#include <QCursor>
#include <QLegendMarker>
#include <QPieLegendMarker>
#include <QPieSeries>
#include <QPieSlice>
#include <QSet>
#include <QToolTip>
#include <QVBoxLayout>

namespace ws {

namespace {

// Kernel names are C++ signatures; the legend shows the function's own name (shortKernelName), cut
// to a legend's width, and the full name is the tooltip.
QString shortName(std::string_view name) {
    QString s = QString::fromStdString(shortKernelName(name));
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
    QSet<QString> used;
    for (const KernelGroup& g : groups)
        total += g.totalNs;
    for (size_t i = 0; i < groups.size(); ++i) {
        if (i >= kTopN) {
            other += groups[i].totalNs;
            continue;
        }
        // Kernels whose short names meet (elementwise kernels of different functors) are numbered.
        const QString base = shortName(session.str(groups[i].name));
        QString label = base;
        for (int n = 2; used.contains(label); ++n)
            label = base + QStringLiteral(" (%1)").arg(n);
        used.insert(label);
        QPieSlice* slice = series->append(label, static_cast<double>(groups[i].totalNs));
        slice->setProperty("fullName", QString::fromStdString(std::string(session.str(groups[i].name))));
    }
    if (other > 0)
        series->append(tr("Other"), static_cast<double>(other));
    for (QPieSlice* slice : series->slices()) {
        const double pct = total > 0 ? 100.0 * slice->value() / static_cast<double>(total) : 0;
        slice->setLabel(tr("%1 (%2 %)").arg(slice->label()).arg(pct, 0, 'f', 1));
    }
    series->setPieSize(0.85);
    m_chart->addSeries(series);
    // The full name on hover, over a slice or its legend entry.
    const auto showFull = [](QPieSlice* slice, bool state) {
        const QString full = slice->property("fullName").toString();
        if (state && !full.isEmpty())
            QToolTip::showText(QCursor::pos(), full);
        else
            QToolTip::hideText();
    };
    connect(series, &QPieSeries::hovered, this, showFull);
    for (QLegendMarker* marker : m_chart->legend()->markers(series))
        if (auto* pieMarker = qobject_cast<QPieLegendMarker*>(marker))
            connect(pieMarker, &QLegendMarker::hovered, this,
                    [slice = pieMarker->slice(), showFull](bool state) { showFull(slice, state); });
}

QString KernelPieChart::fullName(int index) const {
    for (QAbstractSeries* s : m_chart->series())
        if (auto* pie = qobject_cast<QPieSeries*>(s))
            if (index >= 0 && index < pie->count())
                return pie->slices().at(index)->property("fullName").toString();
    return {};
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
