#include "diff_models.h"

#include "format.h"

#include <QColor>

namespace ws {

namespace {

QString presenceText(DiffPresence p) {
    switch (p) {
    case DiffPresence::Both: return {};
    case DiffPresence::New: return OperatorDiffModel::tr("B (new)");
    case DiffPresence::Vanished: return OperatorDiffModel::tr("A (gone)");
    }
    return {};
}

// The headline's metric names (core's, in English) as shown.
QString metricTitle(const std::string& name) {
    static const std::pair<const char*, const char*> titles[] = {
        {"steps", QT_TRANSLATE_NOOP("HeadlineDiffModel", "Steps")},
        {"step time", QT_TRANSLATE_NOOP("HeadlineDiffModel", "Step time (mean)")},
        {"GPU utilization", QT_TRANSLATE_NOOP("HeadlineDiffModel", "GPU utilization")},
        {"Est. SM efficiency", QT_TRANSLATE_NOOP("HeadlineDiffModel", "Est. SM efficiency")},
        {"achieved occupancy", QT_TRANSLATE_NOOP("HeadlineDiffModel", "Est. achieved occupancy")},
        {"Tensor Core share", QT_TRANSLATE_NOOP("HeadlineDiffModel", "Tensor Core share of kernel time")},
        {"peak allocated memory", QT_TRANSLATE_NOOP("HeadlineDiffModel", "Peak allocated memory")},
        {"kernel time per step", QT_TRANSLATE_NOOP("HeadlineDiffModel", "Kernel time per step")},
        {"memcpy time per step", QT_TRANSLATE_NOOP("HeadlineDiffModel", "Memcpy time per step")},
        {"communication time per step", QT_TRANSLATE_NOOP("HeadlineDiffModel", "Communication time per step")},
        {"CPU exec time per step", QT_TRANSLATE_NOOP("HeadlineDiffModel", "CPU exec time per step")},
    };
    for (const auto& [core, shown] : titles)
        if (name == core)
            return HeadlineDiffModel::tr(shown);
    return QString::fromStdString(name);
}

// A signed duration: "+1.20 ms", "−300 µs".
QString signedDuration(int64_t ns) {
    if (ns == 0)
        return QStringLiteral("0");
    return (ns > 0 ? QStringLiteral("+") : QStringLiteral("−")) + formatDuration(ns > 0 ? ns : -ns);
}

// Slower (more time) in red, faster in green: the colour of a delta cell.
QVariant deltaColour(int64_t ns) {
    if (ns == 0)
        return {};
    return ns > 0 ? QColor(0xb0, 0x00, 0x20) : QColor(0x1b, 0x7f, 0x3b);
}

QVariant count(bool key, uint64_t n) { return key ? QVariant(static_cast<qulonglong>(n)) : QVariant(formatCount(n)); }
QVariant duration(bool key, int64_t ns) { return key ? QVariant(static_cast<qlonglong>(ns)) : QVariant(formatDuration(ns)); }

} // namespace

void DiffTableModel::setDiff(std::shared_ptr<const SessionDiff> diff) {
    beginResetModel();
    m_diff = std::move(diff);
    endResetModel();
}

int DiffTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !m_diff ? 0 : static_cast<int>(rows(*m_diff));
}

int DiffTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : columns(); }

// ---- headline ----

QVariant HeadlineDiffModel::data(const QModelIndex& index, int role) const {
    if (!m_diff || !index.isValid() || index.row() >= rowCount())
        return {};
    const DiffMetric& m = m_diff->headline[static_cast<size_t>(index.row())];
    const auto change = m.percentChange();
    if (role == Qt::TextAlignmentRole)
        return index.column() == Metric ? QVariant() : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ForegroundRole && index.column() == Change && change && *change != 0 &&
        (m.unit == "ns" || m.name == "peak allocated memory"))
        return deltaColour(*change > 0 ? 1 : -1); // more time or memory is worse
    if (role != Qt::DisplayRole && role != Qt::UserRole)
        return {};
    const bool key = role == Qt::UserRole;
    auto value = [&](size_t side) -> QVariant {
        if (!m.value[side])
            return key ? QVariant() : QVariant(tr("n/a"));
        const double v = *m.value[side];
        if (key)
            return v;
        if (m.unit == "ns")
            return formatDuration(static_cast<int64_t>(v));
        if (m.unit == "bytes")
            return formatBytes(static_cast<int64_t>(v));
        if (m.unit == "%")
            return formatPercent(v / 100.0);
        return formatCount(static_cast<uint64_t>(v));
    };
    switch (static_cast<Column>(index.column())) {
    case Metric: return metricTitle(m.name);
    case A: return value(0);
    case B: return value(1);
    case Change:
        if (!change)
            return key ? QVariant() : QVariant(QString());
        return key ? QVariant(*change) : QVariant(QStringLiteral("%1%2 %").arg(*change > 0 ? QStringLiteral("+") : QString()).arg(*change, 0, 'f', 1));
    case ColumnCount: break;
    }
    return {};
}

