#pragma once

#include "analysis/snapshot_state.h"
#include "model/memory_snapshot.h"

#include <QWidget>

#include <memory>

class QLabel;
class QTreeWidget;
class QTreeWidgetItem;

namespace ws {

/*
 * SnapshotStateView: the caching allocator's state at a chosen time (core's snapshotStateAt): a
 * line of totals (reserved, allocated, pending free, inactive, fragmented, largest free block) and
 * the segments by address, each with its blocks (allocation, pending free or free gap, with the
 * allocating line). Blocks are listed when their segment is expanded, so a state with 100 k blocks
 * opens at once. Double-clicking a block asks for its stack (stackRequested).
 */
class SnapshotStateView : public QWidget {
    Q_OBJECT
public:
    explicit SnapshotStateView(QWidget* parent = nullptr);

    void setSnapshot(std::shared_ptr<const MemorySnapshot> snapshot, int16_t device);
    // The state after every entry at `us`; nullopt: the snapshot's own final state.
    void setTime(std::optional<int64_t> us);
    void setMoment(SnapshotMoment moment);
    const SnapshotState& state() const { return m_state; }
    QString totalsText() const;
    QTreeWidget* tree() const { return m_tree; }

signals:
    void stackRequested(quint32 stack, const QString& what);

private:
    void show();
    void fillBlocks(QTreeWidgetItem* segmentItem);

    std::shared_ptr<const MemorySnapshot> m_snapshot;
    int16_t m_device = 0;
    SnapshotState m_state;
    QLabel* m_totals;
    QTreeWidget* m_tree;
};

} // namespace ws
