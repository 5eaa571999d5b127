#include "memory_allocation_model.h"

#include "format.h"
#include "model/session.h"

#include <QBrush>
#include <QColor>

#include <algorithm>

namespace ws {

namespace {

constexpr int64_t kUnknown = MemoryEvent::kUnknown;

// Sort key of a numeric column; unknown values sort last in both directions (handled by caller).
int64_t numericKey(const MemoryAllocation& r, int column) {
    switch (column) {
    case MemoryAllocationModel::Size: return r.bytes;
    case MemoryAllocationModel::AllocatedAt: return r.allocatedAt;
    case MemoryAllocationModel::FreedAt: return r.freedAt;
    case MemoryAllocationModel::Lifetime: return r.lifetime();
    case MemoryAllocationModel::Status: return r.leaked() ? 2 : (r.unmatchedFree() ? 1 : 0);
    default: return kUnknown;
    }
}

} // namespace

MemoryAllocationModel::MemoryAllocationModel(QObject* parent) : PermutedTableModel(parent) {}

void MemoryAllocationModel::setAllocations(std::shared_ptr<const Session> session,
                                           std::shared_ptr<const MemoryAllocations> allocations) {
    beginResetModel();
    m_session = std::move(session);
    m_allocations = std::move(allocations);
    m_opText.clear();
    if (m_session && m_allocations) {
        m_opText.reserve(m_allocations->size());
        for (const MemoryAllocation& r : m_allocations->rows())
            m_opText.push_back(MemoryAllocations::opText(*m_session, r));
    }
    rebuild();
    endResetModel();
}

void MemoryAllocationModel::setFilter(std::optional<MemoryDevice> device, std::optional<std::pair<int64_t, int64_t>> range) {
    if (device == m_device && range == m_range)
        return;
    beginResetModel();
    m_device = device;
    m_range = range;
    rebuild();
    endResetModel();
}

void MemoryAllocationModel::rebuild() {
    m_order.clear();
    if (!m_allocations)
        return;
    m_order = m_range ? m_allocations->select(m_device, m_range->first, m_range->second)
                      : m_allocations->select(m_device, INT64_MIN, INT64_MAX);
    applySort();
}

void MemoryAllocationModel::applySort() {
    if (m_sortColumn < 0 || !m_allocations)
        return;
    const bool desc = m_sortOrder == Qt::DescendingOrder;
    const auto& rows = m_allocations->rows();
    if (m_sortColumn == Operator) {
        std::stable_sort(m_order.begin(), m_order.end(), [&](uint32_t a, uint32_t b) {
            const std::string& x = m_opText[a];
            const std::string& y = m_opText[b];
            if (x.empty() != y.empty())
                return y.empty(); // unknown last
            return desc ? y < x : x < y;
        });
        return;
    }
    std::stable_sort(m_order.begin(), m_order.end(), [&](uint32_t a, uint32_t b) {
        const int64_t x = numericKey(rows[a], m_sortColumn);
        const int64_t y = numericKey(rows[b], m_sortColumn);
        if ((x == kUnknown) != (y == kUnknown))
            return y == kUnknown;
        return desc ? y < x : x < y;
    });
}

void MemoryAllocationModel::sort(int column, Qt::SortOrder order) {
    if (column < 0 || column >= ColumnCount)
        return;
    relayout(m_allocations ? m_allocations->size() : 0, [&] {
        m_sortColumn = column;
        m_sortOrder = order;
        applySort();
    });
}

int MemoryAllocationModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_order.size());
}

int MemoryAllocationModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

const MemoryAllocation* MemoryAllocationModel::allocationAt(const QModelIndex& index) const {
    if (!index.isValid() || index.row() >= rowCount())
        return nullptr;
    return &m_allocations->rows()[m_order[static_cast<size_t>(index.row())]];
}

QVariant MemoryAllocationModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount)
        return {};
    const uint32_t row = m_order[static_cast<size_t>(index.row())];
    const MemoryAllocation& r = m_allocations->rows()[row];
    const int64_t origin = m_session ? m_session->startNs() : 0;
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case Operator: return QString::fromStdString(m_opText[row]);
        case Size: return formatBytes(r.bytes);
        case AllocatedAt: return r.allocatedAt == kUnknown ? QString() : formatDuration(r.allocatedAt - origin);
        case FreedAt: return r.freedAt == kUnknown ? QString() : formatDuration(r.freedAt - origin);
        case Lifetime: return r.lifetime() == kUnknown ? QString() : formatDuration(r.lifetime());
        case Status:
            if (r.leaked())
                return tr("Leak (never freed)");
            if (r.unmatchedFree())
                return tr("Allocated before the trace");
            return QString();
        default: return {};
        }
    case Qt::ToolTipRole:
        if (index.column() == Size)
            return tr("%1 bytes").arg(r.bytes);
        if (r.leaked())
            return tr("Still allocated at the end of the trace");
        return {};
    case Qt::BackgroundRole:
        if (r.leaked())
            return QBrush(QColor(255, 205, 200));
        return {};
    case Qt::ForegroundRole:
        if (r.leaked())
            return QBrush(QColor(20, 20, 20)); // readable on the tint in dark themes too
        return {};
    case Qt::UserRole:
        return QVariant::fromValue(static_cast<qulonglong>(row));
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(Qt::Alignment(index.column() == Operator || index.column() == Status
                                                     ? Qt::AlignLeft | Qt::AlignVCenter
                                                     : Qt::AlignRight | Qt::AlignVCenter));
    default:
        return {};
    }
}

QVariant MemoryAllocationModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Operator: return tr("Operator");
    case Size: return tr("Size");
    case AllocatedAt: return tr("Allocated at");
    case FreedAt: return tr("Freed at");
    case Lifetime: return tr("Lifetime");
    case Status: return tr("Status");
    default: return {};
    }
}

} // namespace ws
