#pragma once

#include "analysis/snapshot_stats.h"
#include "model/memory_snapshot.h"

#include <QWidget>

#include <memory>

class QLabel;
class QTreeWidget;

namespace ws {

/*
 * SnapshotOomView: each `oom` entry of a memory snapshot's trace (core's snapshotOoms): the request
 * that failed, the driver's free bytes, what was live and reserved at that moment, and the live
 * allocations grouped by stack, largest first. Selecting an OOM asks for the allocator state then
 * (oomSelected); double-clicking a stack asks for its frames (stackRequested).
 */
class SnapshotOomView : public QWidget {
    Q_OBJECT
public:
    explicit SnapshotOomView(QWidget* parent = nullptr);
    void setSnapshot(std::shared_ptr<const MemorySnapshot> snapshot, int16_t device);
    QTreeWidget* tree() const { return m_tree; }
    int oomCount() const;

signals:
    void oomSelected(quint32 oom);
    void stackRequested(quint32 stack, const QString& what);

private:
    std::shared_ptr<const MemorySnapshot> m_snapshot;
    QLabel* m_empty;
    QTreeWidget* m_tree;
};

} // namespace ws
