#pragma once

#include "analysis/call_stack.h"
#include "analysis/memory_allocations.h"
#include "analysis/memory_curve.h"
#include "time_viewport.h"

#include <QWidget>

#include <memory>
#include <optional>
#include <thread>
#include <vector>

class QComboBox;
class QLabel;
class QStackedWidget;
class QTableView;
class QTabWidget;

namespace ws {

class MemoryAllocationModel;
class MemoryChart;
class MemoryOpStatsModel;
class Session;
class SnapshotOomView;
class SnapshotStateView;
class SnapshotTimelineView;

/*
 * The "Memory" tab (torch-tb-profiler's memory view, FORMATS.md 3.10) for Kineto `[memory]`
 * events, Nsight Systems CUDA memory usage and Warpscope captures: a device picker, a summary line
 * (peaks, capacity and the peak's share of it, allocation and leak counts), the curves
 * (MemoryChart), and two tables: every allocation (MemoryAllocationModel, leaks flagged) and the
 * per-operator statistics (MemoryOpStatsModel).
 *
 * Follows the shared time selection: a selected range zooms the chart to it and restricts the
 * summary and both tables to it; dragging over the chart sets the selection, a click clears it;
 * double-clicking an allocation selects its lifetime on the timeline and shows it there.
 *
 * A session read from a PyTorch memory snapshot adds memory_viz's views as the first tabs: the
 * active memory timeline (SnapshotTimelineView; a click picks the time of the allocator state and
 * sends the band's stack to the Stack tab through stackRequested), the allocator state at that
 * time (SnapshotStateView) and the OOMs with what was live by stack (SnapshotOomView). They follow
 * the device picker and the shared time selection.
 *
 * The curves, allocation table and record attribution are computed on a worker thread the first
 * time the tab is shown (or by computeNow()); per-selection operator statistics are recomputed on
 * the GUI thread from the precomputed attribution (one pass over the records in the range).
 */
class MemoryView : public QWidget {
    Q_OBJECT
public:
    MemoryView(TimeViewport* time, std::shared_ptr<const Session> session, QWidget* parent = nullptr);
    ~MemoryView() override;

    // Computes everything now, on the calling thread (tests, screenshots).
    void computeNow();
    bool isReady() const { return m_data != nullptr; }
    // Shows device `index` of the device picker (0 = first device with records).
    void setDeviceIndex(int index);
    int deviceCount() const;

    MemoryChart* chart() const { return m_chart; }
    MemoryAllocationModel* allocationModel() const { return m_allocationModel; }
    MemoryOpStatsModel* opStatsModel() const { return m_opModel; }
    QTableView* allocationTable() const { return m_allocationTable; }
    QString summaryText() const;
    QString statusText() const;
    // The snapshot views (nullptr unless the session comes from a memory snapshot).
    SnapshotTimelineView* snapshotTimeline() const { return m_snapshotTimeline; }
    SnapshotStateView* snapshotState() const { return m_snapshotState; }
    SnapshotOomView* snapshotOoms() const { return m_snapshotOoms; }

signals:
    // The analyses are ready and shown.
    void ready();
    // A snapshot allocation's frames, for the Stack tab (`what` names whose stack it is).
    void stackRequested(const ws::CallStack& stack, const QString& what);
    // A snapshot allocation beside a trace: the operator that made it, to show on the timeline.
    void revealRequested(const ws::SliceRef& slice);

protected:
    void showEvent(QShowEvent* event) override;

private:
    struct Data {
        MemoryCurves curves;
        std::shared_ptr<const MemoryAllocations> allocations;
        std::vector<uint32_t> recordOps;
    };
    static std::shared_ptr<const Data> compute(const Session& session);
    void start();
    void present(std::shared_ptr<const Data> result);
    void updateForSelection();
    std::optional<MemoryDevice> currentDevice() const;
    void addSnapshotViews();
    void showSnapshotDevice(int16_t device);
    void requestStack(uint32_t stack, const QString& what);
    // A memory snapshot kept beside a trace of the same run (snapshot_beside_import.h), on its clock.
    bool snapshotBesideTrace() const;
    const MemoryCurve* currentCurve() const;

    TimeViewport* m_time;
    std::shared_ptr<const Session> m_session;
    std::shared_ptr<const Data> m_data;
    bool m_started = false;

    QStackedWidget* m_pages;
    QLabel* m_status;
    QComboBox* m_device;
    QLabel* m_summary;
    MemoryChart* m_chart;
    QTabWidget* m_tables;
    MemoryAllocationModel* m_allocationModel;
    MemoryOpStatsModel* m_opModel;
    QTableView* m_allocationTable;
    QTableView* m_opTable;
    SnapshotTimelineView* m_snapshotTimeline = nullptr;
    SnapshotStateView* m_snapshotState = nullptr;
    SnapshotOomView* m_snapshotOoms = nullptr;
    int m_snapshotDevice = -1;
    QComboBox* m_snapshotAxis = nullptr;
};

} // namespace ws
