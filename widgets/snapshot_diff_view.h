#pragma once

#include "analysis/snapshot_diff.h"

#include <QWidget>

class QLabel;
class QTreeWidget;

namespace ws {

/*
 * SnapshotDiffView: the Compare tab's "Memory snapshots" page when both runs are memory snapshots
 * (core's diffSnapshots on GPU 0, or the first device both have): both peaks, and per allocating
 * stack the bytes live at each run's peak and their growth, largest growth first, with the bytes
 * each trace allocated there.
 */
class SnapshotDiffView : public QWidget {
    Q_OBJECT
public:
    explicit SnapshotDiffView(QWidget* parent = nullptr);
    void setSnapshots(const MemorySnapshot& a, const MemorySnapshot& b);
    QTreeWidget* tree() const { return m_tree; }
    QString headline() const;

private:
    QLabel* m_headline;
    QTreeWidget* m_tree;
};

} // namespace ws
