#include "memory_op_stats_model.h"

#include "format.h"
#include "model/session.h"

#include <algorithm>

namespace ws {

namespace {

int64_t numericKey(const MemoryOpStat& r, int column) {
    switch (column) {
    case MemoryOpStatsModel::Calls: return static_cast<int64_t>(r.calls);
    case MemoryOpStatsModel::SizeIncrease: return r.sizeIncrease;
    case MemoryOpStatsModel::SelfSizeIncrease: return r.selfSizeIncrease;
    case MemoryOpStatsModel::AllocationCount: return static_cast<int64_t>(r.allocationCount);
    case MemoryOpStatsModel::SelfAllocationCount: return static_cast<int64_t>(r.selfAllocationCount);
    case MemoryOpStatsModel::AllocationSize: return r.allocationSize;
    case MemoryOpStatsModel::SelfAllocationSize: return r.selfAllocationSize;
    default: return 0;
    }
}

} // namespace

MemoryOpStatsModel::MemoryOpStatsModel(QObject* parent) : PermutedTableModel(parent) {}

void MemoryOpStatsModel::setStats(std::shared_ptr<const Session> session, std::shared_ptr<const MemoryOpStats> stats,
                                  std::optional<MemoryDevice> device) {
    beginResetModel();
    m_session = std::move(session);
    m_stats = std::move(stats);
    m_order = m_stats ? m_stats->select(device) : std::vector<uint32_t>{};
    applySort();
    endResetModel();
}

void MemoryOpStatsModel::applySort() {
    if (m_sortColumn < 0 || !m_stats || !m_session)
        return;
    const bool desc = m_sortOrder == Qt::DescendingOrder;
    const auto& rows = m_stats->rows();
    if (m_sortColumn == Operator) {
        std::stable_sort(m_order.begin(), m_order.end(), [&](uint32_t a, uint32_t b) {
            const std::string_view x = m_session->str(rows[a].name), y = m_session->str(rows[b].name);
            return desc ? y < x : x < y;
        });
        return;
    }
    std::stable_sort(m_order.begin(), m_order.end(), [&](uint32_t a, uint32_t b) {
        const int64_t x = numericKey(rows[a], m_sortColumn), y = numericKey(rows[b], m_sortColumn);
        return desc ? y < x : x < y;
    });
}

void MemoryOpStatsModel::sort(int column, Qt::SortOrder order) {
    if (column < 0 || column >= ColumnCount)
        return;
    relayout(m_stats ? m_stats->size() : 0, [&] {
        m_sortColumn = column;
        m_sortOrder = order;
        applySort();
    });
}

int MemoryOpStatsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_order.size());
}

int MemoryOpStatsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

const MemoryOpStat* MemoryOpStatsModel::statAt(const QModelIndex& index) const {
    if (!index.isValid() || index.row() >= rowCount())
        return nullptr;
    return &m_stats->rows()[m_order[static_cast<size_t>(index.row())]];
}

QVariant MemoryOpStatsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount)
        return {};
    const uint32_t row = m_order[static_cast<size_t>(index.row())];
    const MemoryOpStat& r = m_stats->rows()[row];
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case Operator: return QString::fromUtf8(m_session->str(r.name).data(), static_cast<qsizetype>(m_session->str(r.name).size()));
        case Calls: return formatCount(r.calls);
        case SizeIncrease: return formatBytes(r.sizeIncrease);
        case SelfSizeIncrease: return formatBytes(r.selfSizeIncrease);
        case AllocationCount: return formatCount(r.allocationCount);
        case SelfAllocationCount: return formatCount(r.selfAllocationCount);
        case AllocationSize: return formatBytes(r.allocationSize);
        case SelfAllocationSize: return formatBytes(r.selfAllocationSize);
        default: return {};
        }
    case Qt::ToolTipRole:
        if (index.column() != Operator && index.column() != Calls && index.column() != AllocationCount &&
            index.column() != SelfAllocationCount)
            return tr("%1 bytes").arg(numericKey(r, index.column()));
        return {};
    case Qt::UserRole:
        return QVariant::fromValue(static_cast<qulonglong>(row));
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(Qt::Alignment(index.column() == Operator ? Qt::AlignLeft | Qt::AlignVCenter
                                                                            : Qt::AlignRight | Qt::AlignVCenter));
    default:
        return {};
    }
}

QVariant MemoryOpStatsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Operator: return tr("Operator");
    case Calls: return tr("Calls");
    case SizeIncrease: return tr("Size Increase");
    case SelfSizeIncrease: return tr("Self Size Increase");
    case AllocationCount: return tr("Allocation Count");
    case SelfAllocationCount: return tr("Self Allocation Count");
    case AllocationSize: return tr("Allocation Size");
    case SelfAllocationSize: return tr("Self Allocation Size");
    default: return {};
    }
}

} // namespace ws
