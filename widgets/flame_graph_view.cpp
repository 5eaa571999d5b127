#include "flame_graph_view.h"

#include "detached_work.h"
#include "format.h"
#include "frame_folding_settings.h"
#include "model/session.h"
#include "time_viewport.h"

#include <QCheckBox>
#include <QComboBox>
#include <QContextMenuEvent>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QPushButton>
#include <QScrollArea>
#include <QStackedWidget>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace ws {

namespace {

// FNV-1a: the same colour for a function in every run, graph and weight.
uint32_t stableHash(const std::string& s) {
    uint32_t h = 2166136261u;
    for (const unsigned char c : s) {
        h ^= c;
        h *= 16777619u;
    }
    return h;
}

QString formatWeight(FlameWeight weight, int64_t value) {
    return weight == FlameWeight::Alloc ? formatBytes(value) : formatDuration(value);
}

// The graph, and of a lazy (bottom-up) one the callers that a canvas `width` pixels wide shows
// unzoomed, so that the first layout on the GUI thread finds them made.
std::shared_ptr<const FlameGraph> buildForWidth(const Session& session, const FlameOptions& options, int width) {
    auto graph = std::make_shared<const FlameGraph>(FlameGraph::build(session, options));
    graph->expandAtLeast(graph->root().total / width);
    return graph;
}

} // namespace

// ---------------------------------------------------------------------------------------------
// FlameGraphCanvas

FlameGraphCanvas::FlameGraphCanvas(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("flameGraphCanvas"));
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMinimumHeight(kRowHeight * 4);
}

void FlameGraphCanvas::setGraph(std::shared_ptr<const FlameGraph> graph) {
    m_graph = std::move(graph);
    m_zoom = 0;
    m_hover = m_pressed = FlameNode::kNone;
    updateMatches();
    relayout();
    emit zoomChanged();
}

void FlameGraphCanvas::setSearch(const QString& text) {
    if (text == m_search) return;
    m_search = text;
    updateMatches();
    update();
}

void FlameGraphCanvas::setZoomNode(uint32_t node) {
    if (!m_graph || node >= m_graph->nodes().size() || node == m_zoom) return;
    m_zoom = node;
    relayout();
    emit zoomChanged();
}

void FlameGraphCanvas::updateMatches() {
    m_frameMatch.clear();
    m_matchedTotal = 0;
    m_matchCount = 0;
    if (!m_graph || m_search.isEmpty()) return;
    // Matching is per distinct frame; the model sums what the matching stacks weigh (also for the
    // callers of a bottom-up graph not made yet).
    const auto& frames = m_graph->frames();
    m_frameMatch.resize(frames.size());
    for (size_t f = 0; f < frames.size(); ++f)
        m_frameMatch[f] = QString::fromStdString(frames[f].function).contains(m_search, Qt::CaseInsensitive);
    const FlameMatch match = m_graph->match(m_frameMatch);
    m_matchedTotal = match.total;
    m_matchCount = static_cast<int>(match.frames);
}

bool FlameGraphCanvas::isMatch(uint32_t node) const {
    if (!m_graph || node == 0 || node >= m_graph->nodes().size()) return false;
    const uint32_t frame = m_graph->nodes()[node].frame;
    return frame < m_frameMatch.size() && m_frameMatch[frame];
}

