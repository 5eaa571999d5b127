#include "kernel_table_view.h"

#include "analysis/kernel_csv.h"
#include "analysis/kernel_groups.h"
#include "analysis/kernel_table.h"
#include "analysis/ncu_command.h"
#include "analysis/ncu_match.h"
#include "import/ncu_report_export.h"
#include "analysis/session_results.h"
#include "format.h"
#include "kernel_group_model.h"
#include "kernel_pie_chart.h"
#include "kernel_table_model.h"
#include "model/session.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <fstream>

namespace ws {

namespace {

QTableView* makeTable(QAbstractItemModel* model, const QString& name, QWidget* parent) {
    auto* table = new QTableView(parent);
    table->setObjectName(name);
    table->setModel(model);
    // No sort indicator before enabling sorting: rows start in their natural order.
    table->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    table->setSortingEnabled(true);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->verticalHeader()->hide();
    table->setWordWrap(false);
    return table;
}

} // namespace

KernelTableView::KernelTableView(TimeViewport* time, std::shared_ptr<const Session> session, QWidget* parent)
    : QWidget(parent), m_time(time), m_session(std::move(session)), m_model(new KernelTableModel(this)),
      m_groupModel(new KernelGroupModel(this)), m_pie(new KernelPieChart(this)), m_modeBox(new QComboBox(this)),
      m_filter(new QLineEdit(this)), m_hint(new QLabel(this)), m_pages(new QStackedWidget(this)) {
    m_modeBox->setObjectName(QStringLiteral("kernelViewMode"));
    m_modeBox->addItem(tr("Every call"));
    m_modeBox->addItem(tr("Grouped by kernel"));
    m_modeBox->addItem(tr("Grouped by kernel, operator, grid and block"));
    m_filter->setPlaceholderText(tr("Filter by kernel name"));
    m_filter->setClearButtonEnabled(true);
    auto* exportButton = new QPushButton(tr("Export CSV…"), this);
    exportButton->setObjectName(QStringLiteral("kernelExportCsv"));
    auto* attachButton = new QPushButton(tr("Attach Nsight Compute results…"), this);
    attachButton->setObjectName(QStringLiteral("kernelAttachNcu"));
    attachButton->setToolTip(tr("Nsight Compute's CSV exports or .ncu-rep: what it measured on the calls it profiled, "
                                "as ncu columns"));

    m_callsView = makeTable(m_model, QStringLiteral("kernelTable"), this);
    m_groupView = makeTable(m_groupModel, QStringLiteral("kernelGroupTable"), this);
    m_groupView->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    // Kernel names are long (templates, nvjet_sm90_...): their column starts wide enough to tell
    // them apart; the user's resizing holds from then on.
    m_callsView->setColumnWidth(static_cast<int>(KernelColumn::Kernel), 320);
    m_groupView->setColumnWidth(static_cast<int>(KernelGroupModel::Column::Kernel), 320);
    auto* groupPage = new QSplitter(Qt::Horizontal, this);
    groupPage->addWidget(m_groupView);
    groupPage->addWidget(m_pie);
    groupPage->setStretchFactor(0, 3);
    groupPage->setStretchFactor(1, 2);
    m_pages->addWidget(m_callsView);
    m_pages->addWidget(groupPage);

    connect(m_modeBox, &QComboBox::currentIndexChanged, this, [this](int index) { setMode(static_cast<Mode>(index)); });
    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString& text) {
        m_model->setNameFilter(text);
        regroup();
    });
    connect(exportButton, &QPushButton::clicked, this, &KernelTableView::chooseExportFile);
    connect(attachButton, &QPushButton::clicked, this, [this] {
        const QStringList paths = QFileDialog::getOpenFileNames(
            this, tr("Attach Nsight Compute results"), QString(),
            tr("Nsight Compute results (*.csv *.csv.gz *.ncu-rep);;All files (*)"));
        if (paths.isEmpty())
            return;
        QString error;
        if (!attachNcu(paths, &error))
            QMessageBox::warning(this, tr("Nsight Compute"), error);
    });
    connect(m_callsView, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
        if (index.isValid())
            reveal(static_cast<uint32_t>(index.data(Qt::UserRole).toULongLong()));
    });
    connect(m_groupView, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
        if (const KernelGroup* g = m_groupModel->groupAt(index))
            reveal(g->firstRow);
    });
    // The Nsight Compute hand-off (issue #49): the command for this call (a group: its earliest).
    for (QTableView* view : {m_callsView, m_groupView}) {
        view->setContextMenuPolicy(Qt::CustomContextMenu);
        connect(view, &QTableView::customContextMenuRequested, this, [this, view](const QPoint& pos) {
            const QModelIndex index = view->indexAt(pos);
            if (!index.isValid() || !m_table)
                return;
            uint32_t row = 0;
            if (view == m_callsView)
                row = static_cast<uint32_t>(index.data(Qt::UserRole).toULongLong());
            else if (const KernelGroup* g = m_groupModel->groupAt(index))
                row = g->firstRow;
            else
                return;
            QMenu menu(this);
            menu.addAction(tr("Copy Nsight Compute command"), this, [this, row] {
                QApplication::clipboard()->setText(ncuCommandText(row));
            });
            menu.exec(view->viewport()->mapToGlobal(pos));
        });
    }
    connect(m_time, &TimeViewport::selectedRangeChanged, this, [this] {
        m_model->setTimeRange(m_time->selectedRange());
        regroup();
        updateRangeHint();
    });

    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("View:"), this));
    bar->addWidget(m_modeBox);
    bar->addWidget(m_filter, 1);
    bar->addWidget(m_hint);
    bar->addWidget(attachButton);
    bar->addWidget(exportButton);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addLayout(bar);
    layout->addWidget(m_pages, 1);
    m_model->setTimeRange(m_time->selectedRange());
    updateRangeHint();
}

