#include "session_page.h"

#include "analysis/session_analyses.h"
#include "bookmark_model.h"
#include "flame_graph_view.h"
#include "kernel_table_view.h"
#include "memory_view.h"
#include "model/session.h"
#include "operator_table_view.h"
#include "overview_view.h"
#include "range_summary_view.h"
#include "search_bar.h"
#include "session_loader.h"
#include "session_summary_view.h"
#include "slice_details_view.h"
#include "source_pane.h"
#include "stack_source_view.h"
#include "time_viewport.h"
#include "timeline_view.h"

#include <QAction>
#include <QFile>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QScrollArea>
#include <QTableView>
#include <QSplitter>
#include <QTabWidget>
#include <QVBoxLayout>

namespace ws {

SessionPage::SessionPage(std::shared_ptr<const LoadedSession> session, QWidget* parent)
    : QWidget(parent), m_session(std::move(session)), m_analyses(std::make_shared<SessionAnalyses>(m_session->session)),
      m_time(new TimeViewport(this)),
      m_search(new SearchBar(m_time, this)), m_timeline(new TimelineView(m_time, this)),
      m_bottomTabs(new QTabWidget(this)), m_details(new SliceDetailsView(m_time, this)),
      m_summary(new SessionSummaryView(this)), m_range(new RangeSummaryView(m_time, this)),
      m_bookmarks(new BookmarkModel(m_session->session->startNs(), this)) {
    setObjectName(QStringLiteral("sessionPage"));
    m_timeline->setSession(m_session->session);
    m_details->setSession(m_session->session);
    m_summary->setSession(m_session);
    m_search->setSession(m_session->session);
    m_range->setSession(m_session->session);
    connect(m_details, &SliceDetailsView::revealRequested, m_timeline, &TimelineView::revealSlice);
    connect(m_search, &SearchBar::revealRequested, m_timeline, &TimelineView::revealSlice);
    connect(m_time, &TimeViewport::selectedRangeChanged, this, [this] {
        // Views that follow the range themselves stay in front (a drag on the memory chart must
        // not hide the memory chart).
        if (m_time->selectedRange() && !m_rangeFollowers.contains(m_bottomTabs->currentWidget()))
            m_bottomTabs->setCurrentWidget(m_range);
    });
    connect(m_time, &TimeViewport::selectedSliceChanged, this, [this] {
        if (m_time->selectedSlice())
            m_bottomTabs->setCurrentWidget(m_details);
    });

    m_bottomTabs->setDocumentMode(true);
    // The summary scrolls inside its tab so the timeline keeps most of the height.
    auto* summaryScroll = new QScrollArea(this);
    summaryScroll->setWidget(m_summary);
    summaryScroll->setWidgetResizable(true);
    summaryScroll->setFrameShape(QFrame::NoFrame);
    m_bottomTabs->addTab(summaryScroll, tr("Summary"));
    auto* overviewTab = new OverviewView(m_time, m_analyses, this);
    connect(overviewTab, &OverviewView::revealRequested, m_timeline, &TimelineView::revealSlice);
    m_bottomTabs->addTab(overviewTab, tr("Overview"));
    m_bottomTabs->addTab(m_details, tr("Details"));
    m_bottomTabs->addTab(m_range, tr("Range"));
    auto* stackTab = new StackSourceView(m_time, this);
    m_stackSource = stackTab;
    stackTab->setSession(m_session->session);
    m_bottomTabs->addTab(stackTab, tr("Stack"));
    m_bottomTabs->addTab(createBookmarksTab(), tr("Bookmarks"));
    auto* kernelsTab = new KernelTableView(m_time, m_session->session, this);
    connect(kernelsTab, &KernelTableView::revealRequested, m_timeline, &TimelineView::revealSlice);
    m_bottomTabs->addTab(kernelsTab, tr("Kernels"));
    auto* operatorsTab = new OperatorTableView(m_time, m_analyses, this);
    connect(operatorsTab, &OperatorTableView::revealRequested, m_timeline, &TimelineView::revealSlice);
    m_bottomTabs->addTab(operatorsTab, tr("Operators"));
    auto* memoryTab = new MemoryView(m_time, m_session->session, this);
    m_bottomTabs->addTab(memoryTab, tr("Memory"));
    // A memory snapshot's allocation stacks are not slices' stacks: the Memory tab hands them over.
    connect(memoryTab, &MemoryView::stackRequested, this,
            [stackTab](const CallStack& stack, const QString& what) { stackTab->showStack(stack, what); });
    auto* flameTab = new FlameGraphView(m_time, m_session->session, this);
    m_bottomTabs->insertTab(m_bottomTabs->indexOf(stackTab) + 1, flameTab, tr("Flame Graph"));
    // A frame's source goes to the Stack tab's source pane, as the Stack tab's own frames do.
    connect(flameTab, &FlameGraphView::sourceRequested, this, [this, stackTab](const QString& file, int line, bool editor) {
        stackTab->showSource(file, line, editor);
        if (!editor)
            m_bottomTabs->setCurrentWidget(stackTab);
    });
    m_rangeFollowers = {overviewTab, kernelsTab, operatorsTab, memoryTab, flameTab};
    // Untranslated keys for --tab and tests.
    m_tabKeys = {{QStringLiteral("summary"), summaryScroll}, {QStringLiteral("overview"), overviewTab},
                 {QStringLiteral("details"), m_details},     {QStringLiteral("range"), m_range},
                 {QStringLiteral("stack"), stackTab},        {QStringLiteral("kernels"), kernelsTab},
                 {QStringLiteral("operators"), operatorsTab}, {QStringLiteral("memory"), memoryTab},
                 {QStringLiteral("flame"), flameTab}};
    // Showing a tab computes its view in the background; showTab(key, true) waits for it.
    m_computeNow = {{overviewTab, [overviewTab] { overviewTab->computeNow(); }},
                    {kernelsTab, [kernelsTab] { kernelsTab->ensureBuilt(); }},
                    {operatorsTab, [operatorsTab] { operatorsTab->buildNow(); }},
                    {memoryTab, [memoryTab] { memoryTab->computeNow(); }},
                    {flameTab, [flameTab] { flameTab->computeNow(); }}};

    m_timeline->setBookmarks(m_bookmarks);
    connect(m_bookmarks, &BookmarkModel::changed, this, &SessionPage::saveBookmarks);
    connect(m_timeline, &TimelineView::bookmarkRequested, this, [this](int64_t ts) {
        bool ok = false;
        const QString note = QInputDialog::getText(this, tr("Add Bookmark"), tr("Note:"), QLineEdit::Normal, {}, &ok);
        if (ok)
            addBookmark(ts, note);
    });
    setStoredPath(m_session->storedPath);

    auto* top = new QWidget(this);
    auto* topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->setSpacing(0);
    topLayout->addWidget(m_search);
    topLayout->addWidget(m_timeline, 1);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(top);
    split->addWidget(m_bottomTabs);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    split->setSizes({640, 300});
    split->setChildrenCollapsible(false);
    // The analysis tabs (charts plus tables) need more height than the details pane: the first
    // time one is shown, the bottom pane grows to about half the page if it is smaller.
    auto grow = [this, split] {
        if (m_grewForAnalysis || !m_rangeFollowers.contains(m_bottomTabs->currentWidget()))
            return;
        const QList<int> sizes = split->sizes();
        const int total = sizes.value(0) + sizes.value(1);
        if (total <= 0)
            return; // not laid out yet (a tab chosen at startup): resizeEvent tries again
        m_grewForAnalysis = true;
        if (sizes.value(1) < total * 45 / 100)
            split->setSizes({total * 45 / 100, total - total * 45 / 100});
    };
    connect(m_bottomTabs, &QTabWidget::currentChanged, this, grow);
    m_growForAnalysis = grow;
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);
}