void FlameGraphCanvas::relayout() {
    m_boxes.clear();
    m_boxOf.clear();
    m_depth = 0;
    if (!m_graph || m_graph->nodes().empty()) {
        update();
        return;
    }
    const double width = std::max(1, this->width());
    // The zoomed node's ancestors, root first, at full width above it.
    std::vector<uint32_t> chain;
    for (uint32_t n = m_zoom; n != FlameNode::kNone; n = m_graph->nodes()[n].parent)
        chain.push_back(n);
    std::reverse(chain.begin(), chain.end());
    for (size_t i = 0; i < chain.size(); ++i)
        m_boxes.push_back({chain[i], static_cast<int>(i), 0.0, width, i + 1 < chain.size()});
    struct Item {
        uint32_t node;
        int depth;
        double x, w;
    };
    std::vector<Item> stack{{m_zoom, static_cast<int>(chain.size()) - 1, 0.0, width}};
    while (!stack.empty()) {
        const Item it = stack.back();
        stack.pop_back();
        m_depth = std::max(m_depth, it.depth);
        // A bottom-up graph makes a frame's callers when it is first laid out (core's lazy
        // expansion); that appends nodes, so they are read after it.
        m_graph->expand(it.node);
        const auto& nodes = m_graph->nodes();
        const FlameNode& n = nodes[it.node];
        if (n.total <= 0 || n.childCount == 0) continue;
        const double scale = it.w / static_cast<double>(n.total);
        double x = it.x;
        for (uint32_t c = n.firstChild; c < n.firstChild + n.childCount; ++c) {
            const double w = static_cast<double>(nodes[c].total) * scale;
            if (w < 1.0)
                break; // heaviest first: the rest are narrower still (LOD: below a pixel is not drawn)
            m_boxes.push_back({c, it.depth + 1, x, w, false});
            stack.push_back({c, it.depth + 1, x, w});
            x += w;
        }
    }
    m_boxOf.assign(m_graph->nodes().size(), -1);
    for (size_t b = 0; b < m_boxes.size(); ++b)
        m_boxOf[m_boxes[b].node] = static_cast<int32_t>(b);
    const int wanted = (m_depth + 1) * kRowHeight + 2;
    if (minimumHeight() != wanted) setMinimumHeight(wanted);
    update();
}

QColor FlameGraphCanvas::colorFor(uint32_t node) const {
    if (node == 0 || !m_graph) return QColor(0xd8, 0xd8, 0xd8);
    const FlameFrame& f = m_graph->frames()[m_graph->nodes()[node].frame];
    if (!f.function.empty() && f.function.front() == '(') // "(no stack)" and the like
        return QColor(0xc8, 0xc8, 0xc8);
    const uint32_t h = stableHash(f.function);
    const int hue = static_cast<int>(h % 45u) + 5; // red to yellow
    const int sat = 120 + static_cast<int>((h >> 8) % 100u);
    const int val = 225 + static_cast<int>((h >> 16) % 30u);
    if (!m_search.isEmpty()) {
        if (isMatch(node)) return QColor(0xb9, 0x6c, 0xf0); // flamegraph.pl's search highlight: purple
        return QColor::fromHsv(hue, 25, val);
    }
    return QColor::fromHsv(hue, sat, val);
}

QString FlameGraphCanvas::labelFor(uint32_t node) const {
    if (!m_graph || node >= m_graph->nodes().size()) return {};
    if (node == 0) return tr("all");
    return QString::fromStdString(m_graph->frames()[m_graph->nodes()[node].frame].function);
}

QString FlameGraphCanvas::toolTipFor(uint32_t node) const {
    if (!m_graph || node >= m_graph->nodes().size()) return {};
    const FlameNode& n = m_graph->nodes()[node];
    const double all = static_cast<double>(m_graph->root().total);
    const auto share = [all](int64_t v) {
        return formatPercent(all > 0 ? std::optional(v / all) : std::nullopt);
    };
    const FlameWeight w = m_graph->weight();
    QString text = QStringLiteral("<b>%1</b>").arg(labelFor(node).toHtmlEscaped());
    if (node != 0) {
        const FlameFrame& f = m_graph->frames()[n.frame];
        if (!f.file.empty())
            text +=
                QStringLiteral("<br>%1:%2").arg(QString::fromStdString(f.file).toHtmlEscaped()).arg(f.line);
    }
    text += QStringLiteral("<br>") + tr("Total: %1 (%2)").arg(formatWeight(w, n.total), share(n.total));
    text += QStringLiteral("<br>") + tr("Self: %1 (%2)").arg(formatWeight(w, n.self), share(n.self));
    return text;
}

