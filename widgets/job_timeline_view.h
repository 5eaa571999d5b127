#pragma once

#include <QAbstractScrollArea>

#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace ws {

struct LoadedJob;
class TimeViewport;

/*
 * JobTimelineView: the ranks of a job on one time axis (each rank shifted by its clock offset).
 * One collapsible group per rank: its profiler steps, its communication ops (CPU call thin, GPU
 * kernels full height) and every GPU stream with kernels, memcpy and memset.
 *
 * The same collective on every rank is linked by (op name, occurrence on that rank): clicking
 * one selects it everywhere, outlines it on each rank and reports the arrival skew (first to
 * last rank starting its kernel) and who arrived last. On open the collective with the largest
 * skew is selected, so the worst wait is the first thing shown. Dragging on the ruler selects a
 * time range (the Distributed tab follows it); dragging elsewhere pans; Ctrl+wheel zooms; a
 * rank's header menu sets its clock offset by hand.
 *
 * Drawing is bounded by pixels: per row, a binary search to the window and one box per pixel
 * column at most (the next slice is searched past the pixel just filled), so cost is
 * O(rows x width x log n) whatever the number of slices.
 */
class JobTimelineView : public QAbstractScrollArea {
    Q_OBJECT
public:
    explicit JobTimelineView(QWidget* parent = nullptr);
    ~JobTimelineView() override;

    void setJob(std::shared_ptr<const LoadedJob> job, std::vector<int64_t> offsetsNs);
    void setOffsets(std::vector<int64_t> offsetsNs);
    const std::vector<int64_t>& offsets() const { return m_offsets; }
    TimeViewport* timeViewport() const { return m_view; }

    // Selects the collective `node` of worker `worker` (and its peers); false when out of range.
    bool selectCollective(size_t worker, size_t node);
    // The selected collective as (name, occurrence), and the info line about it.
    QString selectionText() const { return m_info; }
    // The linked node index on each worker (-1 where it is missing), empty when none is selected.
    const std::vector<int>& selectedNodes() const { return m_selectedNodes; }
    void setGroupCollapsed(size_t worker, bool collapsed);
    // Whether rank headers show their clock offset (on for jobs; off where the offsets only line
    // two runs up, as in the Compare tab).
    void setShowClockOffsets(bool show) { m_showClockOffsets = show; }

signals:
    void rangeSelected(std::optional<std::pair<int64_t, int64_t>> range);
    void offsetEdited(size_t worker, int64_t offsetNs);
    void offsetsResetRequested();
    // "Compare with": rank `compared` against rank `baseline` (indices into the job's ranks).
    void compareRequested(size_t baseline, size_t compared);
    void selectionChanged(const QString& info);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;

private:
    enum class RowKind { Header, Steps, Collectives, Stream };
    struct Row {
        RowKind kind = RowKind::Header;
        size_t worker = 0;
        uint32_t track = 0; // Stream rows: the session track
        int y = 0;
        int height = 0;
    };

    bool m_showClockOffsets = true;
    void relayout();
    void fitAll();
    int rowAt(int y) const;
    void drawRuler(class QPainter& p, int width);
    void drawRow(class QPainter& p, const Row& row, int x0, int width);
    void selectLargestSkew();
    int64_t offsetOf(size_t worker) const { return worker < m_offsets.size() ? m_offsets[worker] : 0; }

    std::shared_ptr<const LoadedJob> m_job;
    std::vector<int64_t> m_offsets;
    std::vector<bool> m_collapsed;
    std::vector<Row> m_rows;
    int m_contentHeight = 0;
    TimeViewport* m_view;
    std::vector<int> m_selectedNodes; // per worker
    QString m_info;
    // Mouse: pan with a drag; a drag on the ruler selects a range.
    std::optional<QPoint> m_pressPos;
    bool m_rulerDrag = false;
    int64_t m_rangeAnchor = 0;
    double m_panLastX = 0;
};

} // namespace ws
