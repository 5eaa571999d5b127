#include "roofline_view.h"

#include "analysis/gpu_peaks.h"
#include "analysis/kernel_table.h"
#include "analysis/ncu_command.h"
#include "analysis/ncu_match.h"
#include "analysis/roofline.h"
#include "analysis/session_analyses.h"
#include "detached_work.h"
#include "format.h"
#include "import/ncu_report_export.h"
#include "model/session.h"
#include "roofline_chart.h"
#include "roofline_group_model.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <cmath>
#include <unordered_map>

namespace ws {

struct RooflineView::Result {
    std::shared_ptr<const KernelTable> table;
    std::shared_ptr<const Roofline> roofline;
};

RooflineView::RooflineView(TimeViewport* time, std::shared_ptr<SessionAnalyses> analyses, QWidget* parent)
    : QWidget(parent), m_time(time), m_analyses(std::move(analyses)), m_summary(new QLabel(this)),
      m_gpu(new QComboBox(this)), m_chart(new RooflineChart(this)), m_model(new RooflineGroupModel(this)),
      m_proxy(new QSortFilterProxyModel(this)), m_groups(new QTableView(this)),
      m_copyNcu(new QPushButton(tr("Copy ncu command"), this)) {
    m_summary->setWordWrap(true);
    m_summary->setObjectName(QStringLiteral("rooflineSummary"));
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setText(tr("Computing the roofline…"));
    m_gpu->setObjectName(QStringLiteral("rooflineGpu"));
    m_gpu->addItem(tr("GPU as recorded"), QString());
    for (const GpuPeaks& p : knownGpuPeaks())
        m_gpu->addItem(QString::fromUtf8(p.name), QString::fromUtf8(p.name));
    m_gpu->setToolTip(tr("The datasheet peaks the kernels are placed against"));
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(Qt::UserRole);
    m_groups->setObjectName(QStringLiteral("rooflineGroups"));
    m_groups->setModel(m_proxy);
    m_groups->setSortingEnabled(true);
    m_groups->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_groups->setSelectionMode(QAbstractItemView::SingleSelection);
    m_groups->verticalHeader()->hide();
    m_groups->setWordWrap(false);
    m_copyNcu->setObjectName(QStringLiteral("rooflineCopyNcu"));
    m_copyNcu->setToolTip(tr("The Nsight Compute command that profiles launches of the selected kernel, for the "
                             "clipboard"));
    m_copyNcu->setEnabled(false);
    auto* attach = new QPushButton(tr("Attach Nsight Compute results…"), this);
    attach->setObjectName(QStringLiteral("rooflineAttachNcu"));

    connect(m_gpu, &QComboBox::currentIndexChanged, this, [this] {
        if (m_table)
            rebuildRoofline();
    });
    connect(m_groups->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& current) {
        const int group = current.isValid() ? m_proxy->mapToSource(current).row() : -1;
        m_chart->setHighlighted(group);
        m_copyNcu->setEnabled(group >= 0);
    });
    connect(m_chart, &RooflineChart::pointClicked, this, [this](int id) { selectGroup(id); });
    connect(m_groups, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
        const int group = m_proxy->mapToSource(index).row();
        if (!m_table || !m_roofline || group < 0)
            return;
        // The kernel name's longest call.
        const StringId name = m_roofline->groups()[static_cast<size_t>(group)].name;
        const KernelRow* longest = nullptr;
        for (const KernelRow& r : m_table->rows())
            if (r.name == name && (!longest || r.dur > longest->dur))
                longest = &r;
        if (!longest)
            return;
        const SliceRef ref{longest->track, longest->slice};
        m_time->setSelectedSlice(ref);
        emit revealRequested(ref);
    });
    connect(m_copyNcu, &QPushButton::clicked, this, [this] {
        const QString command = ncuCommandFor(currentGroup());
        if (command.isEmpty())
            return;
        QApplication::clipboard()->setText(command);
        QMessageBox box(QMessageBox::Information, tr("Nsight Compute"),
                        tr("Copied to the clipboard. Run it where the program runs, then attach the two CSV "
                           "exports it writes:"),
                        QMessageBox::Ok, this);
        box.setDetailedText(command);
        box.exec();
    });
    connect(attach, &QPushButton::clicked, this, &RooflineView::chooseNcuFiles);

    auto* bar = new QHBoxLayout;
    bar->addWidget(m_summary, 1);
    auto* buttons = new QVBoxLayout;
    buttons->addWidget(m_gpu);
    buttons->addWidget(m_copyNcu);
    buttons->addWidget(attach);
    buttons->addStretch(1);
    bar->addLayout(buttons);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_chart);
    split->addWidget(m_groups);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addLayout(bar);
    layout->addWidget(split, 1);
}

RooflineView::~RooflineView() = default;