KernelTableView::~KernelTableView() {
    m_closing = true; // the argument passes stop after the event they are reading
    if (m_builder.joinable())
        m_builder.join();
}

void KernelTableView::startBuild() {
    if (m_started || !m_session)
        return;
    m_started = true;
    m_hint->setText(tr("Reading kernels…"));
    m_builder = std::thread([this, session = m_session] {
        KernelTableOptions options;
        options.cancel = &m_closing;
        auto table = std::make_shared<const KernelTable>(KernelTable::build(*session, options));
        m_built = table;
        QMetaObject::invokeMethod(this, [this] { ensureBuilt(); }, Qt::QueuedConnection);
    });
}

void KernelTableView::ensureBuilt() {
    if (m_table || !m_session)
        return;
    startBuild();
    if (m_builder.joinable())
        m_builder.join();
    setTable(m_built);
}

void KernelTableView::setTable(std::shared_ptr<const KernelTable> table) {
    m_table = std::move(table);
    m_storedGroups = false;
    m_model->setTable(m_session, m_table);
    regroup();
    updateRangeHint();
}

void KernelTableView::setMode(Mode mode) {
    m_mode = mode;
    if (m_modeBox->currentIndex() != static_cast<int>(mode))
        m_modeBox->setCurrentIndex(static_cast<int>(mode));
    m_pages->setCurrentIndex(mode == Mode::Calls ? 0 : 1);
    regroup();
}

void KernelTableView::regroup() {
    if (!m_table || m_mode == Mode::Calls)
        return;
    // Groups over the rows shown (filter and range), in start order so each group's first row is
    // its earliest call.
    std::vector<uint32_t> rows = m_model->visibleRows();
    std::sort(rows.begin(), rows.end());
    const KernelGrouping grouping = m_mode == Mode::ByName ? KernelGrouping::Name : KernelGrouping::NameOpGridBlock;
    std::vector<KernelGroup> groups = groupKernels(*m_table, grouping, rows);
    m_pie->setGroups(*m_session, groups);
    m_groupModel->setGroups(m_session, std::move(groups), grouping);
    m_groupView->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
}

