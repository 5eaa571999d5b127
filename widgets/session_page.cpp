#include "session_page.h"

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
      m_timeline(new TimelineView(m_time, this)), m_bottomTabs(new QTabWidget(this)),
      m_details(new SliceDetailsView(m_time, this)), m_summary(new SessionSummaryView(this)) {
    setObjectName(QStringLiteral("sessionPage"));
    m_timeline->setSession(m_session->session);
    m_details->setSession(m_session->session);
    m_summary->setSession(m_session);
    connect(m_details, &SliceDetailsView::revealRequested, m_timeline, &TimelineView::revealSlice);
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

    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_timeline);
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
