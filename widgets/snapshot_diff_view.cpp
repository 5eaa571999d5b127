#include "snapshot_diff_view.h"

#include "format.h"

#include <QHeaderView>
#include <QLabel>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace ws {

namespace {

enum Column { Line, LiveA, LiveB, Growth, AllocatedA, AllocatedB, ColumnCount };

QString signedBytes(int64_t b) {
    return b > 0 ? QStringLiteral("+") + formatBytes(b) : b < 0 ? QStringLiteral("−") + formatBytes(-b) : formatBytes(0);
}

} // namespace

SnapshotDiffView::SnapshotDiffView(QWidget* parent) : QWidget(parent), m_headline(new QLabel(this)), m_tree(new QTreeWidget(this)) {
    m_tree->setObjectName(QStringLiteral("snapshotDiff"));
    m_tree->setRootIsDecorated(false);
    m_tree->setColumnCount(ColumnCount);
    m_tree->setHeaderLabels({tr("Allocating line"), tr("A: live at its peak"), tr("B: live at its peak"), tr("Growth"),
                             tr("A: allocated in trace"), tr("B: allocated in trace")});
    m_tree->header()->setSectionResizeMode(Line, QHeaderView::Stretch);
    m_tree->header()->setStretchLastSection(false);
    m_headline->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_headline);
    layout->addWidget(m_tree, 1);
}

QString SnapshotDiffView::headline() const {
    return m_headline->text();
}

void SnapshotDiffView::setSnapshots(const MemorySnapshot& a, const MemorySnapshot& b) {
    // GPU 0 when both have it, else the first device both have.
    int16_t device = 0;
    for (int16_t d : a.devices)
        if (std::find(b.devices.begin(), b.devices.end(), d) != b.devices.end()) {
            device = d;
            break;
        }
    const SnapshotDiff diff = diffSnapshots(a, b, device);
    m_headline->setText(tr("GPU %1: peak of live memory A %2, B %3 (%4). Rows: each allocating stack's bytes live at "
                           "each run's peak, largest growth first.")
                            .arg(device)
                            .arg(formatBytes(diff.peak[0]), formatBytes(diff.peak[1]),
                                 signedBytes(diff.peak[1] - diff.peak[0])));
    m_tree->clear();
    QList<QTreeWidgetItem*> items;
    for (const SnapshotDiffRow& row : diff.rows) {
        auto* item = new QTreeWidgetItem;
        item->setText(Line, row.label.empty() ? tr("(no stack recorded)") : QString::fromStdString(row.label));
        item->setToolTip(Line, QString::fromStdString(row.key).replace(QLatin1Char(';'), QLatin1Char('\n')).left(4000));
        item->setText(LiveA, formatBytes(row.liveAtPeak[0]));
        item->setText(LiveB, formatBytes(row.liveAtPeak[1]));
        item->setText(Growth, signedBytes(row.growth()));
        item->setText(AllocatedA, formatBytes(row.allocated[0]));
        item->setText(AllocatedB, formatBytes(row.allocated[1]));
        for (int c = LiveA; c < ColumnCount; ++c)
            item->setTextAlignment(c, Qt::AlignRight | Qt::AlignVCenter);
        items << item;
    }
    m_tree->addTopLevelItems(items);
    for (int c = LiveA; c < ColumnCount; ++c)
        m_tree->resizeColumnToContents(c);
}

} // namespace ws
