#include "roofline_group_model.h"

#include "analysis/roofline.h"
#include "format.h"
#include "kernel_table_model.h"
#include "model/session.h"

#include <cmath>

namespace ws {

namespace {

QVariant number(double v, int decimals) {
    return std::isnan(v) ? QVariant(QString()) : QVariant(QString::number(v, 'f', decimals));
}

double sortKey(double v) { return std::isnan(v) ? -1 : v; }

} // namespace

void RooflineGroupModel::setRoofline(std::shared_ptr<const Session> session, std::shared_ptr<const Roofline> roofline) {
    beginResetModel();
    m_session = std::move(session);
    m_roofline = std::move(roofline);
    m_measures.clear();
    m_measureOfRow.assign(m_roofline ? m_roofline->groups().size() : 0, -1);
    endResetModel();
}

void RooflineGroupModel::setMeasures(std::vector<NcuKernelMeasure> measures, const std::vector<uint32_t>& groupNameIndex) {
    beginResetModel();
    m_measures = std::move(measures);
    m_measureOfRow.assign(groupNameIndex.size(), -1);
    for (size_t m = 0; m < m_measures.size(); ++m)
        for (size_t g = 0; g < groupNameIndex.size(); ++g)
            if (groupNameIndex[g] == m_measures[m].nameIndex)
                m_measureOfRow[g] = static_cast<int>(m);
    endResetModel();
}

const NcuKernelMeasure* RooflineGroupModel::measureOf(int row) const {
    if (row < 0 || static_cast<size_t>(row) >= m_measureOfRow.size() || m_measureOfRow[static_cast<size_t>(row)] < 0)
        return nullptr;
    return &m_measures[static_cast<size_t>(m_measureOfRow[static_cast<size_t>(row)])];
}

int RooflineGroupModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !m_roofline ? 0 : static_cast<int>(m_roofline->groups().size());
}

int RooflineGroupModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : (m_measures.empty() ? NcuLaunches : ColumnCount);
}

QVariant RooflineGroupModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || !m_roofline || index.row() >= rowCount())
        return {};
    const RooflineGroup& g = m_roofline->groups()[static_cast<size_t>(index.row())];
    const RooflineWork& w = g.work;
    const NcuKernelMeasure* m = measureOf(index.row());
    const auto column = static_cast<Column>(index.column());
    if (role == Qt::UserRole) {
        switch (column) {
        case BoundColumn: return index.row();
        case Kernel: return QString::fromUtf8(m_session->str(g.name).data(), static_cast<qsizetype>(m_session->str(g.name).size()));
        case Calls: return w.kernels;
        case Time: return static_cast<qlonglong>(w.totalNs);
        case Intensity: return sortKey(w.intensity());
        case Tflops: return sortKey(w.tflops());
        case GBps: return sortKey(w.gbps());
        case RoofFraction: return sortKey(g.roofFraction);
        case NcuLaunches: return m ? m->launches : 0;
        case NcuDuration: return m ? m->durationNs : -1.0;
        case NcuSm: return m ? m->smThroughputPct : -1.0;
        case NcuMemory: return m ? m->memoryThroughputPct : -1.0;
        case NcuBound: return m ? static_cast<int>(m->bound) : -1;
        case ColumnCount: break;
        }
        return {};
    }
    if (role == Qt::TextAlignmentRole)
        return QVariant::fromValue(Qt::Alignment((column == Kernel || column == BoundColumn || column == NcuBound)
                                                     ? Qt::AlignLeft | Qt::AlignVCenter
                                                     : Qt::AlignRight | Qt::AlignVCenter));
    if (role == Qt::ToolTipRole && column == Kernel)
        return QString::fromStdString(std::string(m_session->str(g.name)));
    if (role == Qt::ToolTipRole && m && (column == NcuBound || column == NcuSm || column == NcuMemory)) {
        QStringList rules;
        for (const NcuRule& r : m->rules)
            rules << QStringLiteral("%1 %2: %3").arg(QString::fromStdString(r.type), QString::fromStdString(r.name),
                                                     QString::fromStdString(r.description));
        return rules.join(QStringLiteral("\n\n"));
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (column) {
    case BoundColumn: return KernelTableModel::boundText(g.bound);
    case Kernel: return QString::fromStdString(std::string(m_session->str(g.name)));
    case Calls: return formatCount(w.kernels);
    case Time: return formatDuration(w.totalNs);
    case Intensity: return number(w.intensity(), 2);
    case Tflops: return number(w.tflops(), 2);
    case GBps: return number(w.gbps(), 1);
    case RoofFraction: return std::isnan(g.roofFraction) ? QString() : formatPercent(g.roofFraction);
    case NcuLaunches: return m ? formatCount(m->launches) : QString();
    case NcuDuration: return m ? formatDuration(static_cast<int64_t>(m->durationNs)) : QString();
    case NcuSm: return m ? number(m->smThroughputPct, 1) : QVariant(QString());
    case NcuMemory: return m ? number(m->memoryThroughputPct, 1) : QVariant(QString());
    case NcuBound: return m ? KernelTableModel::boundText(m->bound) : QString();
    case ColumnCount: break;
    }
    return {};
}

QVariant RooflineGroupModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || (role != Qt::DisplayRole && role != Qt::ToolTipRole))
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (static_cast<Column>(section)) {
    case BoundColumn: return tr("Bound");
    case Kernel: return tr("Kernel");
    case Calls: return tr("Calls");
    case Time: return tr("GPU time");
    case Intensity: return tr("FLOP/byte");
    case Tflops: return tr("TFLOP/s");
    case GBps: return tr("GB/s");
    case RoofFraction: return tr("Of the roof");
    case NcuLaunches: return tr("ncu launches");
    case NcuDuration: return tr("ncu duration");
    case NcuSm: return tr("ncu SM %");
    case NcuMemory: return tr("ncu memory %");
    case NcuBound: return tr("ncu bound");
    case ColumnCount: break;
    }
    return {};
}

} // namespace ws