uint32_t FlameGraphCanvas::nodeAt(QPoint pos) const {
    const int depth = pos.y() / kRowHeight;
    if (pos.y() < 0 || depth > m_depth) return FlameNode::kNone;
    for (const Box& b : m_boxes)
        if (b.depth == depth && pos.x() >= b.x && pos.x() < b.x + b.w) return b.node;
    return FlameNode::kNone;
}

QRectF FlameGraphCanvas::nodeRect(uint32_t node) const {
    if (node >= m_boxOf.size() || m_boxOf[node] < 0) return {};
    const Box& b = m_boxes[static_cast<size_t>(m_boxOf[node])];
    return QRectF(b.x, b.depth * kRowHeight, b.w, kRowHeight);
}

void FlameGraphCanvas::paintEvent(QPaintEvent* event) {
    QPainter p(this);
    const QRect clip = event->rect();
    p.fillRect(clip, palette().base());
    if (!m_graph) return;
    const QFontMetrics fm = p.fontMetrics();
    const int minLabel = fm.horizontalAdvance(QStringLiteral("Ww…"));
    const int firstRow = std::max(0, clip.top() / kRowHeight);
    const int lastRow = clip.bottom() / kRowHeight;
    for (const Box& b : m_boxes) {
        if (b.depth < firstRow || b.depth > lastRow) continue;
        const int left = static_cast<int>(std::floor(b.x));
        const int right = static_cast<int>(std::floor(b.x + b.w));
        if (right < clip.left() || left > clip.right()) continue;
        const QRect r(left, b.depth * kRowHeight, std::max(1, right - left - 1), kRowHeight - 1);
        QColor fill = colorFor(b.node);
        if (b.ancestor) fill = fill.lighter(112);
        p.fillRect(r, fill);
        if (b.node == m_hover) {
            p.setPen(QPen(QColor(0x20, 0x20, 0x20), 1));
            p.drawRect(r.adjusted(0, 0, -1, -1));
        }
        if (r.width() >= minLabel) {
            p.setPen(b.ancestor ? QColor(0x55, 0x55, 0x55) : QColor(0x10, 0x10, 0x10));
            const QRect tr = r.adjusted(3, 0, -3, 0);
            // The root also says what the whole graph weighs.
            const QString label =
                b.node == 0 ? QStringLiteral("%1 · %2").arg(
                                  labelFor(0), formatWeight(m_graph->weight(), m_graph->root().total))
                            : labelFor(b.node);
            p.drawText(tr, Qt::AlignVCenter | Qt::AlignLeft,
                       fm.elidedText(label, Qt::ElideRight, tr.width()));
        }
    }
}

void FlameGraphCanvas::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    relayout();
}

void FlameGraphCanvas::mouseMoveEvent(QMouseEvent* event) {
    const uint32_t n = nodeAt(event->position().toPoint());
    if (n != m_hover) {
        m_hover = n;
        setCursor(n == FlameNode::kNone ? Qt::ArrowCursor : Qt::PointingHandCursor);
        update();
        if (QToolTip::isVisible()) QToolTip::showText(event->globalPosition().toPoint(), toolTipFor(n), this);
    }
}

void FlameGraphCanvas::leaveEvent(QEvent* event) {
    m_hover = FlameNode::kNone;
    update();
    QWidget::leaveEvent(event);
}

void FlameGraphCanvas::mousePressEvent(QMouseEvent* event) {
    m_pressed = event->button() == Qt::LeftButton ? nodeAt(event->position().toPoint()) : FlameNode::kNone;
}

void FlameGraphCanvas::mouseReleaseEvent(QMouseEvent* event) {
    // A click zooms into the frame (an ancestor above the zoomed frame: zooms out to it). The frame
    // stays on its row, so a double click still finds it.
    const uint32_t n =
        event->button() == Qt::LeftButton ? nodeAt(event->position().toPoint()) : FlameNode::kNone;
    if (n != FlameNode::kNone && n == m_pressed) setZoomNode(n);
    m_pressed = FlameNode::kNone;
}

void FlameGraphCanvas::mouseDoubleClickEvent(QMouseEvent* event) {
    const uint32_t n = nodeAt(event->position().toPoint());
    if (event->button() == Qt::LeftButton && n != FlameNode::kNone && n != 0) emit frameActivated(n);
}

