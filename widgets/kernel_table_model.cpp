#include "kernel_table_model.h"

#include "format.h"
#include "model/session.h"

#include <cmath>
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
    if (column < 0 || column >= columnCount())
        return;
    relayout(m_table ? m_table->size() : 0, [&] {
        m_sortNcu.reset();
        if (column < static_cast<int>(kKernelColumnCount))
            m_sortColumn = static_cast<KernelColumn>(column);
        else
            m_sortNcu = column - static_cast<int>(kKernelColumnCount);
        m_descending = order == Qt::DescendingOrder;
        rebuild();
    });
}

void KernelTableModel::setMeasured(const NcuResults& results, const NcuMatch& match) {
    beginResetModel();
    m_measured.clear();
    m_measuredRow.clear();
    for (const NcuMatchedLaunch& l : match.launches) {
        if (!l.row)
            continue;
        const NcuResult& r = results.results[l.result];
        m_measuredRow[*l.row] = static_cast<uint32_t>(m_measured.size());
        m_measured.push_back({r.durationNs, r.smThroughputPct, r.memoryThroughputPct, l.measuredBound});
    }
    if (m_sortNcu && m_measured.empty())
        m_sortNcu.reset();
    rebuild();
    endResetModel();
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
    if (m_sortNcu) {
        // By what ncu measured; the calls it did not profile last either way, in start order.
        auto key = [&](uint32_t r) -> double {
            const auto it = m_measuredRow.find(r);
            if (it == m_measuredRow.end())
                return std::nan("");
            const Measured& m = m_measured[it->second];
            switch (static_cast<NcuColumn>(*m_sortNcu)) {
            case NcuColumn::Duration: return m.durationNs;
            case NcuColumn::SmThroughput: return m.smPct;
            case NcuColumn::MemoryThroughput: return m.memoryPct;
            case NcuColumn::Bound: return static_cast<double>(m.bound);
            }
            return std::nan("");
        };
        m_order.resize(m_table->size());
        std::iota(m_order.begin(), m_order.end(), 0u);
        std::stable_sort(m_order.begin(), m_order.end(), [&](uint32_t a, uint32_t b) {
            const double x = key(a), y = key(b);
            if (std::isnan(x) || std::isnan(y))
                return !std::isnan(x) && std::isnan(y);
            return m_descending ? x > y : x < y;
        });
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
    return parent.isValid() ? 0 : static_cast<int>(kKernelColumnCount) + (m_measured.empty() ? 0 : kNcuColumnCount);
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
    if (index.column() >= static_cast<int>(kKernelColumnCount)) {
        if (role == Qt::TextAlignmentRole)
            return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
        if (role == Qt::UserRole)
            return QVariant::fromValue(static_cast<qulonglong>(row));
        const auto it = m_measuredRow.find(row);
        if (role != Qt::DisplayRole || it == m_measuredRow.end())
            return {};
        const Measured& m = m_measured[it->second];
        auto figure = [](double v) { return std::isnan(v) ? QString() : QString::number(v, 'f', 1); };
        switch (static_cast<NcuColumn>(index.column() - static_cast<int>(kKernelColumnCount))) {
        case NcuColumn::Duration: return std::isnan(m.durationNs) ? QString() : formatDuration(static_cast<int64_t>(m.durationNs));
        case NcuColumn::SmThroughput: return figure(m.smPct);
        case NcuColumn::MemoryThroughput: return figure(m.memoryPct);
        case NcuColumn::Bound: return boundText(m.bound);
        }
        return {};
    }
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
    if (section >= static_cast<int>(kKernelColumnCount)) {
        switch (static_cast<NcuColumn>(section - static_cast<int>(kKernelColumnCount))) {
        case NcuColumn::Duration: return tr("ncu duration");
        case NcuColumn::SmThroughput: return tr("ncu SM %");
        case NcuColumn::MemoryThroughput: return tr("ncu memory %");
        case NcuColumn::Bound: return tr("ncu bound");
        }
        return {};
    }
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
