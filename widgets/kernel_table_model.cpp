#include "kernel_table_model.h"

#include "format.h"
#include "model/session.h"

#include <numeric>

namespace ws {

KernelTableModel::KernelTableModel(QObject* parent) : PermutedTableModel(parent) {}

void KernelTableModel::setTable(std::shared_ptr<const Session> session, std::shared_ptr<const KernelTable> table) {
    beginResetModel();
    m_session = std::move(session);
    m_table = std::move(table);
    rebuild();
    endResetModel();
}

void KernelTableModel::setNameFilter(const QString& needle) {
    if (needle == m_filter)
        return;
    beginResetModel();
    m_filter = needle;
    rebuild();
    endResetModel();
}

void KernelTableModel::setTimeRange(std::optional<TimeRange> range) {
    if (range == m_range)
        return;
    beginResetModel();
    m_range = range;
    rebuild();
    endResetModel();
}

void KernelTableModel::sort(int column, Qt::SortOrder order) {
    if (column < 0 || column >= static_cast<int>(kKernelColumnCount))
        return;
    relayout(m_table ? m_table->size() : 0, [&] {
        m_sortColumn = static_cast<KernelColumn>(column);
        m_descending = order == Qt::DescendingOrder;
        rebuild();
    });
}

void KernelTableModel::rebuild() {
    m_order.clear();
    if (!m_table)
        return;
    if (m_sortColumn) {
        m_order = m_table->sortedOrder(*m_sortColumn, m_descending);
    } else {
        m_order.resize(m_table->size());
        std::iota(m_order.begin(), m_order.end(), 0u);
    }
    if (!m_filter.isEmpty())
        m_order = m_table->filterByName(m_order, m_filter.toStdString());
    if (m_range) {
        // Kernels that overlap the range, as the timeline shows them.
        std::erase_if(m_order, [&](uint32_t r) {
            const KernelRow& k = m_table->row(r);
            return k.start >= m_range->end || k.start + k.dur <= m_range->start;
        });
    }
}

QString KernelTableModel::boundText(Bound bound) {
    switch (bound) {
    case Bound::Compute: return tr("compute");
    case Bound::Memory: return tr("memory");
    case Bound::Latency: return tr("latency");
    case Bound::Unknown: break;
    }
    return {};
}

int KernelTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_order.size());
}

int KernelTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(kKernelColumnCount);
}

const KernelRow* KernelTableModel::kernelAt(const QModelIndex& index) const {
    if (!index.isValid() || index.row() >= rowCount())
        return nullptr;
    return &m_table->row(m_order[static_cast<size_t>(index.row())]);
}

QVariant KernelTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount())
        return {};
    const uint32_t row = m_order[static_cast<size_t>(index.row())];
    const auto column = static_cast<KernelColumn>(index.column());
    switch (role) {
    case Qt::DisplayRole:
        // Start is shown from the session start (the CSV keeps the session clock).
        if (column == KernelColumn::Start)
            return formatDuration(m_table->row(row).start - m_session->startNs());
        if (column == KernelColumn::Bound)
            return boundText(m_table->row(row).bound);
        return QString::fromStdString(m_table->text(*m_session, row, column));
    case Qt::UserRole:
        return QVariant::fromValue(static_cast<qulonglong>(row));
    case Qt::TextAlignmentRole: {
        const bool text = column == KernelColumn::Kernel || column == KernelColumn::Operator ||
                          column == KernelColumn::Layer || column == KernelColumn::Direction ||
                          column == KernelColumn::InputShapes || column == KernelColumn::InputTypes ||
                          column == KernelColumn::TensorCores || column == KernelColumn::Bound;
        return QVariant::fromValue(Qt::Alignment(text ? Qt::AlignLeft | Qt::AlignVCenter
                                                      : Qt::AlignRight | Qt::AlignVCenter));
    }
    default:
        return {};
    }
}

QVariant KernelTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    // The tooltip is the title itself: long titles are cut to the column's width.
    if (orientation != Qt::Horizontal || (role != Qt::DisplayRole && role != Qt::ToolTipRole) || section < 0 ||
        section >= columnCount())
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (static_cast<KernelColumn>(section)) {
    case KernelColumn::Kernel: return tr("Kernel");
    case KernelColumn::Operator: return tr("Operator");
    case KernelColumn::Layer: return tr("Layer");
    case KernelColumn::Direction: return tr("Direction");
    case KernelColumn::InputShapes: return tr("Input shapes");
    case KernelColumn::InputTypes: return tr("Input types");
    case KernelColumn::Duration: return tr("Duration (ns)");
    case KernelColumn::Start: return tr("Start");
    case KernelColumn::Device: return tr("Device");
    case KernelColumn::Stream: return tr("Stream");
    case KernelColumn::Grid: return tr("Grid");
    case KernelColumn::Block: return tr("Block");
    case KernelColumn::Registers: return tr("Registers");
    case KernelColumn::SharedMemory: return tr("Shared memory (B)");
    case KernelColumn::BlocksPerSm: return tr("Blocks per SM");
    case KernelColumn::Occupancy: return tr("Est. achieved occupancy (%)");
    case KernelColumn::TensorCores: return tr("Tensor Cores");
    case KernelColumn::Flops: return tr("FLOPs");
    case KernelColumn::Bytes: return tr("Bytes");
    case KernelColumn::Tflops: return tr("TFLOP/s");
    case KernelColumn::GBps: return tr("GB/s");
    case KernelColumn::Graph: return tr("Graph");
    case KernelColumn::GraphNode: return tr("Graph node");
    case KernelColumn::Intensity: return tr("FLOP/byte");
    case KernelColumn::Bound: return tr("Bound");
    }
    return {};
}

} // namespace ws