void FlameGraphCanvas::contextMenuEvent(QContextMenuEvent* event) {
    const uint32_t n = nodeAt(event->pos());
    if (n != FlameNode::kNone) emit contextMenuForFrame(n, event->globalPos());
}

bool FlameGraphCanvas::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const uint32_t n = nodeAt(help->pos());
        if (n == FlameNode::kNone)
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), toolTipFor(n), this);
        return true;
    }
    return QWidget::event(event);
}

// ---------------------------------------------------------------------------------------------
// FlameGraphView

FlameGraphView::FlameGraphView(TimeViewport* time, std::shared_ptr<const Session> session, QWidget* parent)
    : QWidget(parent), m_time(time), m_session(std::move(session)), m_weight(new QComboBox(this)),
      m_direction(new QComboBox(this)), m_fold(new QCheckBox(tr("Fold dispatch frames"), this)),
      m_search(new QLineEdit(this)),
      m_resetZoom(new QPushButton(tr("Reset Zoom"), this)), m_breadcrumb(new QLabel(this)),
      m_status(new QLabel(this)), m_pages(new QStackedWidget(this)), m_message(new QLabel(this)),
      m_scroll(new QScrollArea(this)), m_canvas(new FlameGraphCanvas(this)) {
    setObjectName(QStringLiteral("flameGraphView"));
    m_weight->addItem(tr("GPU time by launching Python stack"), static_cast<int>(FlameWeight::Gpu));
    m_weight->addItem(tr("CPU time by Python stack"), static_cast<int>(FlameWeight::Cpu));
    m_weight->setItemData(1,
                          tr("torch.profiler: the Python functions' self time; a capture: each CUDA call and the host "
                             "time before it, on the call's stack"),
                          Qt::ToolTipRole);
    m_weight->addItem(tr("Bytes allocated"), static_cast<int>(FlameWeight::Alloc));
    m_weight->setToolTip(tr("What the frames weigh"));
    m_direction->addItem(tr("Top-down (callers first)"), false);
    m_direction->addItem(tr("Bottom-up (innermost frames first)"), true);
    m_fold->setObjectName(QStringLiteral("flameFold"));
    m_fold->setChecked(FrameFoldingSettings::load().enabled);
    m_fold->setToolTip(tr("Fold nn.Module's _call_impl and _wrapped_call_impl, decorators' wrappers and __call__ "
                          "frames into their callers, so model code comes first (Settings lists the patterns)"));
    m_search->setPlaceholderText(tr("Search functions…"));
    m_search->setClearButtonEnabled(true);
    m_search->setMaximumWidth(260);
    m_resetZoom->setEnabled(false);
    m_breadcrumb->setTextFormat(Qt::PlainText);
    m_breadcrumb->setMinimumWidth(50);
    m_breadcrumb->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_status->setTextFormat(Qt::PlainText);

    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Weight:"), this));
    bar->addWidget(m_weight);
    bar->addWidget(m_direction);
    bar->addWidget(m_fold);
    bar->addWidget(m_search);
    bar->addWidget(m_resetZoom);
    bar->addWidget(m_status, 1);

    m_message->setWordWrap(true);
    m_message->setAlignment(Qt::AlignCenter);
    m_message->setTextFormat(Qt::PlainText);
    m_scroll->setWidget(m_canvas);
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_pages->addWidget(m_message);
    m_pages->addWidget(m_scroll);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 4, 6, 4);
    layout->setSpacing(4);
    layout->addLayout(bar);
    layout->addWidget(m_breadcrumb);
    layout->addWidget(m_pages, 1);

    m_message->setText(m_session ? tr("The flame graph is computed when this tab is shown.")
                                 : tr("No session."));

    connect(m_weight, &QComboBox::currentIndexChanged, this, [this] {
        m_dirty = true;
        start();
    });
    connect(m_direction, &QComboBox::currentIndexChanged, this, [this] {
        m_dirty = true;
        start();
    });
    connect(m_fold, &QCheckBox::toggled, this, [this](bool on) {
        FrameFoldingSettings::saveEnabled(on);
        m_dirty = true;
        start();
    });
    connect(m_search, &QLineEdit::textChanged, this, [this](const QString& text) {
        m_canvas->setSearch(text.trimmed());
        updateStatus();
    });
    connect(m_resetZoom, &QPushButton::clicked, this, [this] { m_canvas->setZoomNode(0); });
    connect(m_canvas, &FlameGraphCanvas::zoomChanged, this, &FlameGraphView::updateStatus);
    connect(m_canvas, &FlameGraphCanvas::frameActivated, this,
            [this](uint32_t node) { requestSource(node, false); });
    connect(m_canvas, &FlameGraphCanvas::contextMenuForFrame, this, &FlameGraphView::showMenu);
    connect(m_time, &TimeViewport::selectedRangeChanged, this, [this] {
        m_dirty = true;
        start();
    });
}

