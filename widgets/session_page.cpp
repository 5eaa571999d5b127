#include "session_page.h"

#include "analysis/inference_counters.h"
#include "analysis/session_analyses.h"
#include "bookmark_model.h"
#include "detached_work.h"
#include "flame_graph_view.h"
#include "graphs_view.h"
#include "roofline_view.h"
#include "kernel_table_view.h"
#include "memory_view.h"
#include "model/session.h"
#include "operator_table_view.h"
#include "overview_view.h"
#include "query_view.h"
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
#include <QSettings>
#include <QShortcut>
#include <QSignalBlocker>
#include <QTableView>
#include <QSplitter>
#include <QTabWidget>
#include <QToolButton>
#include <QVBoxLayout>

namespace ws {

SessionPage::SessionPage(std::shared_ptr<const LoadedSession> session, QWidget* parent)
    : QWidget(parent), m_session(std::move(session)),
      m_analyses(m_session->analyses && m_session->analyses->session() == m_session->session
                     ? m_session->analyses
                     : std::make_shared<SessionAnalyses>(m_session->session)),
      m_time(new TimeViewport(this)),
      m_search(new SearchBar(m_time, this)), m_timeline(new TimelineView(m_time, this)),
      m_bottomTabs(new QTabWidget(this)), m_details(new SliceDetailsView(m_time, this)),
      m_summary(new SessionSummaryView(this)), m_range(new RangeSummaryView(m_time, this)),
      m_bookmarks(new BookmarkModel(m_session->session->startNs(), this)) {
    setObjectName(QStringLiteral("sessionPage"));
    m_timeline->setSession(m_session->session);
    // An inference run's phases and time per token as rows under its GPU, once its forwards are
    // found (the Overview's and the Roofline's analyses share them); a live capture's updates do not.
    startDetached(
        this,
        [analyses = m_analyses] {
            const auto steps = analyses->inferenceSteps();
            return std::make_pair(analyses->session(), inferenceCounters(*analyses->session(), *steps));
        },
        [](SessionPage& page, auto result) {
            if (page.m_session && page.m_session->session == result.first)
                page.m_timeline->addDerivedCounters(std::move(result.second));
        });
    m_details->setSession(m_session->session);
    m_summary->setSession(m_session);
    m_search->setSession(m_session->session);
    m_range->setSession(m_session->session);
    connect(m_details, &SliceDetailsView::revealRequested, m_timeline, &TimelineView::revealSlice);
    connect(m_details, &SliceDetailsView::sourceRequested, this, [this](const QString& file, int line, bool editor) {
        m_stackSource->showSource(file, line, editor);
        if (!editor)
            m_bottomTabs->setCurrentWidget(m_stackSource);
    });
    connect(m_search, &SearchBar::revealRequested, m_timeline, &TimelineView::revealSlice);
    connect(m_time, &TimeViewport::selectedRangeChanged, this, [this] {
        // Views that follow the range themselves stay in front (a drag on the memory chart must
        // not hide the memory chart).
        if (m_time->selectedRange() && !m_rangeFollowers.contains(m_bottomTabs->currentWidget()))
            m_bottomTabs->setCurrentWidget(m_range);
    });
    connect(m_time, &TimeViewport::selectedSliceChanged, this, [this] {
        if (m_time->selectedSlice() && !m_keepBottomTab)
            m_bottomTabs->setCurrentWidget(m_details);
    });

    m_bottomTabs->setDocumentMode(true);
    // The summary scrolls inside its tab so the timeline keeps most of the height.
    auto* summaryScroll = new QScrollArea(this);
    summaryScroll->setWidget(m_summary);
    summaryScroll->setWidgetResizable(true);
    summaryScroll->setFrameShape(QFrame::NoFrame);
    m_bottomTabs->addTab(summaryScroll, tr("Summary"));
    m_bottomTabs->addTab(createAnalysisTab(QStringLiteral("overview")), tr("Overview"));
    m_bottomTabs->addTab(m_details, tr("Details"));
    m_bottomTabs->addTab(m_range, tr("Range"));
    auto* stackTab = new StackSourceView(m_time, this);
    m_stackSource = stackTab;
    stackTab->setSession(m_session->session);
    m_bottomTabs->addTab(stackTab, tr("Stack"));
    m_bottomTabs->addTab(createAnalysisTab(QStringLiteral("flame")), tr("Flame Graph"));
    m_bottomTabs->addTab(createBookmarksTab(), tr("Bookmarks"));
    m_bottomTabs->addTab(createAnalysisTab(QStringLiteral("kernels")), tr("Kernels"));
    m_bottomTabs->addTab(createAnalysisTab(QStringLiteral("graphs")), tr("Graphs"));
    m_bottomTabs->addTab(createAnalysisTab(QStringLiteral("roofline")), tr("Roofline"));
    m_bottomTabs->addTab(createAnalysisTab(QStringLiteral("operators")), tr("Operators"));
    m_bottomTabs->addTab(createAnalysisTab(QStringLiteral("memory")), tr("Memory"));
    m_query = new QueryView(m_time, this);
    m_query->setAnalyses(m_analyses);
    m_bottomTabs->addTab(m_query, tr("Query"));
    connect(m_query, &QueryView::revealRequested, this, [this](const SliceRef& slice) {
        // The row's slice is selected and shown, and the results stay in front.
        m_keepBottomTab = true;
        m_time->setSelectedSlice(slice);
        m_keepBottomTab = false;
        m_timeline->revealSlice(slice);
    });
    connect(m_query, &QueryView::addTrackRequested, m_timeline, &TimelineView::addQueryTrack);
    m_computeNow.emplace_back(m_query, [this] { m_query->runNow(); });
    // Untranslated keys for --tab and tests.
    m_tabKeys.insert(QStringLiteral("summary"), summaryScroll);
    m_tabKeys.insert(QStringLiteral("details"), m_details);
    m_tabKeys.insert(QStringLiteral("range"), m_range);
    m_tabKeys.insert(QStringLiteral("stack"), stackTab);
    m_tabKeys.insert(QStringLiteral("query"), m_query);
    // A live session's newer model reaches an analysis tab when the tab is shown (setSession).
    connect(m_bottomTabs, &QTabWidget::currentChanged, this, &SessionPage::refreshStaleTab);

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
    m_top = top;
    auto* topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->setSpacing(0);
    topLayout->addWidget(m_search);
    topLayout->addWidget(m_timeline, 1);
    auto* split = new QSplitter(Qt::Vertical, this);
    m_split = split;
    split->setObjectName(QStringLiteral("sessionSplit"));
    split->addWidget(top);
    split->addWidget(m_bottomTabs);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    split->setSizes({640, 300});
    split->setChildrenCollapsible(false);
    // The split the user last chose, on every page (the analysis pane is never cramped twice).
    const bool restored = split->restoreState(QSettings().value(QLatin1String(kSplitKey)).toByteArray());
    connect(split, &QSplitter::splitterMoved, this, [split] { QSettings().setValue(QLatin1String(kSplitKey), split->saveState()); });
    // The analysis tabs (charts plus tables) need more height than the details pane: the first
    // time one is shown, the bottom pane grows to about half the page if it is smaller, unless the
    // user has chosen a split.
    m_grewForAnalysis = restored;
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

    // Maximizing the bottom tabs: the corner button, a double click on a tab, Ctrl+Shift+M.
    m_maximize = new QToolButton(m_bottomTabs);
    m_maximize->setObjectName(QStringLiteral("maximizeBottomTabs"));
    m_maximize->setCheckable(true);
    m_maximize->setAutoRaise(true);
    m_maximize->setText(tr("Maximize"));
    m_maximize->setToolTip(tr("Give the tabs the whole page, hiding the timeline (Ctrl+Shift+M, or double-click a tab)"));
    m_bottomTabs->setCornerWidget(m_maximize, Qt::TopRightCorner);
    connect(m_maximize, &QToolButton::toggled, this, &SessionPage::setBottomMaximized);
    connect(m_bottomTabs, &QTabWidget::tabBarDoubleClicked, this, [this](int index) {
        if (index >= 0)
            setBottomMaximized(!isBottomMaximized());
    });
    auto* maximizeShortcut = new QShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_M), this);
    maximizeShortcut->setContext(Qt::WidgetWithChildrenShortcut);
    connect(maximizeShortcut, &QShortcut::activated, this, [this] { setBottomMaximized(!isBottomMaximized()); });

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);
}

