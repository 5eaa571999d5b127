#include "operator_table_model.h"

#include "format.h"
#include "model/session.h"

#include <numeric>

namespace ws {

OperatorTableModel::OperatorTableModel(QObject* parent) : PermutedTableModel(parent) {}

void OperatorTableModel::setTable(std::shared_ptr<const Session> session, std::shared_ptr<const OperatorTree> tree,
                                  std::shared_ptr<const OperatorTable> table) {
    beginResetModel();
    m_session = std::move(session);
    m_tree = std::move(tree);
    m_table = std::move(table);
    rebuild();
    endResetModel();
}

void OperatorTableModel::setNameFilter(const QString& needle) {
    if (needle == m_filter)
        return;
    beginResetModel();
    m_filter = needle;
    rebuild();
    endResetModel();
}

void OperatorTableModel::sort(int column, Qt::SortOrder order) {
    if (column < 0 || column >= static_cast<int>(kOperatorColumnCount))
        return;
    relayout(m_table ? m_table->size() : 0, [&] {
        m_sortColumn = static_cast<OperatorColumn>(column);
        m_descending = order == Qt::DescendingOrder;
        rebuild();
    });
}

void OperatorTableModel::rebuild() {
    m_order.clear();
    if (!m_table)
        return;
    if (m_sortColumn) {
        m_order = m_table->sortedOrder(*m_sortColumn, m_descending);
    } else {
        m_order.resize(m_table->size());
        std::iota(m_order.begin(), m_order.end(), 0u); // the table's default order
    }
    if (!m_filter.isEmpty())
        m_order = m_table->filterByName(m_order, m_filter.toStdString());
}

int OperatorTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_order.size());
}

int OperatorTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(kOperatorColumnCount);
}

const OperatorRow* OperatorTableModel::rowAt(const QModelIndex& index) const {
    if (!index.isValid() || index.row() >= rowCount())
        return nullptr;
    return &m_table->row(m_order[static_cast<size_t>(index.row())]);
}

QVariant OperatorTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount())
        return {};
    const uint32_t r = m_order[static_cast<size_t>(index.row())];
    const OperatorRow& row = m_table->row(r);
    const auto column = static_cast<OperatorColumn>(index.column());
    const bool device = m_table->hasDevice();
    switch (role) {
    case Qt::DisplayRole:
        switch (column) {
        case OperatorColumn::Calls: return formatCount(row.calls);
        case OperatorColumn::HostTotal: return formatDuration(row.hostTotalNs);
        case OperatorColumn::HostSelf: return formatDuration(row.hostSelfNs);
        case OperatorColumn::DeviceTotal: return device ? formatDuration(row.deviceTotalNs) : tr("n/a");
        case OperatorColumn::DeviceSelf: return device ? formatDuration(row.deviceSelfNs) : tr("n/a");
        case OperatorColumn::TensorCoreEligible: return row.tensorCoreEligible ? tr("Yes") : tr("No");
        case OperatorColumn::TcSelfPercent:
            return formatPercent(device ? row.tcSelfFraction() : std::nullopt);
        case OperatorColumn::TcTotalPercent:
            return formatPercent(device ? row.tcTotalFraction() : std::nullopt);
        case OperatorColumn::CallStack: {
            // One line in the cell (innermost frame first); the whole stack is in the tooltip.
            QString text = QString::fromStdString(m_table->text(*m_session, *m_tree, r, column));
            return text.replace(QLatin1Char(';'), QStringLiteral(" ← "));
        }
        default: return QString::fromStdString(m_table->text(*m_session, *m_tree, r, column));
        }
    case Qt::ToolTipRole:
        if (column == OperatorColumn::CallStack || column == OperatorColumn::Name ||
            column == OperatorColumn::InputShapes || column == OperatorColumn::InputTypes) {
            QString text = QString::fromStdString(m_table->text(*m_session, *m_tree, r, column));
            return text.replace(QLatin1Char(';'), QLatin1Char('\n'));
        }
        if (column == OperatorColumn::TcSelfPercent || column == OperatorColumn::TcTotalPercent)
            return tr("Share of the device time spent in kernels that use Tensor Cores");
        return {};
    case Qt::UserRole: return QVariant::fromValue(static_cast<qulonglong>(r));
    case Qt::TextAlignmentRole: {
        const bool text = column == OperatorColumn::Name || column == OperatorColumn::InputShapes ||
                          column == OperatorColumn::InputTypes || column == OperatorColumn::CallStack ||
                          column == OperatorColumn::TensorCoreEligible;
        return QVariant::fromValue(Qt::Alignment(text ? Qt::AlignLeft | Qt::AlignVCenter
                                                      : Qt::AlignRight | Qt::AlignVCenter));
    }
    default: return {};
    }
}

QVariant OperatorTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount())
        return QAbstractTableModel::headerData(section, orientation, role);
    const auto column = static_cast<OperatorColumn>(section);
    if (role == Qt::ToolTipRole) {
        switch (column) {
        case OperatorColumn::HostSelf:
            return tr("Host time minus child operators and the operator's own runtime calls");
        case OperatorColumn::DeviceSelf:
            return tr("GPU time of kernels, copies and memsets launched by the operator itself");
        case OperatorColumn::DeviceTotal: return tr("Self device time plus that of all child operators");
        case OperatorColumn::TensorCoreEligible:
            return tr("Tensor Core eligible: the operator is one that can run on Tensor Cores (matmul, "
                      "convolution, attention)");
        case OperatorColumn::TcSelfPercent:
        case OperatorColumn::TcTotalPercent:
            return tr("Share of the device time spent in kernels that use Tensor Cores");
        default: return {};
        }
    }
    if (role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (column) {
    case OperatorColumn::Name: return tr("Operator");
    case OperatorColumn::InputShapes: return tr("Input shapes");
    case OperatorColumn::InputTypes: return tr("Input types");
    case OperatorColumn::CallStack: return tr("Call stack");
    case OperatorColumn::Calls: return tr("Calls");
    case OperatorColumn::HostTotal: return tr("Host total");
    case OperatorColumn::HostSelf: return tr("Host self");
    case OperatorColumn::DeviceTotal: return tr("Device total");
    case OperatorColumn::DeviceSelf: return tr("Device self");
    case OperatorColumn::TensorCoreEligible: return tr("TC eligible");
    case OperatorColumn::TcSelfPercent: return tr("TC self");
    case OperatorColumn::TcTotalPercent: return tr("TC total");
    }
    return {};
}

} // namespace ws
