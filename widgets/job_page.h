#pragma once

#include <QWidget>

#include <cstdint>
#include <memory>
#include <vector>

class QLabel;
class QTabWidget;

namespace ws {

struct LoadedJob;
class DistributedView;
class JobTimelineView;

/*
 * JobPage: one tab for a distributed job: the job timeline (every rank on one axis, collectives
 * linked) above, the Distributed tab below. It owns the job's clock offsets (automatic, or set by
 * hand on a rank's header) and hands them to both views; the Distributed tab follows the range
 * selected on the timeline's ruler.
 */
class JobPage : public QWidget {
    Q_OBJECT
public:
    explicit JobPage(std::shared_ptr<const LoadedJob> job, QWidget* parent = nullptr);

    const std::shared_ptr<const LoadedJob>& job() const { return m_job; }
    JobTimelineView* timeline() const { return m_timeline; }
    DistributedView* distributedView() const { return m_distributed; }
    QString title() const;

signals:
    void openTraceRequested(const QString& path);
    // Rank `compared` against rank `baseline` in a Compare tab (indices into the job's ranks).
    void compareRanksRequested(size_t baseline, size_t compared);

private:
    void applyOffsets();

    std::shared_ptr<const LoadedJob> m_job;
    std::vector<int64_t> m_offsets;
    JobTimelineView* m_timeline;
    QLabel* m_selectionLabel;
    QTabWidget* m_tabs;
    DistributedView* m_distributed;
};

} // namespace ws
