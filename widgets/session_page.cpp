#include "session_page.h"

#include "range_summary_view.h"
#include "search_bar.h"
#include "session_loader.h"
#include "session_summary_view.h"
#include "slice_details_view.h"
#include "time_viewport.h"
#include "timeline_view.h"

#include <QScrollArea>
#include <QSplitter>
#include <QTabWidget>
#include <QVBoxLayout>

namespace ws {

SessionPage::SessionPage(std::shared_ptr<const LoadedSession> session, QWidget* parent)
    : QWidget(parent), m_session(std::move(session)), m_time(new TimeViewport(this)),
      m_search(new SearchBar(m_time, this)), m_timeline(new TimelineView(m_time, this)),
      m_bottomTabs(new QTabWidget(this)), m_details(new SliceDetailsView(m_time, this)),
      m_summary(new SessionSummaryView(this)), m_range(new RangeSummaryView(m_time, this)) {
    setObjectName(QStringLiteral("sessionPage"));
    m_timeline->setSession(m_session->session);
    m_details->setSession(m_session->session);
    m_summary->setSession(m_session);
    m_search->setSession(m_session->session);
    m_range->setSession(m_session->session);
    connect(m_details, &SliceDetailsView::revealRequested, m_timeline, &TimelineView::revealSlice);
    connect(m_search, &SearchBar::revealRequested, m_timeline, &TimelineView::revealSlice);
    connect(m_time, &TimeViewport::selectedRangeChanged, this, [this] {
        if (m_time->selectedRange())
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
    m_bottomTabs->addTab(m_details, tr("Details"));
    m_bottomTabs->addTab(m_range, tr("Range"));

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
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);
}

} // namespace ws
