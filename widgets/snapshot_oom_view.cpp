#include "snapshot_oom_view.h"

#include "format.h"

#include <QHeaderView>
#include <QLabel>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace ws {

namespace {

enum Column { What, Bytes, Count, ColumnCount };
constexpr int kOomRole = Qt::UserRole + 1;
constexpr int kStackRole = Qt::UserRole + 2;

} // namespace

SnapshotOomView::SnapshotOomView(QWidget* parent) : QWidget(parent), m_empty(new QLabel(this)), m_tree(new QTreeWidget(this)) {
    m_tree->setObjectName(QStringLiteral("snapshotOoms"));
    m_tree->setColumnCount(ColumnCount);
    m_tree->setHeaderLabels({tr("Out of memory / live by allocating line"), tr("Live bytes"), tr("Allocations")});
    m_tree->header()->setSectionResizeMode(What, QHeaderView::Stretch);
    m_tree->header()->setStretchLastSection(false);
    m_tree->setToolTip(tr("Select an OOM for the allocator state at that moment; double-click a line for its stack"));
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_empty);
    layout->addWidget(m_tree, 1);
    connect(m_tree, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* item) {
        while (item && item->parent())
            item = item->parent();
        if (item && item->data(0, kOomRole).isValid())
            emit oomSelected(item->data(0, kOomRole).toUInt());
    });
    connect(m_tree, &QTreeWidget::itemDoubleClicked, this, [this](QTreeWidgetItem* item) {
        if (item->data(0, kStackRole).isValid())
            emit stackRequested(item->data(0, kStackRole).toUInt(), tr("the allocations of %1").arg(item->text(What)));
    });
}

int SnapshotOomView::oomCount() const {
    return m_tree->topLevelItemCount();
}

void SnapshotOomView::setSnapshot(std::shared_ptr<const MemorySnapshot> snapshot, int16_t device) {
    m_snapshot = std::move(snapshot);
    m_tree->clear();
    if (!m_snapshot)
        return;
    for (const SnapshotOomReport& r : snapshotOoms(*m_snapshot)) {
        const SnapshotOom& o = m_snapshot->ooms[r.oom];
        if (o.device != device)
            continue;
        auto* top = new QTreeWidgetItem;
        QString text = tr("OOM at %1: %2 requested, %3 reserved")
                           .arg(formatDuration((o.timeUs - m_snapshot->firstUs) * 1000), formatBytes(o.size),
                                formatBytes(r.reservedBytes));
        if (o.deviceFree >= 0)
            text += tr(", the driver had %1 free").arg(formatBytes(o.deviceFree));
        const std::string failed = m_snapshot->stackLabel(o.stack);
        if (!failed.empty())
            text += tr(" · requested by %1").arg(QString::fromStdString(failed));
        top->setText(What, text);
        top->setText(Bytes, formatBytes(r.liveBytes));
        top->setText(Count, formatCount(r.liveCount));
        top->setData(0, kOomRole, r.oom);
        if (o.stack)
            top->setData(0, kStackRole, o.stack);
        for (const SnapshotStackRow& row : r.byStack) {
            auto* child = new QTreeWidgetItem(top);
            const std::string label = m_snapshot->stackLabel(row.stack);
            child->setText(What, label.empty() ? tr("(no stack recorded)") : QString::fromStdString(label));
            child->setText(Bytes, formatBytes(row.liveBytes));
            child->setText(Count, formatCount(row.liveCount));
            child->setData(0, kStackRole, row.stack);
        }
        m_tree->addTopLevelItem(top);
        top->setExpanded(true);
    }
    m_tree->resizeColumnToContents(Bytes);
    m_tree->resizeColumnToContents(Count);
    const bool any = m_tree->topLevelItemCount() > 0;
    m_tree->setVisible(any);
    m_empty->setVisible(!any);
    m_empty->setText(tr("No out-of-memory event in this snapshot's trace on this device. A snapshot dumped in the "
                        "`except torch.cuda.OutOfMemoryError` handler ends with one."));
}

} // namespace ws
