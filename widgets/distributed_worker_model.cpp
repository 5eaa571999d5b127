#include "distributed_worker_model.h"

#include "analysis/distributed.h"
#include "format.h"

#include <QBrush>
#include <QColor>
#include <QFile>

namespace ws {

void DistributedWorkerModel::setJob(std::shared_ptr<const JobDistributed> job) {
    beginResetModel();
    m_job = std::move(job);
    endResetModel();
}

QString DistributedWorkerModel::pathOf(int row) const {
    if (!m_job || row < 0 || static_cast<size_t>(row) >= m_job->workers.size())
        return {};
    return QFile::decodeName(m_job->workers[static_cast<size_t>(row)].path.c_str());
}

int DistributedWorkerModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !m_job ? 0 : static_cast<int>(m_job->workers.size());
}

int DistributedWorkerModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant DistributedWorkerModel::data(const QModelIndex& index, int role) const {
    if (!m_job || !index.isValid())
        return {};
    const size_t w = static_cast<size_t>(index.row());
    const RankDistributed& r = m_job->workers[w];
    const WorkerSteps& s = m_job->steps[w];
    const bool slowest = m_job->slowestWorker == w, fastest = m_job->fastestWorker == w, straggler = m_job->straggler == w;
    if (role == Qt::BackgroundRole) {
        if (slowest)
            return QBrush(QColor(255, 228, 225));
        if (fastest)
            return QBrush(QColor(226, 244, 226));
        return {};
    }
    if (role == Qt::TextAlignmentRole)
        return index.column() <= Gpu || index.column() == Mark ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                                               : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    auto nsValue = [&](double ns) -> QVariant {
        if (role == Qt::UserRole)
            return ns;
        return formatDuration(static_cast<int64_t>(ns));
    };
    if (role != Qt::DisplayRole && role != Qt::UserRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case Rank: return r.rank >= 0 ? QVariant(r.rank) : QVariant(role == Qt::UserRole ? QVariant(1 << 30) : QVariant(tr("?")));
    case Worker:
        return role == Qt::ToolTipRole ? QFile::decodeName(r.path.c_str()) : QString::fromStdString(r.worker);
    case Gpu: return QString::fromStdString(r.gpuName);
    case Steps: return static_cast<qulonglong>(r.steps.size());
    case StepTime: return nsValue(s.meanStepNs);
    case Computation: return nsValue(s.meanComputation - s.meanOverlap);
    case Overlap: return nsValue(s.meanOverlap);
    case Communication: return nsValue(s.meanCommunication - s.meanOverlap);
    case Other: return nsValue(s.meanOther);
    case Sync: return nsValue(s.meanSync);
    case Transfer: return nsValue(s.meanTransfer);
    case Utilization:
        if (role == Qt::UserRole)
            return r.gpuUtilization.value_or(-1.0);
        return formatPercent(r.gpuUtilization);
    case PeakMemory:
        if (role == Qt::UserRole)
            return static_cast<double>(r.peakMemoryBytes.value_or(-1));
        return r.peakMemoryBytes ? formatBytes(*r.peakMemoryBytes) : tr("n/a");
    case Mark: {
        QStringList marks;
        if (slowest)
            marks << tr("slowest");
        if (fastest)
            marks << tr("fastest");
        if (straggler)
            marks << tr("straggler: others wait %1 per step").arg(formatDuration(static_cast<int64_t>(m_job->stragglerMeanWaitNs)));
        return marks.join(QStringLiteral(", "));
    }
    default: return {};
    }
}

QVariant DistributedWorkerModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case Computation: return tr("Mean per step: kernel time not overlapped by communication");
        case Overlap: return tr("Mean per step: computation and communication at the same time");
        case Communication: return tr("Mean per step: communication not overlapped by computation");
        case Other: return tr("Mean per step: neither computation nor communication (CPU, idle)");
        case Sync: return tr("Mean per step: communication spent waiting for the other ranks to arrive");
        case Transfer: return tr("Mean per step: communication spent moving data");
        default: return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Rank: return tr("Rank");
    case Worker: return tr("Worker");
    case Gpu: return tr("GPU");
    case Steps: return tr("Steps");
    case StepTime: return tr("Step time");
    case Computation: return tr("Computation");
    case Overlap: return tr("Overlap");
    case Communication: return tr("Communication");
    case Other: return tr("Other");
    case Sync: return tr("Synchronizing");
    case Transfer: return tr("Transfer");
    case Utilization: return tr("GPU utilization");
    case PeakMemory: return tr("Peak memory");
    case Mark: return tr("Note");
    default: return {};
    }
}

} // namespace ws
