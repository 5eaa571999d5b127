#include "query_view.h"

#include "analysis/session_analyses.h"
#include "detached_work.h"
#include "format.h"
#include "model/session.h"
#include "query/query_engine.h"
#include "query/query_schema.h"
#include "query_result_model.h"

#include <QComboBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeySequence>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QShortcut>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <chrono>

namespace ws {

namespace {

const char* const kHistoryKey = "query/history";
constexpr int kHistorySize = 30;

// Columns that hold a slice id, in the order a row's slice is taken from.
const char* const kSliceColumns[] = {"id", "slice_id", "launch_id", "op_id"};
const char* const kStartColumns[] = {"ts", "start_ns", "start"};
const char* const kDurColumns[] = {"dur", "duration_ns", "dur_ns"};
const char* const kEndColumns[] = {"end", "end_ns"};
const char* const kLabelColumns[] = {"name", "kernel", "label", "category", "cause"};

template <size_t N> int firstColumn(const QueryResultModel& m, const char* const (&names)[N]) {
    for (const char* n : names)
        if (const int c = m.column(QString::fromLatin1(n)); c >= 0)
            return c;
    return -1;
}

std::optional<int64_t> integerAt(const QueryResult& r, size_t row, int column) {
    if (column < 0)
        return std::nullopt;
    const QueryValue& v = r.rows[row][static_cast<size_t>(column)];
    if (v.type == QueryValue::Type::Integer)
        return v.integer;
    if (v.type == QueryValue::Type::Real)
        return static_cast<int64_t>(v.real);
    return std::nullopt;
}

} // namespace

QueryView::QueryView(TimeViewport* time, QWidget* parent)
    : QWidget(parent), m_time(time), m_editor(new QPlainTextEdit(this)), m_history(new QComboBox(this)),
      m_run(new QPushButton(tr("Run"), this)), m_cancel(new QPushButton(tr("Cancel"), this)),
      m_addTrack(new QPushButton(tr("Add as Track"), this)), m_status(new QLabel(this)), m_schema(new QTreeWidget(this)),
      m_table(new QTableView(this)), m_model(new QueryResultModel(this)), m_proxy(new QSortFilterProxyModel(this)) {
    m_editor->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_editor->setPlaceholderText(tr("SQL over this session, e.g. SELECT * FROM kernel_summary LIMIT 20  (Ctrl+Return runs)"));
    m_editor->setPlainText(QStringLiteral("SELECT * FROM kernel_summary LIMIT 20"));
    m_editor->setTabChangesFocus(true);
    m_run->setToolTip(tr("Run the statement (Ctrl+Return)"));
    m_cancel->setToolTip(tr("Stop the running statement"));
    m_addTrack->setToolTip(tr("Show the result's rows on the timeline as a track of their own (needs a time and a duration)"));
    m_history->setToolTip(tr("Recent statements"));
    m_history->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_history->setMinimumContentsLength(30);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->setWordWrap(true);

    m_schema->setHeaderLabels({tr("Table / column"), tr("Type")});
    m_schema->setToolTip(tr("Double-click a name to insert it"));
    m_schema->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    fillSchema();
    connect(m_schema, &QTreeWidget::itemDoubleClicked, this, [this](QTreeWidgetItem* item) {
        m_editor->insertPlainText(item->text(0));
        m_editor->setFocus();
    });

    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(Qt::UserRole);
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(-1, Qt::AscendingOrder); // the statement's own order until a header is clicked
    m_table->setWordWrap(false); // a kernel's name stays one line, elided at the right
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 4);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& current) {
        if (current.isValid())
            selectRowSlice(m_proxy->mapToSource(current).row());
    });

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_run);
    buttons->addWidget(m_cancel);
    buttons->addWidget(m_history, 1);
    buttons->addWidget(m_addTrack);
    auto* editorBox = new QWidget(this);
    auto* editorLayout = new QVBoxLayout(editorBox);
    editorLayout->setContentsMargins(0, 0, 0, 0);
    editorLayout->addLayout(buttons);
    editorLayout->addWidget(m_editor, 1);
    editorLayout->addWidget(m_status);
    auto* top = new QSplitter(Qt::Horizontal, this);
    top->addWidget(editorBox);
    top->addWidget(m_schema);
    top->setStretchFactor(0, 3);
    top->setStretchFactor(1, 1);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(top);
    split->addWidget(m_table);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(split);

    connect(m_run, &QPushButton::clicked, this, &QueryView::run);
    connect(m_cancel, &QPushButton::clicked, this, &QueryView::cancel);
    auto* shortcut = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return), m_editor);
    connect(shortcut, &QShortcut::activated, this, &QueryView::run);
    connect(m_history, &QComboBox::activated, this, [this](int index) {
        if (index > 0)
            m_editor->setPlainText(m_history->itemData(index).toString());
    });
    connect(m_addTrack, &QPushButton::clicked, this, [this] {
        QString why;
        if (std::optional<QueryTrack> track = resultTrack(&why))
            emit addTrackRequested(*track);
        else
            m_status->setText(why);
    });
    loadHistory();
    updateButtons();
}

