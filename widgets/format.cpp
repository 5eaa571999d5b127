#include "format.h"

#include <QCoreApplication>
#include <QLocale>

#include <cmath>
#include <cstdlib>

namespace ws {

namespace {
// Gives the free functions below a translation context ("ws::Format") that lupdate understands.
class Format {
    Q_DECLARE_TR_FUNCTIONS(ws::Format)
};

QString withUnit(double value, const char* unit) {
    const int decimals = std::abs(value) >= 100 ? 0 : (std::abs(value) >= 10 ? 1 : 2);
    return Format::tr("%1 %2").arg(QLocale().toString(value, 'f', decimals), Format::tr(unit));
}
} // namespace

QString formatDuration(int64_t ns) {
    const double v = static_cast<double>(ns);
    const double a = std::abs(v);
    if (a < 1e3)
        return Format::tr("%1 ns").arg(ns);
    if (a < 1e6)
        return withUnit(v / 1e3, QT_TRANSLATE_NOOP("ws::Format", "µs"));
    if (a < 1e9)
        return withUnit(v / 1e6, QT_TRANSLATE_NOOP("ws::Format", "ms"));
    return withUnit(v / 1e9, QT_TRANSLATE_NOOP("ws::Format", "s"));
}

QString formatBytes(int64_t bytes) {
    const double a = std::abs(static_cast<double>(bytes));
    if (a < 1024)
        return Format::tr("%1 B").arg(bytes);
    static const char* const units[] = {QT_TRANSLATE_NOOP("ws::Format", "KiB"),
                                        QT_TRANSLATE_NOOP("ws::Format", "MiB"),
                                        QT_TRANSLATE_NOOP("ws::Format", "GiB"),
                                        QT_TRANSLATE_NOOP("ws::Format", "TiB")};
    double v = static_cast<double>(bytes) / 1024.0;
    int unit = 0;
    while (std::abs(v) >= 1024.0 && unit < 3) {
        v /= 1024.0;
        ++unit;
    }
    return withUnit(v, units[unit]);
}

QString formatCount(uint64_t count) { return QLocale().toString(static_cast<qulonglong>(count)); }

QString formatPercent(std::optional<double> fraction) {
    if (!fraction)
        return Format::tr("n/a");
    return Format::tr("%1 %").arg(QLocale().toString(*fraction * 100.0, 'f', 2));
}

QString formatUtilization(double fraction) {
    if (std::isnan(fraction))
        return {};
    const double pct = 100 * fraction;
    const int decimals = pct >= 10 ? 1 : pct >= 0.1 ? 2 : 3;
    return Format::tr("%1 %").arg(QLocale().toString(pct, 'f', decimals));
}

QString formatGapCategory(GapCategory category) {
    switch (category) {
    case GapCategory::Sync: return Format::tr("Host synchronization");
    case GapCategory::Collective: return Format::tr("Collective wait");
    case GapCategory::DataLoading: return Format::tr("Data loading");
    case GapCategory::CpuWork: return Format::tr("Python / CPU work");
    case GapCategory::Nothing: break;
    }
    return Format::tr("Nothing recorded");
}

QString formatGapCategoryInSentence(GapCategory category) {
    switch (category) {
    case GapCategory::Sync: return Format::tr("host synchronization");
    case GapCategory::Collective: return Format::tr("a collective wait");
    case GapCategory::DataLoading: return Format::tr("data loading");
    case GapCategory::CpuWork: return Format::tr("Python / CPU work");
    case GapCategory::Nothing: break;
    }
    return Format::tr("nothing recorded");
}

} // namespace ws