void KernelTableView::updateRangeHint() {
    if (!m_table) {
        m_hint->setText(m_started ? tr("Reading kernels…") : QString());
        return;
    }
    const auto range = m_time->selectedRange();
    m_hint->setText(range ? tr("%1 kernels in the selected range (%2)")
                                .arg(formatCount(m_model->visibleRows().size()), formatDuration(range->length()))
                          : tr("%1 kernels").arg(formatCount(m_model->visibleRows().size())));
}

bool KernelTableView::attachNcu(const QStringList& paths, QString* error) {
    ensureBuilt();
    if (!m_table) {
        *error = tr("The kernel table is not built.");
        return false;
    }
    NcuResults results;
    for (const QString& path : paths) {
        std::string why;
        if (!readNcuFile(path.toStdString(), results, why)) {
            *error = tr("%1: %2").arg(path, QString::fromStdString(why));
            return false;
        }
    }
    m_model->setMeasured(results, matchNcuResults(*m_session, *m_table, results));
    if (m_model->measuredCalls() == 0) {
        *error = tr("None of the %n launch(es) Nsight Compute profiled has a kernel of the same function name in this "
                    "session.", nullptr, static_cast<int>(results.results.size()));
        return false;
    }
    return true;
}

QString KernelTableView::ncuCommandText(uint32_t tableRow) const {
    if (!m_table || tableRow >= m_table->size())
        return {};
    const NcuCommand c = ncuCommandFor(*m_session, *m_table, tableRow, 1);
    return QString::fromStdString(c.handOffText());
}

void KernelTableView::reveal(uint32_t tableRow) {
    if (!m_table || tableRow >= m_table->size())
        return;
    const KernelRow& row = m_table->row(tableRow);
    const SliceRef ref{row.track, row.slice};
    m_time->setSelectedSlice(ref);
    emit revealRequested(ref);
}

bool KernelTableView::exportCsv(const QString& path, QString* error) const {
    if (!m_table) {
        *error = tr("The kernel table is not built yet.");
        return false;
    }
    std::ofstream out(path.toStdString(), std::ios::binary | std::ios::trunc);
    if (!out) {
        *error = tr("Cannot write %1.").arg(path);
        return false;
    }
    if (m_mode == Mode::Calls)
        writeKernelCsv(out, *m_session, *m_table, m_model->visibleRows());
    else
        writeKernelGroupCsv(out, *m_session, m_groupModel->groups(), m_groupModel->grouping());
    out.flush();
    if (!out) {
        *error = tr("Writing %1 failed.").arg(path);
        return false;
    }
    return true;
}

void KernelTableView::chooseExportFile() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Export Kernels as CSV"), QStringLiteral("kernels.csv"),
                                                      tr("CSV files (*.csv)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!exportCsv(path, &error))
        QMessageBox::warning(this, tr("Export failed"), error);
}

void KernelTableView::showStoredGroups() {
    if (m_started || !m_session || m_time->selectedRange())
        return; // a range's groups come from the table
    // Decoding the file's results is a small blob (a few hundred KB at most): fine on the GUI thread.
    std::optional<SessionResults> stored = decodeSessionResults(m_session->storedResults(), *m_session);
    if (!stored || stored->kernelGroups.empty())
        return;
    m_storedGroups = true;
    setMode(Mode::ByName);
    m_pie->setGroups(*m_session, stored->kernelGroups);
    m_groupModel->setGroups(m_session, std::move(stored->kernelGroups), KernelGrouping::Name);
}

void KernelTableView::showEvent(QShowEvent* event) {
    showStoredGroups();
    startBuild();
    QWidget::showEvent(event);
}

} // namespace ws
