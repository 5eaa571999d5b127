#include "operator_table_view.h"

#include "analysis/operator_csv.h"
#include "analysis/operator_table.h"
#include "analysis/operator_tree.h"
#include "analysis/session_analyses.h"
#include "analysis/session_results.h"
#include "format.h"
#include "model/session.h"
#include "operator_table_model.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QFile>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

#include <fstream>
#include <utility>

namespace ws {

namespace {

// Above this many slices the tree is built on a worker thread (measured 0.8 s for 1.8 M host
// slices / 1.1 M operators without arguments; the argument pass streams the source, ~10 s there).
constexpr uint64_t kWorkerSlices = 200000;

} // namespace

OperatorTableView::OperatorTableView(TimeViewport* time, std::shared_ptr<const Session> session, QWidget* parent)
    : OperatorTableView(time, session ? std::make_shared<SessionAnalyses>(std::move(session)) : nullptr, parent) {}

OperatorTableView::OperatorTableView(TimeViewport* time, std::shared_ptr<SessionAnalyses> analyses, QWidget* parent)
    : QWidget(parent), m_time(time), m_analyses(std::move(analyses)), m_session(m_analyses ? m_analyses->session() : nullptr),
      m_model(new OperatorTableModel(this)),
      m_group(new QComboBox(this)), m_filter(new QLineEdit(this)), m_export(new QPushButton(tr("Export CSV..."), this)),
      m_header(new QLabel(this)), m_note(new QLabel(this)), m_table(new QTableView(this)), m_rangeTimer(new QTimer(this)) {
    setObjectName(QStringLiteral("operatorTableView"));
    m_group->setObjectName(QStringLiteral("operatorGrouping"));
    m_group->addItem(tr("Name"), static_cast<int>(OperatorGrouping::Name));
    m_group->addItem(tr("Name + input shape"), static_cast<int>(OperatorGrouping::NameAndInputShape));
    m_group->addItem(tr("Name + call stack"), static_cast<int>(OperatorGrouping::NameAndCallStack));
    m_filter->setPlaceholderText(tr("Filter by operator name"));
    m_filter->setClearButtonEnabled(true);
    m_export->setObjectName(QStringLiteral("operatorExport"));
    m_export->setEnabled(false);
    m_header->setObjectName(QStringLiteral("operatorHeader"));
    m_note->setObjectName(QStringLiteral("operatorNote"));
    m_note->setWordWrap(true);
    m_note->hide();
    m_table->setObjectName(QStringLiteral("operatorTable"));
    m_table->setModel(m_model);
    // Rows start in the table's default order (self device time descending), no sort indicator.
    m_table->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    m_table->setSortingEnabled(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    m_table->setWordWrap(false);
    m_table->setTextElideMode(Qt::ElideMiddle);
    m_rangeTimer->setSingleShot(true);
    m_rangeTimer->setInterval(150);

    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Group by:"), this));
    bar->addWidget(m_group);
    bar->addWidget(m_filter, 1);
    bar->addWidget(m_export);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addLayout(bar);
    layout->addWidget(m_header);
    layout->addWidget(m_note);
    layout->addWidget(m_table, 1);
    m_header->setText(tr("Operators are computed when this tab is first shown."));

    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString& text) {
        m_model->setNameFilter(text);
        updateHeader();
    });
    connect(m_group, &QComboBox::currentIndexChanged, this, [this] { regroup(); });
    connect(m_export, &QPushButton::clicked, this, [this] { exportClicked(); });
    connect(m_rangeTimer, &QTimer::timeout, this, [this] { regroup(); });
    if (m_time)
        connect(m_time, &TimeViewport::selectedRangeChanged, m_rangeTimer, qOverload<>(&QTimer::start));
    connect(m_table, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
        const OperatorRow* row = m_model->rowAt(index);
        if (!row || !m_tree || row->longestNode == OperatorNode::kNone)
            return;
        const SliceRef ref{m_tree->trackOf(row->longestNode), m_tree->node(row->longestNode).slice};
        if (m_time)
            m_time->setSelectedSlice(ref);
        emit revealRequested(ref);
    });
}

