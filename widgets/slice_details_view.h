#pragma once

#include "time_viewport.h"

#include <QTextBrowser>

#include <memory>

namespace ws {

class Session;

/*
 * The details pane of the selected slice: name, kind, track, start (from the session start),
 * duration, the event's arguments (re-read from the source on demand: args are not kept in memory)
 * and the events linked to it by flows (CPU launch <-> GPU work), each a link that selects it.
 */
class SliceDetailsView : public QTextBrowser {
    Q_OBJECT
public:
    SliceDetailsView(TimeViewport* timeViewport, QWidget* parent = nullptr);
    void setSession(std::shared_ptr<const Session> session);

signals:
    // A flow link was clicked: the view holding the timeline should reveal it.
    void revealRequested(const ws::SliceRef& slice);

private:
    void refresh();

    TimeViewport* m_time;
    std::shared_ptr<const Session> m_session;
};

} // namespace ws