void SessionPage::setBottomMaximized(bool maximized) {
    if (maximized == m_maximized)
        return;
    m_maximized = maximized;
    m_top->setVisible(!maximized);
    const QSignalBlocker block(m_maximize);
    m_maximize->setChecked(maximized);
    m_maximize->setText(maximized ? tr("Restore") : tr("Maximize"));
}

bool SessionPage::isBottomMaximized() const { return m_maximized; }

void SessionPage::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    if (m_growForAnalysis)
        m_growForAnalysis();
}

QWidget* SessionPage::createAnalysisTab(const QString& key) {
    QWidget* tab = nullptr;
    std::function<void()> compute;
    if (key == QLatin1String("overview")) {
        auto* view = new OverviewView(m_time, m_analyses, this);
        connect(view, &OverviewView::revealRequested, m_timeline, &TimelineView::revealSlice);
        tab = view;
        compute = [view] { view->computeNow(); };
    } else if (key == QLatin1String("kernels")) {
        auto* view = new KernelTableView(m_time, m_session->session, this);
        connect(view, &KernelTableView::revealRequested, m_timeline, &TimelineView::revealSlice);
        tab = view;
        compute = [view] { view->ensureBuilt(); };
    } else if (key == QLatin1String("operators")) {
        auto* view = new OperatorTableView(m_time, m_analyses, this);
        connect(view, &OperatorTableView::revealRequested, m_timeline, &TimelineView::revealSlice);
        tab = view;
        compute = [view] { view->buildNow(); };
    } else if (key == QLatin1String("memory")) {
        auto* view = new MemoryView(m_time, m_session->session, this);
        // A memory snapshot's allocation stacks are not slices' stacks: the Memory tab hands them over.
        connect(view, &MemoryView::stackRequested, this,
                [this](const CallStack& stack, const QString& what) { m_stackSource->showStack(stack, what); });
        connect(view, &MemoryView::revealRequested, m_timeline, &TimelineView::revealSlice);
        tab = view;
        compute = [view] { view->computeNow(); };
    } else if (key == QLatin1String("flame")) {
        auto* view = new FlameGraphView(m_time, m_session->session, this);
        // A frame's source goes to the Stack tab's source pane, as the Stack tab's own frames do.
        connect(view, &FlameGraphView::sourceRequested, this, [this](const QString& file, int line, bool editor) {
            m_stackSource->showSource(file, line, editor);
            if (!editor)
                m_bottomTabs->setCurrentWidget(m_stackSource);
        });
        tab = view;
        compute = [view] { view->computeNow(); };
    } else if (key == QLatin1String("graphs")) {
        auto* view = new GraphsView(m_time, m_session->session, this);
        connect(view, &GraphsView::revealRequested, m_timeline, &TimelineView::revealSlice);
        connect(view, &GraphsView::sourceRequested, this, [this](const QString& file, int line, bool editor) {
            m_stackSource->showSource(file, line, editor);
            if (!editor)
                m_bottomTabs->setCurrentWidget(m_stackSource);
        });
        tab = view;
        compute = [view] { view->computeNow(); };
    } else if (key == QLatin1String("roofline")) {
        auto* view = new RooflineView(m_time, m_analyses, this);
        connect(view, &RooflineView::revealRequested, m_timeline, &TimelineView::revealSlice);
        tab = view;
        compute = [view] { view->computeNow(); };
    } else {
        return nullptr;
    }
    if (QWidget* old = m_tabKeys.value(key)) {
        m_rangeFollowers.removeAll(old);
        std::erase_if(m_computeNow, [old](const auto& entry) { return entry.first == old; });
    }
    m_tabKeys.insert(key, tab);
    m_rangeFollowers.append(tab);
    m_computeNow.emplace_back(tab, std::move(compute));
    return tab;
}

