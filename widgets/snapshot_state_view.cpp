#include "snapshot_state_view.h"

#include "format.h"

#include <QHeaderView>
#include <QLabel>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace ws {

namespace {

enum Column { Address, Size, Allocated, Inactive, LargestFree, What, ColumnCount };
constexpr int kSegmentRole = Qt::UserRole + 1;
constexpr int kStackRole = Qt::UserRole + 2;

QString hex(int64_t addr) {
    return QStringLiteral("0x") + QString::number(static_cast<qulonglong>(addr), 16);
}

} // namespace

SnapshotStateView::SnapshotStateView(QWidget* parent)
    : QWidget(parent), m_totals(new QLabel(this)), m_tree(new QTreeWidget(this)) {
    m_totals->setWordWrap(true);
    m_totals->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_tree->setObjectName(QStringLiteral("snapshotSegments"));
    m_tree->setColumnCount(ColumnCount);
    m_tree->setHeaderLabels({tr("Segment / block"), tr("Size"), tr("Allocated"), tr("Inactive"), tr("Largest free"),
                             tr("Type / state and allocating line")});
    m_tree->header()->setSectionResizeMode(What, QHeaderView::Stretch);
    m_tree->setUniformRowHeights(true);
    m_tree->setToolTip(tr("Double-click a block to see its stack"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_totals);
    layout->addWidget(m_tree, 1);
    connect(m_tree, &QTreeWidget::itemExpanded, this, [this](QTreeWidgetItem* item) { fillBlocks(item); });
    connect(m_tree, &QTreeWidget::itemDoubleClicked, this, [this](QTreeWidgetItem* item) {
        const QVariant stack = item->data(0, kStackRole);
        if (stack.isValid())
            emit stackRequested(stack.toUInt(), tr("the block at %1").arg(item->text(Address)));
    });
}

void SnapshotStateView::setSnapshot(std::shared_ptr<const MemorySnapshot> snapshot, int16_t device) {
    m_snapshot = std::move(snapshot);
    m_device = device;
    setTime(std::nullopt);
}

void SnapshotStateView::setTime(std::optional<int64_t> us) {
    if (!m_snapshot)
        return;
    m_state = us ? snapshotStateAt(*m_snapshot, m_device, SnapshotMoment::fromTime(*us))
                 : snapshotFinalState(*m_snapshot, m_device);
    show();
}

void SnapshotStateView::setMoment(SnapshotMoment moment) {
    if (!m_snapshot)
        return;
    m_state = snapshotStateAt(*m_snapshot, m_device, moment);
    show();
}

QString SnapshotStateView::totalsText() const {
    return m_totals->text();
}

void SnapshotStateView::show() {
    const SnapshotState& st = m_state;
    const QString when = st.exact ? tr("When the snapshot was taken")
                                  : tr("At %1").arg(formatDuration((st.at.us - m_snapshot->firstUs) * 1000));
    QStringList parts{when,
                      tr("reserved %1 in %2 segments").arg(formatBytes(st.reserved)).arg(st.segments.size()),
                      tr("allocated %1").arg(formatBytes(st.allocated)),
                      tr("requested %1").arg(formatBytes(st.requested)),
                      tr("pending free %1").arg(formatBytes(st.pending)),
                      tr("inactive %1").arg(formatBytes(st.inactive)),
                      tr("fragmented %1 (inactive in segments with live blocks)").arg(formatBytes(st.fragmented)),
                      tr("largest free block %1").arg(formatBytes(st.largestFree))};
    if (st.unplaced)
        parts << tr("%n allocation(s) outside every segment", nullptr, static_cast<int>(st.unplaced));
    m_totals->setText(parts.join(QStringLiteral(" · ")));
    m_tree->clear();
    QList<QTreeWidgetItem*> items;
    for (size_t i = 0; i < st.segments.size(); ++i) {
        const SnapshotStateSegment& seg = st.segments[i];
        auto* item = new QTreeWidgetItem;
        item->setText(Address, hex(seg.addr));
        item->setText(Size, formatBytes(seg.size));
        item->setText(Allocated, formatBytes(seg.allocated));
        item->setText(Inactive, formatBytes(seg.inactive()));
        item->setText(LargestFree, formatBytes(seg.largestFree));
        const std::string_view type = m_snapshot->str(seg.segmentType);
        item->setText(What, type.empty() ? tr("segment, stream %1").arg(seg.stream)
                                         : tr("%1 segment, stream %2").arg(QString::fromUtf8(type.data(), static_cast<int>(type.size())))
                                               .arg(seg.stream));
        item->setData(0, kSegmentRole, static_cast<qulonglong>(i));
        if (!seg.blocks.empty())
            item->setChildIndicatorPolicy(QTreeWidgetItem::ShowIndicator);
        items << item;
    }
    m_tree->addTopLevelItems(items);
    for (int c = Address; c < What; ++c)
        m_tree->resizeColumnToContents(c);
}

void SnapshotStateView::fillBlocks(QTreeWidgetItem* segmentItem) {
    if (segmentItem->childCount() > 0 || !segmentItem->data(0, kSegmentRole).isValid())
        return;
    const SnapshotStateSegment& seg = m_state.segments[segmentItem->data(0, kSegmentRole).toULongLong()];
    QList<QTreeWidgetItem*> blocks;
    for (const SnapshotStateBlock& b : seg.blocks) {
        auto* item = new QTreeWidgetItem;
        item->setText(Address, hex(b.addr));
        item->setText(Size, formatBytes(b.size));
        QString what;
        switch (b.state) {
        case SnapshotBlockState::ActiveAllocated: what = tr("allocated"); break;
        case SnapshotBlockState::ActivePending: what = tr("free requested, pending (stream use)"); break;
        case SnapshotBlockState::Inactive: what = tr("free (cached)"); break;
        case SnapshotBlockState::Unknown: what = tr("unknown state"); break;
        }
        if (b.state != SnapshotBlockState::Inactive) {
            const std::string label = m_snapshot->stackLabel(b.stack);
            if (!label.empty())
                what += QStringLiteral(" · ") + QString::fromStdString(label);
            item->setData(0, kStackRole, b.stack);
        } else {
            item->setForeground(What, palette().color(QPalette::Disabled, QPalette::Text));
        }
        item->setText(What, what);
        blocks << item;
    }
    segmentItem->addChildren(blocks);
}

} // namespace ws
