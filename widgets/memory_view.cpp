#include "memory_view.h"

#include "analysis/snapshot_alignment.h"

#include "detached_work.h"

#include "analysis/memory_op_stats.h"
#include "format.h"
#include "memory_allocation_model.h"
#include "memory_chart.h"
#include "memory_op_stats_model.h"
#include "model/session.h"
#include "analysis/snapshot_call_stack.h"
#include "snapshot_oom_view.h"
#include "snapshot_state_view.h"
#include "snapshot_timeline_view.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace ws {

namespace {

QTableView* makeTable(QWidget* parent, QAbstractItemModel* model, const QString& objectName) {
    auto* t = new QTableView(parent);
    t->setObjectName(objectName);
    t->setModel(model);
    t->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder); // rows start in core order
    t->setSortingEnabled(true);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->verticalHeader()->hide();
    // The operator names are the long column: it takes the spare width.
    t->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    t->horizontalHeader()->setMinimumSectionSize(60);
    t->setWordWrap(false);
    return t;
}

} // namespace

MemoryView::MemoryView(TimeViewport* time, std::shared_ptr<const Session> session, QWidget* parent)
    : QWidget(parent), m_time(time), m_session(std::move(session)), m_pages(new QStackedWidget(this)),
      m_status(new QLabel(this)), m_device(new QComboBox(this)), m_summary(new QLabel(this)),
      m_chart(new MemoryChart(this)), m_tables(new QTabWidget(this)),
      m_allocationModel(new MemoryAllocationModel(this)), m_opModel(new MemoryOpStatsModel(this)),
      m_allocationTable(makeTable(this, m_allocationModel, QStringLiteral("memoryAllocationTable"))),
      m_opTable(makeTable(this, m_opModel, QStringLiteral("memoryOperatorTable"))) {
    m_status->setAlignment(Qt::AlignCenter);
    m_status->setText(tr("Memory view: computed when shown."));
    m_summary->setTextFormat(Qt::PlainText);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_chart->setMinimumHeight(220);
    m_allocationTable->setColumnWidth(MemoryAllocationModel::Status, 180);
    for (int c = MemoryOpStatsModel::Calls; c < MemoryOpStatsModel::ColumnCount; ++c)
        m_opTable->setColumnWidth(c, 135);
    m_allocationTable->setToolTip(tr("Double-click an allocation to select its lifetime on the timeline"));

    auto* content = new QWidget(this);
    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Device:"), content));
    bar->addWidget(m_device);
    bar->addWidget(m_summary, 1);
    if (m_session && m_session->memorySnapshot()) {
        m_snapshotAxis = new QComboBox(content);
        m_snapshotAxis->setObjectName(QStringLiteral("snapshotAxis"));
        m_snapshotAxis->addItems({tr("Bands by trace order"), tr("Bands by time")});
        m_snapshotAxis->setToolTip(tr("The active memory timeline's x axis: one step per allocation or free, as "
                                      "memory_viz draws it, or time, shared with the timeline's selection"));
        bar->addWidget(m_snapshotAxis);
    }
    m_tables->addTab(m_allocationTable, tr("Allocations"));
    m_tables->addTab(m_opTable, tr("Operators"));
    auto* split = new QSplitter(Qt::Vertical, content);
    split->addWidget(m_chart);
    split->addWidget(m_tables);
    const bool snapshot = m_session && m_session->memorySnapshot();
    // A snapshot's band view needs the height more than the curves.
    split->setStretchFactor(0, snapshot ? 1 : 3);
    split->setStretchFactor(1, snapshot ? 3 : 2);
    if (snapshot)
        addSnapshotViews();
    auto* contentLayout = new QVBoxLayout(content);
    contentLayout->setContentsMargins(0, 0, 0, 0);
    contentLayout->addLayout(bar);
    contentLayout->addWidget(split, 1);
    m_pages->addWidget(m_status);
    m_pages->addWidget(content);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(m_pages);

    connect(m_device, &QComboBox::currentIndexChanged, this, [this] { updateForSelection(); });
    connect(m_time, &TimeViewport::selectedRangeChanged, this, [this] { updateForSelection(); });
    connect(m_chart, &MemoryChart::rangeDragged, this, [this](qint64 from, qint64 to) {
        m_time->setSelectedRange(TimeRange{from, to});
    });
    connect(m_chart, &MemoryChart::rangeCleared, this, [this] { m_time->setSelectedRange(std::nullopt); });
    connect(m_allocationTable, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
        const MemoryAllocation* r = m_allocationModel->allocationAt(index);
        if (!r || !m_session)
            return;
        // Unknown ends stretch to the trace's ends: a leak lives until the trace stops.
        const int64_t from = r->allocatedAt != MemoryEvent::kUnknown ? r->allocatedAt : m_session->startNs();
        const int64_t to = r->freedAt != MemoryEvent::kUnknown ? r->freedAt : m_session->endNs();
        const TimeRange range{from, std::max(to, from + 1)};
        m_time->setSelectedRange(range);
        m_time->showRange(range.start, range.end);
    });
}