// The worker is never waited for (startDetached); a newer build or closing the tab cancels it.
FlameGraphView::~FlameGraphView() {
    if (m_cancel) m_cancel->store(true);
}

FlameOptions FlameGraphView::currentOptions() const {
    FlameOptions o;
    o.weight = static_cast<FlameWeight>(m_weight->currentData().toInt());
    o.bottomUp = m_direction->currentData().toBool();
    o.fold = FrameFoldingSettings::foldingWhen(m_fold->isChecked());
    if (const std::optional<TimeRange> sel = m_time->selectedRange(); sel && sel->end > sel->start) {
        o.from = sel->start;
        o.to = sel->end;
    }
    return o;
}

void FlameGraphView::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    start();
}

void FlameGraphView::start() {
    if (!m_session || !m_dirty || !isVisible()) return; // built when next shown
    m_dirty = false;
    if (m_cancel) m_cancel->store(true);
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    const uint64_t generation = ++m_generation;
    if (!m_graph) m_message->setText(tr("Building the flame graph…"));
    m_status->setText(tr("Building the flame graph…"));
    FlameOptions options = currentOptions();
    const int width = std::max(1, m_canvas->width());
    startDetached(
        this,
        [session = m_session, options, cancel = m_cancel, width]() mutable {
            options.cancel = cancel.get();
            return buildForWidth(*session, options, width);
        },
        [generation](FlameGraphView& view, std::shared_ptr<const FlameGraph> graph) {
            view.present(std::move(graph), generation);
        });
}

void FlameGraphView::computeNow() {
    if (!m_session) return;
    if (m_cancel) m_cancel->store(true);
    m_cancel.reset();
    m_dirty = false;
    const uint64_t generation = ++m_generation; // a worker still running is ignored
    present(buildForWidth(*m_session, currentOptions(), std::max(1, m_canvas->width())), generation);
}

void FlameGraphView::setWeight(FlameWeight weight) {
    const int i = m_weight->findData(static_cast<int>(weight));
    if (i >= 0) m_weight->setCurrentIndex(i);
}

void FlameGraphView::setBottomUp(bool bottomUp) {
    m_direction->setCurrentIndex(bottomUp ? 1 : 0);
}

void FlameGraphView::setFolding(bool fold) {
    m_fold->setChecked(fold);
}

bool FlameGraphView::isFolding() const {
    return m_fold->isChecked();
}

void FlameGraphView::setSearch(const QString& text) {
    m_search->setText(text);
}

bool FlameGraphView::isShowingGraph() const {
    return m_pages->currentIndex() == 1;
}

QString FlameGraphView::messageText() const {
    return m_message->text();
}

QString FlameGraphView::statusText() const {
    return m_status->text();
}

QString FlameGraphView::breadcrumbText() const {
    return m_breadcrumb->text();
}

