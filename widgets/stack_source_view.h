#pragma once

#include "analysis/call_stack.h"

#include <QWidget>

#include <memory>
#include <thread>

namespace ws {

class Session;
class SourcePane;
class StackView;
class TimeViewport;

/*
 * StackSourceView: the "Stack" tab: the selection's stack (StackView) next to the source pane
 * (SourcePane). Follows the shared TimeViewport selection; the innermost frame with a location is
 * shown in the pane at once, Enter shows another frame, Ctrl+Enter opens the editor.
 * The per-line totals of the pane's gutter (LineTotals, a pass over every launch's arguments:
 * seconds on a GB trace) are computed on a worker thread the first time a location is shown.
 */
class StackSourceView : public QWidget {
    Q_OBJECT
public:
    explicit StackSourceView(TimeViewport* time, QWidget* parent = nullptr);
    ~StackSourceView() override;

    void setSession(std::shared_ptr<const Session> session);
    StackView* stackView() const { return m_stack; }
    SourcePane* sourcePane() const { return m_source; }
    // Shows `file` at `line` in the source pane (editor: also opens it in the editor). The Stack
    // tab's own frames and other tabs (the flame graph) go through here.
    void showSource(const QString& file, int line, bool editor);
    // Shows a stack that is not a slice's (a memory snapshot's allocation, `what` names it) with the
    // source of its first source frame.
    void showStack(CallStack stack, const QString& what);

private:
    TimeViewport* m_time;
    StackView* m_stack;
    SourcePane* m_source;
    std::shared_ptr<const Session> m_session;
    bool m_totalsStarted = false;

    void selectionChanged();
    void startLineTotals();
};

} // namespace ws
