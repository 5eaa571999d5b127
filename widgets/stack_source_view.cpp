#include "stack_source_view.h"

#include "analysis/line_totals.h"
#include "detached_work.h"

#include "model/session.h"
#include "source_pane.h"
#include "stack_view.h"
#include "time_viewport.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QSplitter>

namespace ws {

StackSourceView::StackSourceView(TimeViewport* time, QWidget* parent)
    : QWidget(parent), m_time(time), m_stack(new StackView(this)), m_source(new SourcePane(this)) {
    setObjectName(QStringLiteral("stackSourceView"));
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_stack);
    split->addWidget(m_source);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);

    connect(m_time, &TimeViewport::selectedSliceChanged, this, &StackSourceView::selectionChanged);
    connect(m_stack, &StackView::showRequested, this,
            [this](const StackFrame& f) { showSource(QString::fromStdString(f.file), f.line, false); });
    connect(m_stack, &StackView::editRequested, this,
            [this](const StackFrame& f) { showSource(QString::fromStdString(f.file), f.line, true); });
}

void StackSourceView::showSource(const QString& file, int line, bool editor) {
    m_source->showLocation(file, line);
    startLineTotals();
    if (editor)
        m_source->openInEditor();
}

void StackSourceView::showStack(CallStack stack, const QString& what) {
    m_stack->setStack(std::move(stack), what);
    const CallStack& st = m_stack->stack();
    if (st.firstSourceFrame >= 0) {
        const StackFrame& f = st.frames[static_cast<size_t>(st.firstSourceFrame)];
        m_source->showLocation(QString::fromStdString(f.file), f.line);
        startLineTotals();
    }
}

void StackSourceView::setSession(std::shared_ptr<const Session> session) {
    m_session = std::move(session);
    m_stack->setSession(m_session);
    std::optional<int64_t> recorded;
    if (m_session) {
        if (m_session->baseTimeNs())
            recorded = m_session->endNs(); // epoch ns: the trace's own clock
        else if (const QFileInfo fi(QString::fromStdString(m_session->sourcePath())); fi.exists())
            recorded = fi.lastModified().toMSecsSinceEpoch() * 1'000'000;
    }
    m_source->setTraceTime(recorded);
    selectionChanged();
}

void StackSourceView::selectionChanged() {
    m_stack->setSlice(m_time->selectedSlice());
    const CallStack& st = m_stack->stack();
    if (st.firstSourceFrame >= 0) {
        const StackFrame& f = st.frames[static_cast<size_t>(st.firstSourceFrame)];
        m_source->showLocation(QString::fromStdString(f.file), f.line);
        startLineTotals();
    }
}

void StackSourceView::startLineTotals() {
    if (m_totalsStarted || !m_session)
        return;
    m_totalsStarted = true;
    startDetached(this, [session = m_session] { return std::make_shared<const LineTotals>(LineTotals::compute(*session)); },
                  [](StackSourceView& view, std::shared_ptr<const LineTotals> totals) {
                      view.m_source->setLineTotals(std::move(totals));
                  });
}

// The line totals are never waited for (startDetached): closing the tab returns at once.
StackSourceView::~StackSourceView() = default;

} // namespace ws
