#include "diff_waterfall_chart.h"

#include "format.h"

#include <QPainter>

#include <algorithm>

namespace ws {

namespace {
constexpr int kRowHeight = 22;
constexpr int kLabelWidth = 280;
} // namespace

DiffWaterfallChart::DiffWaterfallChart(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("diffWaterfall"));
    setMinimumHeight(kRowHeight * 4);
}

void DiffWaterfallChart::setDiff(std::shared_ptr<const SessionDiff> diff, int top, bool byOperator) {
    m_bars.clear();
    if (diff && !diff->kernels.empty()) {
        const std::vector<KernelDiffRow>& kernels = byOperator ? diff->operatorKernels : diff->kernels;
        int64_t totalA = 0, totalB = 0;
        for (const KernelDiffRow& k : kernels) {
            totalA += k.totalNs[0];
            totalB += k.totalNs[1];
        }
        m_bars.push_back({tr("A: kernel time"), 0, totalA, true});
        int64_t running = totalA;
        const size_t shown = std::min<size_t>(static_cast<size_t>(std::max(top, 0)), kernels.size()); // by |delta| already
        for (size_t i = 0; i < shown; ++i) {
            const KernelDiffRow& k = kernels[i];
            if (k.deltaNs == 0)
                break;
            QString label = QString::fromStdString(byOperator ? (k.op.empty() ? std::string("–") : k.op) + " · " + k.key : k.key);
            if (label.size() > 48)
                label = label.left(45) + QStringLiteral("…");
            m_bars.push_back({label, running, running + k.deltaNs, false});
            running += k.deltaNs;
        }
        if (running != totalB) {
            m_bars.push_back({tr("all other kernels"), running, totalB, false});
            running = totalB;
        }
        m_bars.push_back({tr("B: kernel time"), 0, totalB, true});
    }
    updateGeometry();
    update();
}

QSize DiffWaterfallChart::sizeHint() const {
    return {kLabelWidth + 400, kRowHeight * static_cast<int>(std::max<size_t>(m_bars.size(), 3)) + 24};
}

void DiffWaterfallChart::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    if (m_bars.empty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("No kernels in either run"));
        return;
    }
    // The axis spans what the running sum visits, with the totals cut at its left edge.
    int64_t lo = INT64_MAX, hi = 0;
    for (const Bar& b : m_bars) {
        if (!b.total)
            lo = std::min({lo, b.from, b.to});
        hi = std::max({hi, b.from, b.to});
    }
    for (const Bar& b : m_bars)
        if (b.total)
            lo = std::min(lo, b.to);
    lo = std::max<int64_t>(0, lo - (hi - lo) / 4);
    const int plotLeft = kLabelWidth + 8, plotWidth = std::max(40, width() - plotLeft - 90);
    auto x = [&](int64_t ns) {
        return plotLeft + static_cast<int>(static_cast<double>(ns - lo) / static_cast<double>(std::max<int64_t>(1, hi - lo)) * plotWidth);
    };
    const QFontMetrics fm(font());
    for (size_t i = 0; i < m_bars.size(); ++i) {
        const Bar& b = m_bars[i];
        const int y = 4 + static_cast<int>(i) * kRowHeight;
        p.setPen(palette().color(QPalette::Text));
        p.drawText(QRect(4, y, kLabelWidth, kRowHeight - 4), Qt::AlignRight | Qt::AlignVCenter,
                   fm.elidedText(b.label, Qt::ElideRight, kLabelWidth));
        const int64_t from = b.total ? lo : std::min(b.from, b.to), to = b.total ? b.to : std::max(b.from, b.to);
        const QColor colour = b.total ? QColor(0x5b, 0x7d, 0xb1) : b.to > b.from ? QColor(0xd0, 0x4a, 0x4a) : QColor(0x3c, 0x9a, 0x5f);
        const QRect bar(x(from), y + 3, std::max(2, x(to) - x(from)), kRowHeight - 10);
        p.fillRect(bar, colour);
        const QString value = b.total ? formatDuration(b.to)
                                      : (b.to > b.from ? QStringLiteral("+") : QStringLiteral("−")) +
                                            formatDuration(b.to > b.from ? b.to - b.from : b.from - b.to);
        p.drawText(QRect(bar.right() + 6, y, 90, kRowHeight - 4), Qt::AlignLeft | Qt::AlignVCenter, value);
    }
}

} // namespace ws