void FlameGraphView::present(std::shared_ptr<const FlameGraph> graph, uint64_t generation) {
    if (generation != m_generation) return; // superseded by a newer build
    m_graph = std::move(graph);
    m_canvas->setGraph(m_graph);
    if (m_graph->root().total <= 0) {
        const QString reason =
            m_graph->emptyReason().empty()
                ? (m_time->selectedRange() ? tr("Nothing of this weight in the selected range.")
                                           : tr("Nothing of this weight in this session."))
                : QString::fromStdString(m_graph->emptyReason());
        m_message->setText(tr("No flame graph for %1.").arg(m_weight->currentText()) +
                           QStringLiteral("\n\n") + reason);
        m_pages->setCurrentIndex(0);
    } else {
        m_pages->setCurrentIndex(1);
    }
    updateStatus();
    emit ready();
}

void FlameGraphView::updateStatus() {
    const uint32_t zoom = m_canvas->zoomNode();
    m_resetZoom->setEnabled(zoom != 0);
    if (!m_graph) {
        m_breadcrumb->clear();
        return;
    }
    // The path to the zoomed frame, or a hint while not zoomed: how to get stacks when no event had one.
    if (zoom == 0 && m_graph->withoutAnyStack()) {
        m_breadcrumb->setText(m_session && m_session->sourceFormat() == TraceFormat::WarpscopeCapture
                                  ? tr("No event here has a call stack: record the capture with warpscope-capture "
                                       "--py-stacks, or New Capture's \"Python call stacks\".")
                                  : tr("No event here has a call stack: record with with_stack=True."));
    } else if (zoom == 0) {
        m_breadcrumb->setText(
            tr("Click a frame to zoom into it, double-click to show its source; right-click for more."));
    } else {
        QStringList parts{m_canvas->labelFor(0)};
        for (const uint32_t n : m_graph->path(zoom))
            parts << m_canvas->labelFor(n);
        m_breadcrumb->setText(parts.join(QStringLiteral(" › ")));
    }
    const FlameWeight w = m_graph->weight();
    const int64_t all = m_graph->root().total;
    QString status = tr("%1 in %2 events, %3")
                         .arg(formatWeight(w, all), formatCount(m_graph->sampleCount()),
                              m_time->selectedRange() ? tr("selected range") : tr("whole session"));
    if (!m_search->text().trimmed().isEmpty()) {
        status += QStringLiteral(" · ");
        status += m_canvas->matchCount() == 0
                      ? tr("no frame matches")
                      : tr("matched %1 of the total")
                            .arg(formatPercent(all > 0 ? std::optional(m_canvas->matchedTotal() / double(all))
                                                       : std::nullopt));
    }
    if (m_graph->foldedFrameCount() > 0)
        status += QStringLiteral(" · ") + tr("%n dispatch frame(s) folded", nullptr,
                                             static_cast<int>(m_graph->foldedFrameCount()));
    m_status->setText(status);
}

void FlameGraphView::requestSource(uint32_t node, bool editor) {
    if (!m_graph || node == 0 || node >= m_graph->nodes().size()) return;
    const FlameFrame& f = m_graph->frames()[m_graph->nodes()[node].frame];
    if (f.file.empty()) return; // no source location (an operator name, "(no stack)")
    emit sourceRequested(QString::fromStdString(f.file), f.line, editor);
}

void FlameGraphView::showMenu(uint32_t node, QPoint globalPos) {
    if (!m_graph) return;
    const bool hasSource = node != 0 && !m_graph->frames()[m_graph->nodes()[node].frame].file.empty();
    QMenu menu(this);
    menu.addAction(tr("Zoom Into Frame"), this, [this, node] { m_canvas->setZoomNode(node); })
        ->setEnabled(node != m_canvas->zoomNode());
    menu.addAction(tr("Reset Zoom"), this, [this] { m_canvas->setZoomNode(0); })
        ->setEnabled(m_canvas->zoomNode() != 0);
    menu.addSeparator();
    menu.addAction(tr("Show Source"), this, [this, node] { requestSource(node, false); })
        ->setEnabled(hasSource);
    menu.addAction(tr("Open in Editor"), this, [this, node] { requestSource(node, true); })
        ->setEnabled(hasSource);
    menu.exec(globalPos);
}

} // namespace ws