OperatorTableView::~OperatorTableView() {
    // The worker only reads the shared session; its result is posted to this object, and posted
    // calls to a destroyed object are dropped.
    m_closing = true; // the argument pass stops after the event it is reading: closing does not wait for it
    if (m_worker.joinable())
        m_worker.join();
}

void OperatorTableView::ensureBuilt() {
    if (m_started || !m_session)
        return;
    m_started = true;
    const bool stored = showStoredTable();
    if (!stored && m_session->sliceCount() < kWorkerSlices) {
        treeReady(m_analyses->operatorTree(true), true);
        return;
    }
    if (!stored)
        m_header->setText(tr("Computing operators..."));
    // Without argument columns, two stages: the tree without arguments fills the by-name table,
    // and reading shapes and call stacks, which streams the whole source (measured ~8 s per million
    // operators on a 1 GB trace), replaces it when done. With the columns (imports and stored
    // sessions since issue #29) the arguments cost a fraction of the tree: one build, not two
    // (on the 10 GB trace, two trees took twice the time and twice the memory, 495 MB each).
    // The trees are the session's (a Compare tab may have built the first already).
    const bool argsAreCheap = m_session->argColumns();
    m_worker = std::thread([this, analyses = m_analyses, argsAreCheap] {
        if (!argsAreCheap && !analyses->operatorTreeIfReady(true)) {
            auto first = analyses->operatorTree(false);
            QMetaObject::invokeMethod(this, [this, first] { treeReady(first, false); }, Qt::QueuedConnection);
        }
        auto full = analyses->operatorTree(true, &m_closing);
        if (full) // null: closing
            QMetaObject::invokeMethod(this, [this, full] { treeReady(full, true); }, Qt::QueuedConnection);
    });
}

void OperatorTableView::buildNow() {
    if (m_complete || !m_session)
        return;
    if (m_worker.joinable()) {
        m_worker.join();
        QCoreApplication::sendPostedEvents(this); // deliver the worker's trees
        return;
    }
    m_started = true;
    treeReady(m_analyses->operatorTree(true), true);
}

void OperatorTableView::showEvent(QShowEvent* event) {
    ensureBuilt();
    QWidget::showEvent(event);
}

void OperatorTableView::treeReady(std::shared_ptr<const OperatorTree> tree, bool complete) {
    if (m_complete)
        return;
    const bool first = !m_tree;
    m_tree = std::move(tree);
    m_complete = complete;
    m_export->setEnabled(true);
    regroup();
    if (first)
        emit built();
}

bool OperatorTableView::showStoredTable() {
    if (!m_analyses || (m_time && m_time->selectedRange()) ||
        static_cast<OperatorGrouping>(m_group->currentData().toInt()) != OperatorGrouping::Name)
        return false;
    // Decoding the file's results is a small blob (a few hundred KB at most): fine on the GUI thread.
    const std::shared_ptr<const SessionResults> stored = m_analyses->storedResults();
    if (!stored)
        return false;
    std::optional<OperatorTable> table =
        OperatorTable::fromStoredRows(*m_session, stored->run.operators[static_cast<size_t>(OperatorGrouping::Name)]);
    if (!table)
        return false;
    m_storedTable = true;
    showTable(std::make_shared<const OperatorTable>(std::move(*table)), nullptr);
    return true;
}

void OperatorTableView::regroup() {
    const auto grouping = static_cast<OperatorGrouping>(m_group->currentData().toInt());
    if (!m_tree) {
        if (m_storedTable) { // the stored table is by name: another grouping waits for the tree
            m_note->setText(grouping == OperatorGrouping::Name ? QString()
                                                               : tr("Reading input shapes and call stacks from the trace..."));
            m_note->setVisible(grouping != OperatorGrouping::Name);
        }
        return;
    }
    std::optional<OperatorTimeRange> range;
    if (m_time && m_time->selectedRange())
        range = OperatorTimeRange{m_time->selectedRange()->start, m_time->selectedRange()->end};
    m_storedTable = false;
    showTable(std::make_shared<const OperatorTable>(OperatorTable::build(*m_session, *m_tree, grouping, range)), m_tree);
}