// The worker is never waited for (startDetached): closing the tab returns at once.
MemoryView::~MemoryView() = default;

void MemoryView::addSnapshotViews() {
    m_snapshotTimeline = new SnapshotTimelineView(this);
    m_snapshotState = new SnapshotStateView(this);
    m_snapshotOoms = new SnapshotOomView(this);
    m_tables->insertTab(0, m_snapshotTimeline, tr("Active memory"));
    m_tables->insertTab(1, m_snapshotState, tr("Allocator state"));
    m_tables->insertTab(2, m_snapshotOoms, tr("Out of memory"));
    m_tables->setCurrentIndex(0);
    connect(m_snapshotAxis, &QComboBox::currentIndexChanged, this,
            [this](int index) { m_snapshotTimeline->setByOrder(index == 0); });
    // Beside a trace, the bands share the timeline's time axis first of all.
    if (snapshotBesideTrace())
        m_snapshotAxis->setCurrentIndex(1);
    connect(m_snapshotTimeline, &SnapshotTimelineView::timeClicked, this, [this](qint64 us) {
        m_snapshotState->setTime(us);
        m_snapshotTimeline->setMarker(us);
    });
    connect(m_snapshotTimeline, &SnapshotTimelineView::allocationClicked, this, [this](quint32 allocation) {
        const SnapshotAllocation& a = m_session->memorySnapshot()->allocations[allocation];
        QString what = tr("the allocation of %1 at 0x%2").arg(formatBytes(a.size))
                           .arg(QString::number(static_cast<qulonglong>(a.addr), 16));
        // A snapshot beside a trace of the same run (issue #28): the band leads to the operator that
        // made it, selected on the timeline.
        if (snapshotBesideTrace()) {
            const SnapshotOperator op = snapshotAllocationOperator(*m_session, a);
            if (op.found()) {
                what = tr("%1, made by %2").arg(what, QString::fromUtf8(m_session->str(m_session->tracks()[op.track].names[op.slice])));
                emit revealRequested(SliceRef{op.track, op.slice});
            }
        }
        requestStack(a.stack, what);
    });
    connect(m_snapshotOoms, &SnapshotOomView::oomSelected, this, [this](quint32 oom) {
        const SnapshotOom& o = m_session->memorySnapshot()->ooms[oom];
        m_snapshotState->setMoment(SnapshotMoment::atOom(o));
        m_snapshotTimeline->setMarker(o.timeUs);
    });
    connect(m_snapshotOoms, &SnapshotOomView::stackRequested, this,
            [this](quint32 stack, const QString& what) { requestStack(stack, what); });
    connect(m_snapshotState, &SnapshotStateView::stackRequested, this,
            [this](quint32 stack, const QString& what) { requestStack(stack, what); });
}