void SessionPage::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    if (m_growForAnalysis)
        m_growForAnalysis();
}

void SessionPage::setSummarized(std::shared_ptr<const LoadedSession> session) {
    m_session = std::move(session);
    m_summary->setSession(m_session);
}

QWidget* SessionPage::createBookmarksTab() {
    auto* table = new QTableView(this);
    table->setObjectName(QStringLiteral("bookmarkTable"));
    table->setModel(m_bookmarks);
    table->verticalHeader()->hide();
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->horizontalHeader()->setSectionResizeMode(BookmarkModel::Time, QHeaderView::ResizeToContents);
    table->horizontalHeader()->setSectionResizeMode(BookmarkModel::Note, QHeaderView::Stretch);
    connect(table, &QTableView::activated, this, [this](const QModelIndex& index) {
        m_time->centerOn(m_bookmarks->data(index, Qt::UserRole).toLongLong());
    });
    auto* remove = new QAction(tr("Remove Bookmark"), table);
    remove->setShortcut(QKeySequence::Delete);
    remove->setShortcutContext(Qt::WidgetShortcut);
    connect(remove, &QAction::triggered, this, [this, table] {
        if (table->currentIndex().isValid())
            m_bookmarks->removeRow(table->currentIndex().row());
    });
    table->addAction(remove);
    table->setContextMenuPolicy(Qt::ActionsContextMenu);
    auto* hint = new QLabel(tr("Press B on the timeline to bookmark the time under the cursor. Double-click the "
                               "note to edit it; Enter jumps to the bookmark; Delete removes it."),
                            this);
    hint->setWordWrap(true);
    auto* box = new QWidget(this);
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(hint);
    layout->addWidget(table, 1);
    return box;
}

bool SessionPage::showTab(const QString& key, bool computeNow) {
    QWidget* tab = m_tabKeys.value(key);
    if (!tab)
        return false;
    m_bottomTabs->setCurrentWidget(tab);
    if (computeNow) {
        for (const auto& [view, compute] : m_computeNow)
            if (view == tab)
                compute();
    }
    return true;
}

QStringList SessionPage::tabKeys() const { return m_tabKeys.keys(); }

void SessionPage::addBookmark(int64_t ts, const QString& note) { m_bookmarks->add(ts, note); }

void SessionPage::setStoredPath(const QString& path) {
    m_storedPath = path;
    if (path.isEmpty())
        return;
    m_stackSource->sourcePane()->setSessionFile(path);
    const std::string file = QFile::encodeName(path).toStdString();
    if (m_bookmarks->bookmarks().empty())
        m_bookmarks->setBookmarks(Bookmarks::read(file));
    else
        saveBookmarks(); // made before the session was stored
}

void SessionPage::saveBookmarks() {
    if (m_storedPath.isEmpty())
        return;
    std::string error;
    if (!Bookmarks::write(QFile::encodeName(m_storedPath).toStdString(), m_bookmarks->bookmarks(), &error))
        qWarning("warpscope: cannot save bookmarks to %s: %s", qPrintable(m_storedPath), error.c_str());
}

} // namespace ws