void OperatorTableView::showTable(std::shared_ptr<const OperatorTable> table, std::shared_ptr<const OperatorTree> tree) {
    const auto grouping = table->grouping();
    for (size_t c = 0; c < kOperatorColumnCount; ++c) {
        const auto column = static_cast<OperatorColumn>(c);
        const bool deviceColumn = column == OperatorColumn::DeviceTotal || column == OperatorColumn::DeviceSelf ||
                                  column == OperatorColumn::TcSelfPercent || column == OperatorColumn::TcTotalPercent;
        m_table->setColumnHidden(static_cast<int>(c), !operatorColumnInGrouping(column, grouping) ||
                                                          (deviceColumn && !table->hasDevice()));
    }
    QStringList notes;
    if (!table->hasDevice())
        notes << tr("Device time is not in this trace (no kernels, memory copies or memsets).");
    if (grouping != OperatorGrouping::Name && !m_complete)
        notes << tr("Reading input shapes and call stacks from the trace...");
    else if (grouping == OperatorGrouping::NameAndInputShape && !tree->anyShapes())
        notes << tr("Input shapes are not in this trace (it was recorded without record_shapes).");
    else if (grouping == OperatorGrouping::NameAndCallStack && !tree->anyCallStack())
        notes << tr("Call stacks are not in this trace (it was recorded without with_stack).");
    m_note->setText(notes.join(QLatin1Char(' ')));
    m_note->setVisible(!notes.isEmpty());
    // A stored table has no tree: its by-name cells need none (an empty one stands in).
    static const auto noTree = std::make_shared<const OperatorTree>();
    m_model->setTable(m_session, tree ? std::move(tree) : noTree, std::move(table));
    // Text columns get room once; the user's resizing is kept afterwards.
    for (const auto& [column, width] : {std::pair{OperatorColumn::Name, 280}, std::pair{OperatorColumn::InputShapes, 260},
                                        std::pair{OperatorColumn::InputTypes, 220}, std::pair{OperatorColumn::CallStack, 420}}) {
        const int c = static_cast<int>(column);
        if (m_table->columnWidth(c) < width && !m_sized[c]) {
            m_table->setColumnWidth(c, width);
            m_sized[c] = !m_table->isColumnHidden(c);
        }
    }
    updateHeader();
}

void OperatorTableView::updateHeader() {
    const OperatorTable* table = m_model->table();
    if (!table)
        return;
    QString text = tr("%1 operator calls in %2 rows").arg(formatCount(table->totalCalls()), formatCount(table->size()));
    if (m_model->rowCount() != static_cast<int>(table->size()))
        text += tr(", %1 shown").arg(formatCount(static_cast<uint64_t>(m_model->rowCount())));
    if (const auto range = table->range()) {
        const int64_t origin = m_time ? m_time->sessionStart() : m_session->startNs();
        text += tr(" — in selected range %1 to %2 (%3)")
                    .arg(formatDuration(range->from - origin), formatDuration(range->to - origin),
                         formatDuration(range->to - range->from));
    }
    if (!m_tree || m_storedTable) { // the stored table's figures do not include the tree's stats
        m_header->setText(text);
        return;
    }
    const OperatorTreeStats& stats = m_tree->stats();
    if (stats.gpuNs > 0 && stats.gpuNsAttributed < stats.gpuNs)
        text += tr(" — %1 of GPU time launched outside any operator")
                    .arg(formatPercent(static_cast<double>(stats.gpuNs - stats.gpuNsAttributed) /
                                       static_cast<double>(stats.gpuNs)));
    m_header->setText(text);
}

bool OperatorTableView::exportCsv(const QString& path) const {
    const OperatorTable* table = m_model->table();
    if (!table || !m_tree)
        return false;
    std::ofstream out(QFile::encodeName(path).toStdString(), std::ios::binary);
    if (!out)
        return false;
    writeOperatorCsv(out, *m_session, *m_tree, *table, m_model->order());
    out.flush();
    return static_cast<bool>(out);
}

void OperatorTableView::exportClicked() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Export operators as CSV"), QStringLiteral("operators.csv"),
                                                      tr("CSV files (*.csv);;All files (*)"));
    if (path.isEmpty())
        return;
    if (!exportCsv(path))
        QMessageBox::warning(this, tr("Export CSV"), tr("Could not write %1.").arg(path));
}

} // namespace ws
