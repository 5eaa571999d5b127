#include "stack_view.h"

#include "frame_folding_settings.h"
#include "model/session.h"
#include "time_viewport.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QShortcut>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace ws {

namespace {

QString kindLabel(StackFrameKind kind) {
    switch (kind) {
    case StackFrameKind::Kernel:
        return StackView::tr("GPU");
    case StackFrameKind::Launch:
        return StackView::tr("Launch");
    case StackFrameKind::Operator:
        return StackView::tr("Operator");
    case StackFrameKind::Python:
        return StackView::tr("Python");
    case StackFrameKind::Native:
        return StackView::tr("Native");
    case StackFrameKind::Other:
        break;
    }
    return StackView::tr("Other");
}

} // namespace

StackView::StackView(QWidget* parent)
    : QWidget(parent), m_header(new QLabel(this)), m_hideDispatch(new QCheckBox(tr("Hide dispatch frames"), this)),
      m_tree(new QTreeWidget(this)) {
    setObjectName(QStringLiteral("stackView"));
    m_tree->setObjectName(QStringLiteral("stackFrames"));
    m_tree->setColumnCount(4);
    m_tree->setHeaderLabels({tr("Kind"), tr("Function"), tr("File"), tr("Line")});
    m_tree->setRootIsDecorated(false);
    m_tree->setUniformRowHeights(true);
    m_tree->setAlternatingRowColors(true);
    m_tree->header()->setStretchLastSection(false);
    m_tree->header()->setSectionResizeMode(1, QHeaderView::Stretch);
    m_tree->header()->setSectionResizeMode(2, QHeaderView::Interactive);
    m_tree->setTextElideMode(Qt::ElideLeft);
    m_header->setObjectName(QStringLiteral("stackHeader"));
    m_header->setText(tr("Select a slice to see its stack."));
    m_header->setWordWrap(true);

    m_hideDispatch->setObjectName(QStringLiteral("stackHideDispatch"));
    m_hideDispatch->setChecked(FrameFoldingSettings::load().enabled);
    m_hideDispatch->setToolTip(tr("Hide nn.Module's _call_impl and _wrapped_call_impl, decorators' wrappers and "
                                  "__call__ frames (Settings lists the patterns)"));
    connect(m_hideDispatch, &QCheckBox::toggled, this, [this](bool on) {
        FrameFoldingSettings::saveEnabled(on);
        const int current = currentFrame();
        m_tree->clear();
        showStack(m_emptyText);
        setCurrentFrame(current);
    });

    auto* top = new QHBoxLayout;
    top->addWidget(m_header, 1);
    top->addWidget(m_hideDispatch, 0, Qt::AlignTop);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addWidget(m_tree);

    const auto addShortcut = [this](QKeySequence key, bool editor) {
        auto* sc = new QShortcut(key, m_tree);
        sc->setContext(Qt::WidgetShortcut);
        connect(sc, &QShortcut::activated, this, [this, editor] { request(editor); });
    };
    addShortcut(QKeySequence(Qt::Key_Return), false);
    addShortcut(QKeySequence(Qt::Key_Enter), false);
    addShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return), true);
    addShortcut(QKeySequence(Qt::CTRL | Qt::Key_Enter), true);
    connect(m_tree, &QTreeWidget::itemActivated, this, [this] { request(false); });
}

void StackView::setSession(std::shared_ptr<const Session> session) {
    m_session = std::move(session);
    setSlice(std::nullopt);
}

void StackView::setSlice(std::optional<SliceRef> slice) {
    m_tree->clear();
    m_stack = {};
    m_rowFrames.clear();
    if (!m_session || !slice) {
        m_header->setText(tr("Select a slice to see its stack."));
        return;
    }
    m_stack = callStackFor(*m_session, slice->track, slice->slice);
    showStack(tr("No stack for this slice."));
}

void StackView::setStack(CallStack stack, const QString& what) {
    m_tree->clear();
    m_stack = std::move(stack);
    showStack(tr("No stack recorded for %1.").arg(what));
}

