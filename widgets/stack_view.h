#pragma once

#include "analysis/call_stack.h"

#include <QWidget>
#include <memory>
#include <optional>
#include <vector>

class QCheckBox;
class QLabel;
class QTreeWidget;

namespace ws {

class Session;
struct SliceRef;

/*
 * StackView: the frames behind the selected slice (core's callStackFor: the GPU activity and its
 * launch, the operator chain, Python frames, `Call stack` entries), innermost first, one row per
 * frame with kind, function, file and line. Enter or a double click asks to show the frame in the
 * source pane, Ctrl+Enter to open it in the editor; frames without a file do nothing. Python
 * dispatch and decorator frames (FrameFoldingSettings) are hidden unless "Hide dispatch frames" is
 * off; the outermost Python frame always shows, as in the flame graph.
 */
class StackView : public QWidget {
    Q_OBJECT
public:
    explicit StackView(QWidget* parent = nullptr);

    void setSession(std::shared_ptr<const Session> session);
    void setSlice(std::optional<SliceRef> slice);
    // Shows a stack that no slice carries (a memory snapshot allocation's frames).
    void setStack(CallStack stack, const QString& what);
    const CallStack& stack() const { return m_stack; }
    QTreeWidget* tree() const { return m_tree; }
    // Index into stack().frames of the current row, or -1.
    int currentFrame() const;
    // Selects the row of frame `index`, or the nearest shown frame when it is hidden.
    void setCurrentFrame(int index);
    void setHidingDispatchFrames(bool hide);
    bool isHidingDispatchFrames() const;
    // How many frames of stack() are hidden now.
    int hiddenFrameCount() const;

signals:
    void showRequested(const ws::StackFrame& frame);
    void editRequested(const ws::StackFrame& frame);

private:
    std::shared_ptr<const Session> m_session;
    CallStack m_stack;
    QLabel* m_header;
    QCheckBox* m_hideDispatch;
    QTreeWidget* m_tree;
    std::vector<int> m_rowFrames; // per row: its index into m_stack.frames
    QString m_emptyText;

    void request(bool editor);
    void showStack(const QString& emptyText);
};

} // namespace ws
