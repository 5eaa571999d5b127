#include "step_breakdown_chart.h"

#include "analysis/step_breakdown.h"
#include "time_bar_axes.h"

#include <QtCharts/QBarSet>
#include <QtCharts/QChart>
#include <QtCharts/QLegend>
#include <QtCharts/QStackedBarSeries>

#include <algorithm>

namespace ws {

namespace {

// One fixed color per role, so a role looks the same in every session and selection.
const QColor kRoleColors[kStepRoleCount] = {
    QColor(0x4c, 0x72, 0xb0), // Kernel
    QColor(0xdd, 0x84, 0x52), // Memcpy
    QColor(0x55, 0xa8, 0x68), // Memset
    QColor(0xc4, 0x4e, 0x52), // Communication
    QColor(0x81, 0x72, 0xb3), // Runtime
    QColor(0x93, 0x78, 0x60), // DataLoader
    QColor(0xda, 0x8b, 0xc3), // CPU Exec
    QColor(0x8c, 0x8c, 0x8c), // Other
};

const char* const kRoleTitles[kStepRoleCount] = {
    QT_TRANSLATE_NOOP("ws::StepBreakdownChart", "Kernel"),
    QT_TRANSLATE_NOOP("ws::StepBreakdownChart", "Memcpy"),
    QT_TRANSLATE_NOOP("ws::StepBreakdownChart", "Memset"),
    QT_TRANSLATE_NOOP("ws::StepBreakdownChart", "Communication"),
    QT_TRANSLATE_NOOP("ws::StepBreakdownChart", "Runtime"),
    QT_TRANSLATE_NOOP("ws::StepBreakdownChart", "DataLoader"),
    QT_TRANSLATE_NOOP("ws::StepBreakdownChart", "CPU Exec"),
    QT_TRANSLATE_NOOP("ws::StepBreakdownChart", "Other"),
};

} // namespace

QString StepBreakdownChart::roleTitle(size_t role) { return tr(kRoleTitles[role]); }

QColor StepBreakdownChart::roleColor(size_t role) { return kRoleColors[role]; }

StepBreakdownChart::StepBreakdownChart(QWidget* parent) : QChartView(parent) {
    setObjectName(QStringLiteral("stepBreakdownChart"));
    setRenderHint(QPainter::Antialiasing);
    setMinimumHeight(260);
    auto* chart = new QChart();
    chart->legend()->setAlignment(Qt::AlignRight);
    chart->setMargins(QMargins(4, 4, 4, 4));
    // QChartView made a default chart of its own and gives up its ownership here: delete it (it
    // leaked once per view, which LeakSanitizer reported).
    QChart* previous = QChartView::chart();
    setChart(chart);
    delete previous;
}

void StepBreakdownChart::setBreakdown(const StepBreakdown& b, double axisMaxMs) {
    QChart* chart = this->chart();
    chart->removeAllSeries();
    for (QAbstractAxis* axis : chart->axes()) {
        chart->removeAxis(axis); // the chart gives a removed axis back: delete it, or it stays drawn
        delete axis;
    }
    m_sets = 0;
    const size_t bars = std::min<size_t>(b.steps.size(), kMaxBars);
    auto* series = new QStackedBarSeries();
    QStringList categories;
    double maxTotal = 0;
    for (size_t i = 0; i < bars; ++i) {
        const StepCosts& st = b.steps[i];
        categories << (st.label.empty() ? (b.steps.size() == 1 ? tr("All") : QString::number(i + 1))
                                        : QString::fromStdString(st.label));
        maxTotal = std::max(maxTotal, static_cast<double>(st.total()) / 1e6);
    }
    for (size_t role = 0; role < kStepRoleCount; ++role) {
        bool any = false;
        for (size_t i = 0; i < bars; ++i)
            any |= b.steps[i].cost[role] > 0;
        if (!any)
            continue;
        auto* set = new QBarSet(roleTitle(role));
        set->setColor(kRoleColors[role]);
        set->setBorderColor(kRoleColors[role]);
        for (size_t i = 0; i < bars; ++i)
            *set << static_cast<double>(b.steps[i].cost[role]) / 1e6;
        series->append(set);
        ++m_sets;
    }
    series->setBarWidth(0.6);
    maxTotal = std::max(maxTotal, axisMaxMs);
    chart->addSeries(series);
    attachTimeBarAxes(chart, series, categories,
                      b.steps.size() > bars ? tr("Step (first %1 of %2)").arg(bars).arg(b.steps.size()) : tr("Step"),
                      maxTotal);
}

} // namespace ws
