#pragma once

#include <QList>
#include <QMap>
#include <QSet>
#include <QStringList>
#include <QWidget>

#include <functional>
#include <memory>
#include <vector>

class QSplitter;
class QTabWidget;
class QToolButton;

namespace ws {

struct LoadedSession;
class BookmarkModel;
class RangeSummaryView;
class SearchBar;
class SessionAnalyses;
class SessionSummaryView;
class SliceDetailsView;
class StackSourceView;
class QueryView;
class TimelineView;
class TimeViewport;

/*
 * Everything shown for one open session: the search bar and the timeline on top, and the bottom
 * tabs (session summary, details of the selection, summary of the selected range, bookmarks). One TimeViewport is shared by all of them, so a selection or
 * zoom in one view is seen by every other.
 */
class SessionPage : public QWidget {
    Q_OBJECT
public:
    explicit SessionPage(std::shared_ptr<const LoadedSession> session, QWidget* parent = nullptr);

    std::shared_ptr<const LoadedSession> session() const { return m_session; }
    // The session's analyses, shared by its Overview and Operators tabs and any Compare tab of it.
    std::shared_ptr<SessionAnalyses> analyses() const { return m_analyses; }
    // The same session once its summary is computed (the page may be shown before that).
    void setSummarized(std::shared_ptr<const LoadedSession> session);
    // A newer model of the same trace (a capture that is still recording, LiveCapture): the timeline,
    // search, details, range, stack and summary views take it now; an analysis tab (overview,
    // kernels, operators, memory, flame) is built again over it when it is shown, so the updates
    // cost no analysis nobody looks at. The viewport stays; the selected slice is cleared.
    void setSession(std::shared_ptr<const LoadedSession> session);
    TimeViewport* timeViewport() const { return m_time; }
    TimelineView* timeline() const { return m_timeline; }
    SessionSummaryView* summary() const { return m_summary; }
    SliceDetailsView* details() const { return m_details; }
    SearchBar* searchBar() const { return m_search; }
    RangeSummaryView* rangeSummary() const { return m_range; }
    BookmarkModel* bookmarks() const { return m_bookmarks; }

    // The session file that keeps this session's bookmarks (known once the library stored it);
    // bookmarks added before that are written then.
    void setStoredPath(const QString& path);
    QString storedPath() const { return m_storedPath; }
    void addBookmark(int64_t ts, const QString& note);
    // Brings a bottom tab to the front by its untranslated key ("overview", "kernels", "operators",
    // "memory", "stack", "flame", "summary", "details", "range", "query"); with computeNow the tab's analysis is
    // computed before returning (screenshots). False for an unknown key.
    bool showTab(const QString& key, bool computeNow = false);
    QStringList tabKeys() const;
    // The bottom tabs fill the page (the timeline hidden) for a deep flame graph or a long table:
    // the corner button, a double click on a tab, or Ctrl+Shift+M toggles it (issue #51).
    void setBottomMaximized(bool maximized);
    bool isBottomMaximized() const;
    QSplitter* splitter() const { return m_split; }
    // Where the split between the timeline and the bottom tabs is remembered (QSettings): moved by the
    // user, it is restored on every page opened afterwards.
    static constexpr const char* kSplitKey = "sessionPage/split";

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    std::shared_ptr<const LoadedSession> m_session;
    std::shared_ptr<SessionAnalyses> m_analyses;
    TimeViewport* m_time;
    SearchBar* m_search;
    TimelineView* m_timeline;
    QTabWidget* m_bottomTabs;
    QSplitter* m_split = nullptr;
    QWidget* m_top = nullptr;           // the search bar and the timeline
    QToolButton* m_maximize = nullptr;  // the bottom tabs' corner button
    bool m_maximized = false;
    SliceDetailsView* m_details;
    SessionSummaryView* m_summary;
    RangeSummaryView* m_range;
    BookmarkModel* m_bookmarks;
    StackSourceView* m_stackSource = nullptr;
    QueryView* m_query = nullptr;
    bool m_keepBottomTab = false; // a view selects a slice and stays in front (the Query tab's rows)
    QString m_storedPath;
    QList<QWidget*> m_rangeFollowers; // bottom tabs that show the selected range themselves
    QMap<QString, QWidget*> m_tabKeys;
    bool m_grewForAnalysis = false;
    std::function<void()> m_growForAnalysis;
    std::vector<std::pair<QWidget*, std::function<void()>>> m_computeNow;

    QSet<QString> m_staleTabs; // analysis tabs built over an older model (setSession)
    bool m_replacingTab = false;

    // Builds the analysis tab `key` over the page's session and registers it (keys, range
    // followers, computeNow), replacing an older one's registration.
    QWidget* createAnalysisTab(const QString& key);
    void refreshStaleTab();
    void saveBookmarks();
    QWidget* createBookmarksTab();
};

} // namespace ws