QueryView::~QueryView() {
    if (m_engine && m_running)
        m_engine->cancel(); // the detached work ends soon; its result finds no view
}

void QueryView::setAnalyses(std::shared_ptr<SessionAnalyses> analyses) {
    if (m_engine && m_running)
        m_engine->cancel();
    ++m_generation;
    m_running = false;
    m_analyses = std::move(analyses);
    m_engine.reset(); // made on the first run, over the session's shared analyses
    m_model->setResult({});
    updateButtons();
}

void QueryView::setSql(const QString& sql) { m_editor->setPlainText(sql); }
QString QueryView::sql() const { return m_editor->toPlainText(); }

void QueryView::run() {
    if (m_running || !m_analyses)
        return;
    const QString sql = m_editor->toPlainText().trimmed();
    if (sql.isEmpty())
        return;
    if (!m_engine)
        m_engine = std::make_shared<QueryEngine>(m_analyses->session(), m_analyses);
    remember(sql);
    m_running = true;
    m_ranSql = sql;
    const quint64 generation = ++m_generation;
    m_status->setText(tr("Running…"));
    updateButtons();
    startDetached(
        this,
        [engine = m_engine, text = sql.toStdString()] {
            const auto t0 = std::chrono::steady_clock::now();
            QueryOptions options;
            options.maxRows = kMaxRows;
            QueryResult r = engine->run(text, options);
            return std::make_pair(std::move(r), std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        },
        [generation](QueryView& view, std::pair<QueryResult, double> result) {
            view.deliver(std::move(result.first), result.second, generation);
        });
}

void QueryView::runNow() {
    if (m_running || !m_analyses)
        return;
    const QString sql = m_editor->toPlainText().trimmed();
    if (!m_engine)
        m_engine = std::make_shared<QueryEngine>(m_analyses->session(), m_analyses);
    m_ranSql = sql;
    const auto t0 = std::chrono::steady_clock::now();
    QueryOptions options;
    options.maxRows = kMaxRows;
    QueryResult r = m_engine->run(sql.toStdString(), options);
    m_running = true;
    deliver(std::move(r), std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), ++m_generation);
}

void QueryView::cancel() {
    if (m_engine && m_running)
        m_engine->cancel();
}

void QueryView::deliver(QueryResult result, double seconds, quint64 generation) {
    if (generation != m_generation)
        return; // an older statement or session
    m_running = false;
    if (result.cancelled) {
        m_status->setText(tr("Cancelled after %1.").arg(formatDuration(static_cast<int64_t>(seconds * 1e9))));
    } else if (!result.error.empty()) {
        m_status->setText(tr("<span style='color:#b00020'>%1</span>").arg(QString::fromStdString(result.error).toHtmlEscaped()));
    } else {
        const QString rows = result.truncated ? tr("the first %1 rows (add LIMIT, or use warpscope-cli query for all)")
                                                    .arg(formatCount(result.rows.size()))
                                              : tr("%n row(s)", nullptr, static_cast<int>(result.rows.size()));
        m_status->setText(tr("%1 in %2").arg(rows, formatDuration(static_cast<int64_t>(seconds * 1e9))));
        m_model->setResult(std::move(result));
        m_table->sortByColumn(-1, Qt::AscendingOrder);
        m_table->resizeColumnsToContents();
        for (int c = 0; c < m_model->columnCount(); ++c)
            m_table->setColumnWidth(c, std::min(m_table->columnWidth(c), 420));
    }
    updateButtons();
    emit finished();
}