void RooflineView::showEvent(QShowEvent* event) {
    computeNow();
    QWidget::showEvent(event);
}

void RooflineView::computeNow() {
    if (m_started || !m_analyses)
        return;
    m_started = true;
    startDetached(
        this,
        [analyses = m_analyses] {
            // The view's own table (for ncu's launches and commands); the roofline is the analyses'.
            return Result{std::make_shared<const KernelTable>(KernelTable::build(*analyses->session())),
                          analyses->roofline()};
        },
        [](RooflineView& view, Result result) { view.deliver(std::move(result)); });
}

void RooflineView::deliver(Result result) {
    m_table = std::move(result.table);
    m_roofline = std::move(result.roofline);
    if (m_gpu->currentIndex() > 0)
        rebuildRoofline(); // a GPU was chosen while it computed
    else
        showRoofline();
}

void RooflineView::setGpu(const QString& name) {
    const int i = name.isEmpty() ? 0 : m_gpu->findData(name);
    if (i >= 0)
        m_gpu->setCurrentIndex(i);
}

void RooflineView::rebuildRoofline() {
    RooflineOptions options;
    const QString gpu = m_gpu->currentData().toString();
    if (!gpu.isEmpty())
        options.peaks = gpuPeaksFor(gpu.toStdString());
    const auto steps = m_analyses->inferenceSteps();
    m_roofline = std::make_shared<const Roofline>(Roofline::build(*m_analyses->session(), *m_table, steps.get(), options));
    showRoofline();
}

QString RooflineView::summaryText() const { return m_summary->text(); }

void RooflineView::showRoofline() {
    const Roofline& r = *m_roofline;
    const Session& s = *m_analyses->session();
    m_model->setRoofline(m_analyses->session(), m_roofline);
    std::vector<NcuKernelMeasure> measures;
    if (m_ncu)
        measures = ncuByKernelName(*m_table, *m_ncu, matchNcuResults(s, *m_table, *m_ncu));
    // The groups' name indices in the table (a group holds its name's StringId).
    std::unordered_map<StringId, uint32_t> nameIndex;
    for (uint32_t i = 0; i < m_table->names().size(); ++i)
        nameIndex.emplace(m_table->names()[i], i);
    std::vector<uint32_t> groupNames;
    for (const RooflineGroup& g : r.groups())
        groupNames.push_back(nameIndex[g.name]);
    if (!measures.empty())
        m_model->setMeasures(measures, groupNames);
    m_groups->sortByColumn(RooflineGroupModel::Time, Qt::DescendingOrder);
    m_groups->resizeColumnsToContents();
    m_groups->setColumnWidth(RooflineGroupModel::Kernel, 260);

    if (!r.peaks()) {
        m_chart->setPeaks(std::nullopt, 0);
        m_chart->setPoints({});
        m_summary->setText(tr("GPU %1 (%2) is not in Warpscope's table of GPU peaks: choose the GPU it ran on to place "
                              "its kernels on a roofline.")
                               .arg(r.device())
                               .arg(QString::fromStdString(std::string(r.deviceName()))));
        return;
    }
    const GpuPeaks& p = *r.peaks();
    m_chart->setPeaks(p, r.mfuPeakTflops());
    std::vector<RooflineChart::Point> points;
    const double total = static_cast<double>(std::max<int64_t>(1, r.total().totalNs));
    for (size_t g = 0; g < r.groups().size(); ++g) {
        const RooflineGroup& group = r.groups()[g];
        if (group.work.estimated == 0 || group.work.flops <= 0)
            continue;
        RooflineChart::Point point;
        point.intensity = group.work.intensity();
        point.tflops = group.work.tflops();
        point.weight = static_cast<double>(group.work.totalNs) / total;
        point.bound = group.bound;
        point.label = QString::fromStdString(std::string(s.str(group.name)).substr(0, 120));
        point.id = static_cast<int>(g);
        points.push_back(point);
    }
    for (const NcuKernelMeasure& m : measures) {
        if (std::isnan(m.intensity()) || std::isnan(m.tflops()))
            continue;
        for (size_t g = 0; g < groupNames.size(); ++g)
            if (groupNames[g] == m.nameIndex) {
                RooflineChart::Point point;
                point.intensity = m.intensity();
                point.tflops = m.tflops();
                point.weight = 0.02;
                point.bound = m.bound;
                point.measured = true;
                point.label = tr("%1 (Nsight Compute, %n launch(es))", nullptr, static_cast<int>(m.launches))
                                  .arg(QString::fromStdString(std::string(s.str(r.groups()[g].name)).substr(0, 120)));
                point.id = static_cast<int>(g);
                points.push_back(point);
            }
    }
    QStringList phases;
    for (const RooflinePhase& ph : r.phases()) {
        const QString name = ph.phase == InferencePhase::Prefill ? tr("prefill") : tr("decode");
        if (ph.work.estimatedNs > 0 && ph.work.flops > 0) {
            RooflineChart::Point point;
            point.intensity = ph.work.intensity();
            point.tflops = ph.work.tflops();
            point.weight = 0.05;
            point.bound = classifyBound(p, ph.work.flops, ph.work.bytes, ph.work.estimatedNs, r.mainFormat(), true);
            point.phase = true;
            point.label = name;
            points.push_back(point);
        }
        QString text = tr("%1: MFU %2, MBU %3").arg(name, formatUtilization(ph.mfu), formatUtilization(ph.mbu));
        if (!std::isnan(ph.measured[2]))
            text += tr(" (PM sampling: DRAM %1, tensor pipes %2, SMs %3)")
                        .arg(formatUtilization(ph.measured[2] / 100), formatUtilization(ph.measured[1] / 100),
                             formatUtilization(ph.measured[0] / 100));
        phases << text;
    }
    m_chart->setPoints(std::move(points));
    const RooflineWork& t = r.total();
    // A datasheet without a vector FP32 figure (B200's) says so rather than "0.0".
    const QString fp32 = p.fp32 > 0 ? QString::number(p.fp32, 'f', 1) : tr("no");
    QString text = tr("%1 as %2: %3 TFLOP/s on Tensor Cores, %4 FP32, %5 GB/s; ridge %6 FLOP/byte.")
                       .arg(QString::fromStdString(std::string(r.deviceName())), QString::fromUtf8(p.name))
                       .arg(r.mfuPeakTflops(), 0, 'f', 1)
                       .arg(fp32)
                       .arg(p.memoryGBps, 0, 'f', 0)
                       .arg(r.mfuPeakTflops() * 1e3 / p.memoryGBps, 0, 'f', 0);
    text += QLatin1Char(' ');
    text += t.estimated > 0
                ? tr("FLOPs and bytes estimated from operator shapes for %1 of %2 kernels (%3 of kernel time).")
                      .arg(formatCount(t.estimated), formatCount(t.kernels),
                           formatPercent(static_cast<double>(t.estimatedNs) / static_cast<double>(std::max<int64_t>(1, t.totalNs))))
                : tr("No operator shapes: record them (torch.profiler record_shapes=True, warpscope-capture "
                     "--torch-ops=shapes) to place kernels on the roofline; short kernels still read as latency-bound.");
    if (!phases.isEmpty())
        text += QLatin1Char(' ') + phases.join(QStringLiteral("; ")) + QLatin1Char('.');
    if (m_ncu)
        text += QLatin1Char(' ') + tr("Nsight Compute: %n launch(es) attached.", nullptr, static_cast<int>(m_ncu->results.size()));
    m_summary->setText(text);
}