bool MemoryView::snapshotBesideTrace() const {
    return m_session && m_session->memorySnapshot() && m_session->sourceFormat() != TraceFormat::TorchMemorySnapshot;
}

void MemoryView::requestStack(uint32_t stack, const QString& what) {
    emit stackRequested(snapshotCallStack(*m_session->memorySnapshot(), stack), what);
}

void MemoryView::showSnapshotDevice(int16_t device) {
    if (!m_snapshotTimeline || m_snapshotDevice == device)
        return;
    m_snapshotDevice = device;
    const std::shared_ptr<const MemorySnapshot> snapshot = m_session->memorySnapshotShared();
    m_snapshotTimeline->setSnapshot(snapshot, device);
    m_snapshotState->setSnapshot(snapshot, device);
    m_snapshotOoms->setSnapshot(snapshot, device);
    // The state worth seeing first: at the device's first OOM, else when the snapshot was taken.
    for (const SnapshotOom& o : snapshot->ooms)
        if (o.device == device) {
            m_snapshotState->setMoment(SnapshotMoment::atOom(o));
            m_snapshotTimeline->setMarker(o.timeUs);
            break;
        }
}

std::shared_ptr<const MemoryView::Data> MemoryView::compute(const Session& session) {
    auto d = std::make_shared<Data>();
    d->curves = MemoryCurves::build(session);
    d->recordOps = memoryRecordOps(session);
    d->allocations = std::make_shared<const MemoryAllocations>(MemoryAllocations::build(session, d->recordOps));
    return d;
}

void MemoryView::showEvent(QShowEvent* event) {
    start();
    QWidget::showEvent(event);
}

void MemoryView::start() {
    if (m_started || !m_session)
        return;
    m_started = true;
    m_status->setText(tr("Computing the memory view…"));
    startDetached(this, [session = m_session] { return compute(*session); },
                  [](MemoryView& view, std::shared_ptr<const Data> result) { view.present(std::move(result)); });
}

void MemoryView::computeNow() {
    if (!m_session || m_data)
        return;
    m_started = true; // a worker still running finds m_data set and presents nothing
    present(compute(*m_session));
}

void MemoryView::present(std::shared_ptr<const Data> result) {
    if (m_data)
        return; // computeNow() got there first
    m_data = std::move(result);
    if (m_data->curves.empty()) {
        m_status->setText(tr("No memory events in this trace.\nRecord with profile_memory=True (PyTorch), "
                             "--cuda-memory-usage=true (Nsight Systems) or the memory activity (Warpscope capture)."));
        m_pages->setCurrentIndex(0);
        emit ready();
        return;
    }
    const QSignalBlocker block(m_device);
    m_device->clear();
    int firstGpu = -1;
    for (const MemoryCurve& c : m_data->curves.devices()) {
        QString label = c.device.type == 0 ? tr("CPU") : tr("GPU %1").arg(c.device.id);
        if (c.device.type == 1)
            for (const DeviceInfo& info : m_session->devices())
                if (info.id == c.device.id && !info.name.empty())
                    label += QStringLiteral(" (%1)").arg(QString::fromStdString(info.name));
        if (c.device.type == 1 && firstGpu < 0)
            firstGpu = m_device->count();
        m_device->addItem(label);
    }
    m_device->setCurrentIndex(firstGpu >= 0 ? firstGpu : 0); // GPU memory is what people look for first
    m_allocationModel->setAllocations(m_session, m_data->allocations);
    m_pages->setCurrentIndex(1);
    updateForSelection();
    emit ready();
}

int MemoryView::deviceCount() const { return m_data ? static_cast<int>(m_data->curves.devices().size()) : 0; }

void MemoryView::setDeviceIndex(int index) {
    if (index >= 0 && index < m_device->count())
        m_device->setCurrentIndex(index);
}

