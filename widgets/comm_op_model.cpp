#include "comm_op_model.h"

#include "analysis/distributed.h"
#include "format.h"

namespace ws {

void CommOpModel::setJob(std::shared_ptr<const JobDistributed> job) {
    beginResetModel();
    m_job = std::move(job);
    endResetModel();
}

int CommOpModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !m_job ? 0 : static_cast<int>(m_job->ops.size());
}

int CommOpModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant CommOpModel::data(const QModelIndex& index, int role) const {
    if (!m_job || !index.isValid())
        return {};
    const CommOpStats& op = m_job->ops[static_cast<size_t>(index.row())];
    if (role == Qt::TextAlignmentRole)
        return index.column() >= Calls ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != Qt::UserRole)
        return {};
    const bool key = role == Qt::UserRole;
    const double calls = static_cast<double>(op.calls);
    auto duration = [&](double ns) -> QVariant { return key ? QVariant(ns) : QVariant(formatDuration(static_cast<int64_t>(ns))); };
    auto bandwidth = [&](const std::optional<double>& v) -> QVariant {
        if (key)
            return v.value_or(-1.0);
        return v ? QString::number(*v, 'f', 2) : tr("n/a");
    };
    switch (index.column()) {
    case Rank: return m_job->workers[op.worker].rank;
    case Group:
        return op.processGroup.empty() ? tr("default") : QString::fromStdString(op.processGroup);
    case Operation: return QString::fromStdString(op.name);
    case Collective: return QString::fromLatin1(collectiveKindName(op.kind));
    case Calls: return static_cast<qulonglong>(op.calls);
    case TotalSize:
        if (key)
            return op.bytesKnown ? static_cast<double>(op.totalBytes) : -1.0;
        return op.bytesKnown ? formatBytes(op.totalBytes) : tr("n/a");
    case AvgSize:
        if (key)
            return op.bytesKnown ? static_cast<double>(op.totalBytes) / calls : -1.0;
        return op.bytesKnown ? formatBytes(static_cast<int64_t>(static_cast<double>(op.totalBytes) / calls)) : tr("n/a");
    case TotalLatency: return duration(static_cast<double>(op.latencyNs));
    case AvgLatency: return duration(static_cast<double>(op.latencyNs) / calls);
    case Transfer: return duration(static_cast<double>(op.transferNs));
    case AlgBw: return bandwidth(op.algBwGBps);
    case BusBw: return bandwidth(op.busBwGBps);
    default: return {};
    }
}

QVariant CommOpModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case TotalSize: return tr("Bytes of the operation's input tensors (shape x element size), summed over calls");
        case TotalLatency: return tr("Time the operation was in flight: its CPU call and its kernels, summed over calls");
        case Transfer: return tr("Latency minus the time spent waiting for other ranks");
        case AlgBw: return tr("nccl-tests algorithm bandwidth: size / kernel time (GB/s)");
        case BusBw: return tr("nccl-tests bus bandwidth: algorithm bandwidth x the collective's factor for the group size (GB/s)");
        default: return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Rank: return tr("Rank");
    case Group: return tr("Process group");
    case Operation: return tr("Operation");
    case Collective: return tr("Collective");
    case Calls: return tr("Calls");
    case TotalSize: return tr("Total size");
    case AvgSize: return tr("Mean size");
    case TotalLatency: return tr("Total latency");
    case AvgLatency: return tr("Mean latency");
    case Transfer: return tr("Transfer");
    case AlgBw: return tr("Alg. BW (GB/s)");
    case BusBw: return tr("Bus BW (GB/s)");
    default: return {};
    }
}

} // namespace ws