QVariant HeadlineDiffModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (static_cast<Column>(section)) {
    case Metric: return tr("Metric");
    case A: return tr("A (baseline)");
    case B: return tr("B");
    case Change: return tr("Change");
    case ColumnCount: break;
    }
    return {};
}

// ---- operators ----

QVariant OperatorDiffModel::data(const QModelIndex& index, int role) const {
    if (!m_diff || !index.isValid() || index.row() >= rowCount())
        return {};
    const OperatorDiffRow& r = m_diff->operators[static_cast<size_t>(index.row())];
    const auto column = static_cast<Column>(index.column());
    if (role == Qt::ForegroundRole && column == Delta)
        return deltaColour(r.deltaNs);
    if (role == Qt::TextAlignmentRole)
        return column >= Delta ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    if (role == Qt::ToolTipRole && column == CallStack)
        return QString::fromStdString(r.callStack);
    if (role != Qt::DisplayRole && role != Qt::UserRole)
        return {};
    const bool key = role == Qt::UserRole;
    switch (column) {
    case Name: return QString::fromStdString(r.name);
    case Shapes: return QString::fromStdString(r.shapes);
    case CallStack: return QString::fromStdString(r.callStack);
    case Presence: return presenceText(r.presence);
    case CallsA: return count(key, r.calls[0]);
    case CallsB: return count(key, r.calls[1]);
    case HostSelfA: return duration(key, r.hostSelfNs[0]);
    case HostSelfB: return duration(key, r.hostSelfNs[1]);
    case DeviceSelfA: return duration(key, r.deviceSelfNs[0]);
    case DeviceSelfB: return duration(key, r.deviceSelfNs[1]);
    case DeviceTotalA: return duration(key, r.deviceTotalNs[0]);
    case DeviceTotalB: return duration(key, r.deviceTotalNs[1]);
    case Delta: return key ? QVariant(static_cast<qlonglong>(r.deltaNs)) : QVariant(signedDuration(r.deltaNs));
    case ColumnCount: break;
    }
    return {};
}

QVariant OperatorDiffModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (static_cast<Column>(section)) {
    case Name: return tr("Operator");
    case Shapes: return tr("Input shapes");
    case CallStack: return tr("Call stack");
    case Presence: return tr("Only in");
    case CallsA: return tr("Calls A");
    case CallsB: return tr("Calls B");
    case HostSelfA: return tr("Host self A");
    case HostSelfB: return tr("Host self B");
    case DeviceSelfA: return tr("Device self A");
    case DeviceSelfB: return tr("Device self B");
    case DeviceTotalA: return tr("Device total A");
    case DeviceTotalB: return tr("Device total B");
    case Delta: return m_diff && !m_diff->deviceTimes ? tr("Δ host self") : tr("Δ device self");
    case ColumnCount: break;
    }
    return {};
}

// ---- kernels ----

void KernelDiffModel::setByOperator(bool byOperator) {
    if (byOperator == m_byOperator)
        return;
    beginResetModel();
    m_byOperator = byOperator;
    endResetModel();
}

QVariant KernelDiffModel::data(const QModelIndex& index, int role) const {
    if (!m_diff || !index.isValid() || index.row() >= rowCount())
        return {};
    const KernelDiffRow& r = table(*m_diff)[static_cast<size_t>(index.row())];
    const auto column = static_cast<Column>(index.column());
    if (role == Qt::ForegroundRole && column == Delta)
        return deltaColour(r.deltaNs);
    if (role == Qt::TextAlignmentRole)
        return column >= Delta && column <= TotalB ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    if (role == Qt::ToolTipRole && column == Normalized)
        return tr("A: %1\nB: %2").arg(QString::fromStdString(r.names[0]), QString::fromStdString(r.names[1]));
    if (role != Qt::DisplayRole && role != Qt::UserRole)
        return {};
    const bool key = role == Qt::UserRole;
    switch (column) {
    case Normalized: return QString::fromStdString(r.key);
    case Operator: return r.op.empty() && !key ? tr("(no operator)") : QString::fromStdString(r.op);
    case Presence: return presenceText(r.presence);
    case CallsA: return count(key, r.calls[0]);
    case CallsB: return count(key, r.calls[1]);
    case TotalA: return duration(key, r.totalNs[0]);
    case TotalB: return duration(key, r.totalNs[1]);
    case Delta: return key ? QVariant(static_cast<qlonglong>(r.deltaNs)) : QVariant(signedDuration(r.deltaNs));
    case NameA: return QString::fromStdString(r.names[0]);
    case NameB: return QString::fromStdString(r.names[1]);
    case ColumnCount: break;
    }
    return {};
}

QVariant KernelDiffModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (static_cast<Column>(section)) {
    case Normalized: return tr("Kernel (normalized)");
    case Operator: return tr("Launched by");
    case Presence: return tr("Only in");
    case CallsA: return tr("Calls A");
    case CallsB: return tr("Calls B");
    case TotalA: return tr("Total A");
    case TotalB: return tr("Total B");
    case Delta: return tr("Δ total");
    case NameA: return tr("Name in A");
    case NameB: return tr("Name in B");
    case ColumnCount: break;
    }
    return {};
}

} // namespace ws