std::optional<MemoryDevice> MemoryView::currentDevice() const {
    const MemoryCurve* c = currentCurve();
    return c ? std::optional<MemoryDevice>(c->device) : std::nullopt;
}

const MemoryCurve* MemoryView::currentCurve() const {
    if (!m_data)
        return nullptr;
    const int i = m_device->currentIndex();
    const auto& devices = m_data->curves.devices();
    return i >= 0 && i < static_cast<int>(devices.size()) ? &devices[static_cast<size_t>(i)] : nullptr;
}

void MemoryView::updateForSelection() {
    const MemoryCurve* curve = currentCurve();
    if (!curve || !m_session)
        return;
    const std::optional<TimeRange> sel = m_time->selectedRange();
    const bool ranged = sel && sel->end > sel->start;
    const int64_t from = ranged ? sel->start : m_session->startNs();
    const int64_t to = ranged ? sel->end : m_session->endNs() + 1;
    m_chart->setCurve(curve, m_session->startNs());
    m_chart->setWindow(from, to);
    if (m_snapshotTimeline && curve->device.type == 1) {
        showSnapshotDevice(curve->device.id);
        // The session clock is the snapshot's time_us in ns. Beside a trace, the bands show the
        // trace's span (the snapshot's history may reach further back) unless a range is selected.
        const bool windowed = ranged || snapshotBesideTrace();
        m_snapshotTimeline->setWindow(windowed ? std::optional<std::pair<int64_t, int64_t>>({from / 1000, to / 1000})
                                               : std::nullopt);
    }
    m_chart->setSelection(ranged ? std::optional<std::pair<int64_t, int64_t>>({sel->start, sel->end}) : std::nullopt);
    std::optional<std::pair<int64_t, int64_t>> range;
    if (ranged)
        range = std::make_pair(sel->start, sel->end);
    m_allocationModel->setFilter(curve->device, range);
    m_opModel->setStats(m_session,
                        std::make_shared<const MemoryOpStats>(MemoryOpStats::build(*m_session, m_data->recordOps, from, to)),
                        curve->device);

    // Summary line: never a 0 for what the trace does not have.
    QStringList parts;
    const int64_t origin = m_session->startNs();
    const MemoryPeak alloc = curve->peakAllocatedIn(from, to);
    if (alloc.known())
        parts << tr("Peak allocated %1 at %2").arg(formatBytes(alloc.value), formatDuration(alloc.ts - origin));
    else
        parts << tr("Peak allocated: no records in the selection");
    if (!curve->allocatedFromTotals)
        parts << tr("(allocated since the trace began: the trace has no allocator totals)");
    const MemoryPeak reserved = curve->peakReservedIn(from, to);
    if (!curve->hasReserved())
        parts << tr("Reserved: not in this trace");
    else if (reserved.known())
        parts << tr("Peak reserved %1").arg(formatBytes(reserved.value));
    if (curve->capacity) {
        QString cap = tr("Capacity %1").arg(formatBytes(*curve->capacity));
        if (alloc.known())
            cap += tr(" (peak uses %1)").arg(formatPercent(static_cast<double>(alloc.value) /
                                                           static_cast<double>(*curve->capacity)));
        parts << cap;
    } else {
        parts << tr("Capacity: not in this trace");
    }
    const MemoryAllocations::Counts n = m_data->allocations->counts(curve->device, from, to);
    parts << tr("%1 allocations, %2 frees, %3 never freed (leaks), %4 frees of earlier allocations")
                 .arg(formatCount(n.allocations), formatCount(n.frees), formatCount(n.leaks), formatCount(n.unmatchedFrees));
    if (ranged)
        parts << tr("in the selection (%1)").arg(formatDuration(sel->end - sel->start));
    m_summary->setText(parts.join(QStringLiteral(" · ")));
}

QString MemoryView::summaryText() const { return m_summary->text(); }

QString MemoryView::statusText() const { return m_status->text(); }

} // namespace ws