void SessionPage::setSession(std::shared_ptr<const LoadedSession> session) {
    m_session = std::move(session);
    const std::shared_ptr<const Session>& s = m_session->session;
    m_analyses = std::make_shared<SessionAnalyses>(s);
    // A selected slice is an index into the old model's tracks: it may name another slice now.
    m_time->setSelectedSlice(std::nullopt);
    m_timeline->setSession(s);
    m_details->setSession(s);
    m_search->setSession(s);
    m_range->setSession(s);
    m_stackSource->setSession(s);
    m_query->setAnalyses(m_analyses);
    m_summary->setSession(m_session);
    m_staleTabs = {QStringLiteral("overview"), QStringLiteral("kernels"), QStringLiteral("operators"),
                   QStringLiteral("memory"), QStringLiteral("flame"), QStringLiteral("graphs"),
                   QStringLiteral("roofline")};
    refreshStaleTab();
}

void SessionPage::refreshStaleTab() {
    if (m_replacingTab)
        return;
    const QString key = m_tabKeys.key(m_bottomTabs->currentWidget());
    if (!m_staleTabs.remove(key))
        return;
    QWidget* old = m_tabKeys.value(key);
    const int index = m_bottomTabs->indexOf(old);
    const QString title = m_bottomTabs->tabText(index);
    m_replacingTab = true;
    QWidget* fresh = createAnalysisTab(key);
    m_bottomTabs->insertTab(index, fresh, title);
    m_bottomTabs->removeTab(index + 1);
    m_bottomTabs->setCurrentIndex(index);
    m_replacingTab = false;
    old->deleteLater();
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
