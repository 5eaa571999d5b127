#include "time_bar_axes.h"

#include <QCoreApplication>
#include <QtCharts/QAbstractBarSeries>
#include <QtCharts/QBarCategoryAxis>
#include <QtCharts/QChart>
#include <QtCharts/QValueAxis>

namespace ws {

void attachTimeBarAxes(QChart* chart, QAbstractBarSeries* series, const QStringList& categories, const QString& xTitle,
                       double maxMs) {
    auto* x = new QBarCategoryAxis();
    x->append(categories);
    x->setTitleText(xTitle);
    auto* y = new QValueAxis();
    y->setTitleText(QCoreApplication::translate("ws::TimeBarAxes", "Time (ms)"));
    y->setRange(0, maxMs > 0 ? maxMs * 1.05 : 1);
    y->applyNiceNumbers();
    y->setLabelFormat(QStringLiteral("%.4g"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    series->attachAxis(x);
    series->attachAxis(y);
}

} // namespace ws
