#pragma once

#include <QStringList>

class QAbstractBarSeries;
class QChart;

namespace ws {

// Gives a bar chart its axes: the categories below (titled xTitle) and a "Time (ms)" axis on the
// left from 0 to a nice number above maxMs, both attached to `series` (already in `chart`).
void attachTimeBarAxes(QChart* chart, QAbstractBarSeries* series, const QStringList& categories, const QString& xTitle,
                       double maxMs);

} // namespace ws