std::optional<QueryTrack> QueryView::resultTrack(QString* why) const {
    const QueryResult& r = m_model->result();
    const int start = firstColumn(*m_model, kStartColumns);
    const int dur = firstColumn(*m_model, kDurColumns);
    const int end = firstColumn(*m_model, kEndColumns);
    if (start < 0 || (dur < 0 && end < 0)) {
        if (why)
            *why = tr("A track needs a time column (ts or start_ns) and a duration (dur or duration_ns) or an end (end or end_ns).");
        return std::nullopt;
    }
    int label = firstColumn(*m_model, kLabelColumns);
    for (size_t c = 0; label < 0 && c < r.columns.size() && !r.rows.empty(); ++c)
        if (r.rows[0][c].type == QueryValue::Type::Text)
            label = static_cast<int>(c);
    const int slice = firstColumn(*m_model, kSliceColumns);
    std::vector<QueryTrack::Interval> intervals;
    intervals.reserve(r.rows.size());
    const Session& session = *m_analyses->session();
    for (size_t i = 0; i < r.rows.size(); ++i) {
        const std::optional<int64_t> s = integerAt(r, i, start);
        std::optional<int64_t> d = integerAt(r, i, dur);
        if (!d)
            if (const std::optional<int64_t> e = integerAt(r, i, end); e && s)
                d = *e - *s;
        if (!s || !d)
            continue;
        QueryTrack::Interval interval;
        interval.start = *s;
        interval.dur = *d;
        interval.label = label >= 0 ? QString::fromStdString(r.rows[i][static_cast<size_t>(label)].toText()) : QString();
        if (const std::optional<int64_t> id = integerAt(r, i, slice))
            if (const std::optional<SliceOfId> ref = sliceOfId(session, *id))
                interval.slice = SliceRef{ref->track, ref->slice};
        intervals.push_back(std::move(interval));
    }
    if (intervals.empty()) {
        if (why)
            *why = tr("No row has both a time and a duration.");
        return std::nullopt;
    }
    QString name = m_ranSql.simplified();
    if (name.size() > 48)
        name = name.left(47) + QChar(0x2026);
    return QueryTrack::build(tr("Query: %1").arg(name), std::move(intervals));
}

void QueryView::selectRowSlice(int sourceRow) {
    if (!m_analyses || sourceRow < 0)
        return;
    const int column = firstColumn(*m_model, kSliceColumns);
    const std::optional<int64_t> id = integerAt(m_model->result(), static_cast<size_t>(sourceRow), column);
    if (!id)
        return;
    if (const std::optional<SliceOfId> ref = sliceOfId(*m_analyses->session(), *id)) {
        const SliceRef s{ref->track, ref->slice};
        emit revealRequested(s);
    }
}

void QueryView::fillSchema() {
    QFont bold = font();
    bold.setBold(true);
    for (const QuerySchemaTable& t : querySchema()) {
        auto* table = new QTreeWidgetItem(m_schema, {QString::fromStdString(t.name), t.view ? tr("view") : QString()});
        table->setFont(0, bold);
        table->setToolTip(0, QString::fromStdString(t.doc));
        for (const QuerySchemaColumn& c : t.columns) {
            auto* column = new QTreeWidgetItem(table, {QString::fromStdString(c.name), QString::fromStdString(c.type)});
            column->setToolTip(0, QString::fromStdString(c.doc));
        }
    }
}

void QueryView::loadHistory() {
    m_history->clear();
    m_history->addItem(tr("Recent statements"));
    for (const QString& s : QSettings().value(QLatin1String(kHistoryKey)).toStringList())
        m_history->addItem(s.simplified().left(80), s);
}

void QueryView::remember(const QString& sql) {
    QStringList list = QSettings().value(QLatin1String(kHistoryKey)).toStringList();
    list.removeAll(sql);
    list.prepend(sql);
    while (list.size() > kHistorySize)
        list.removeLast();
    QSettings().setValue(QLatin1String(kHistoryKey), list);
    loadHistory();
}

void QueryView::updateButtons() {
    m_run->setEnabled(!m_running && m_analyses);
    m_cancel->setEnabled(m_running);
    m_addTrack->setEnabled(!m_running && m_model->rowCount() > 0);
}

} // namespace ws