void StackView::showStack(const QString& emptyText) {
    m_emptyText = emptyText;
    m_rowFrames.clear();
    // Dispatch frames hidden (never the outermost Python frame: frames are innermost first).
    const FrameFolding folding = FrameFoldingSettings::foldingWhen(m_hideDispatch->isChecked());
    int outermostPython = -1;
    for (int i = 0; i < static_cast<int>(m_stack.frames.size()); ++i)
        if (m_stack.frames[static_cast<size_t>(i)].kind == StackFrameKind::Python) outermostPython = i;
    QList<QTreeWidgetItem*> items;
    for (int i = 0; i < static_cast<int>(m_stack.frames.size()); ++i) {
        const StackFrame& f = m_stack.frames[static_cast<size_t>(i)];
        if (f.kind == StackFrameKind::Python && i != outermostPython && folding.folds(f.function))
            continue;
        m_rowFrames.push_back(i);
        auto* item = new QTreeWidgetItem;
        item->setText(0, kindLabel(f.kind));
        item->setText(1, QString::fromStdString(f.function));
        item->setToolTip(1, QString::fromStdString(f.function));
        item->setText(2, QString::fromStdString(f.file));
        item->setToolTip(2, QString::fromStdString(f.file));
        if (f.line > 0) item->setText(3, QString::number(f.line));
        item->setTextAlignment(3, Qt::AlignRight | Qt::AlignVCenter);
        if (f.file.empty()) item->setForeground(2, palette().color(QPalette::Disabled, QPalette::Text));
        items << item;
    }
    m_tree->addTopLevelItems(items);
    m_tree->resizeColumnToContents(0);
    m_tree->resizeColumnToContents(3);
    const int frames = static_cast<int>(m_stack.frames.size());
    if (m_stack.frames.empty())
        m_header->setText(emptyText);
    else if (m_stack.firstSourceFrame < 0 && m_session && m_session->memorySnapshot())
        m_header->setText(tr("%n frame(s); none has a source location (record the snapshot with "
                             "_record_memory_history(stacks=\"python\") or \"all\").",
                             nullptr, frames));
    else if (m_stack.firstSourceFrame < 0)
        // What records source locations depends on what recorded the session: torch.profiler's
        // with_stack, or a capture's Python stacks.
        m_header->setText(m_session->sourceFormat() == TraceFormat::WarpscopeCapture
                              ? tr("%n frame(s); none has a source location (record the capture with "
                                   "warpscope-capture --py-stacks, or New Capture's \"Python call stacks\").",
                                   nullptr, frames)
                              : tr("%n frame(s); none has a source location (record with with_stack=True).",
                                   nullptr, frames));
    else if (hiddenFrameCount() > 0)
        m_header->setText(tr("%n frame(s), innermost first, %1 dispatch frame(s) hidden. Enter shows the source, "
                             "Ctrl+Enter opens the editor.",
                             nullptr, frames)
                              .arg(hiddenFrameCount()));
    else
        m_header->setText(
            tr("%n frame(s), innermost first. Enter shows the source, Ctrl+Enter opens the editor.", nullptr, frames));
    setCurrentFrame(m_stack.firstSourceFrame >= 0 ? m_stack.firstSourceFrame : 0);
}

int StackView::currentFrame() const {
    QTreeWidgetItem* item = m_tree->currentItem();
    const int row = item ? m_tree->indexOfTopLevelItem(item) : -1;
    return row >= 0 && row < static_cast<int>(m_rowFrames.size()) ? m_rowFrames[static_cast<size_t>(row)] : -1;
}

void StackView::setCurrentFrame(int index) {
    if (m_rowFrames.empty() || index < 0) return;
    // The row of the frame, else of the next shown frame outwards (its caller), else the last row.
    const auto it = std::lower_bound(m_rowFrames.begin(), m_rowFrames.end(), index);
    const int row = it == m_rowFrames.end() ? static_cast<int>(m_rowFrames.size()) - 1
                                            : static_cast<int>(it - m_rowFrames.begin());
    m_tree->setCurrentItem(m_tree->topLevelItem(row));
}

void StackView::setHidingDispatchFrames(bool hide) {
    m_hideDispatch->setChecked(hide);
}

bool StackView::isHidingDispatchFrames() const {
    return m_hideDispatch->isChecked();
}

int StackView::hiddenFrameCount() const {
    return static_cast<int>(m_stack.frames.size() - m_rowFrames.size());
}

void StackView::request(bool editor) {
    const int i = currentFrame();
    if (i < 0 || static_cast<size_t>(i) >= m_stack.frames.size()) return;
    const StackFrame& f = m_stack.frames[static_cast<size_t>(i)];
    if (f.file.empty()) return;
    if (editor)
        emit editRequested(f);
    else
        emit showRequested(f);
}

} // namespace ws