int RooflineView::currentGroup() const {
    const QModelIndex current = m_groups->currentIndex();
    return current.isValid() ? m_proxy->mapToSource(current).row() : -1;
}

void RooflineView::selectGroup(int group) {
    const QModelIndex source = m_model->index(group, 0);
    if (!source.isValid())
        return;
    m_groups->setCurrentIndex(m_proxy->mapFromSource(source));
    m_groups->scrollTo(m_groups->currentIndex());
}

QString RooflineView::ncuCommandFor(int group) const {
    if (!m_table || !m_roofline || group < 0 || static_cast<size_t>(group) >= m_roofline->groups().size())
        return {};
    const StringId name = m_roofline->groups()[static_cast<size_t>(group)].name;
    std::vector<uint32_t> rows;
    for (uint32_t r = 0; r < m_table->size(); ++r)
        if (m_table->row(r).name == name)
            rows.push_back(r);
    if (rows.empty())
        return {};
    const NcuCommand c = ws::ncuCommandFor(*m_analyses->session(), *m_table, rows[rows.size() / 2], 3);
    return QString::fromStdString(c.handOffText());
}

bool RooflineView::attachNcu(const QStringList& paths, QString* error) {
    NcuResults results;
    for (const QString& path : paths) {
        std::string why;
        if (!readNcuFile(path.toStdString(), results, why)) {
            *error = tr("%1: %2").arg(path, QString::fromStdString(why));
            return false;
        }
    }
    m_ncu = std::move(results);
    if (m_roofline)
        showRoofline();
    return true;
}

void RooflineView::chooseNcuFiles() {
    const QStringList paths = QFileDialog::getOpenFileNames(
        this, tr("Attach Nsight Compute results"), QString(),
        tr("Nsight Compute results (*.csv *.csv.gz *.ncu-rep);;All files (*)"));
    if (paths.isEmpty())
        return;
    QString error;
    if (!attachNcu(paths, &error))
        QMessageBox::warning(this, tr("Nsight Compute"), error);
}

} // namespace ws
