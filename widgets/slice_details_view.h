#pragma once

#include "model/source_frame.h"
#include "time_viewport.h"

#include <QTextBrowser>

#include <memory>
#include <vector>

namespace ws {

class Session;

/*
 * The details pane of the selected slice: name, kind, track, start (from the session start),
 * duration, the event's arguments (re-read from the source on demand: args are not kept in memory)
 * and the events linked to it by flows (CPU launch <-> GPU work), each a link that selects it. A
 * `Call stack` argument (with_stack, a capture's Python stacks) is a list of frames, innermost first:
 * a frame's function shows its source, "open" opens it in the editor (issue #51); dispatch and
 * decorator frames (FrameFoldingSettings) are greyed.
 */
class SliceDetailsView : public QTextBrowser {
    Q_OBJECT
public:
    SliceDetailsView(TimeViewport* timeViewport, QWidget* parent = nullptr);
    void setSession(std::shared_ptr<const Session> session);
    // The frames of the shown `Call stack` argument, innermost first (empty when none).
    const std::vector<StackFrameText>& stackFrames() const { return m_frames; }
    // As a click on frame `index`'s link would (tests).
    void activateFrame(int index, bool editor);

signals:
    // A flow link was clicked: the view holding the timeline should reveal it.
    void revealRequested(const ws::SliceRef& slice);
    // A stack frame was clicked: show its source (editor: open it in the editor).
    void sourceRequested(const QString& file, int line, bool editor);

private:
    void refresh();
    QString stackHtml(const QString& text);

    TimeViewport* m_time;
    std::shared_ptr<const Session> m_session;
    std::vector<StackFrameText> m_frames;
};

} // namespace ws
