#include "inference_panel.h"

#include "analysis/inference_gaps.h"
#include "analysis/inference_steps.h"
#include "analysis/roofline.h"
#include "format.h"
#include "token_latency_chart.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace ws {

namespace {

QString msText(double ns) { return QString::number(ns / 1e6, 'f', 3); }

// "CPU work 62 % · synchronization 32 % · between kernels 6 %": the shares over 1 %, largest first.
QString idleCausesText(const PhaseIdleCauses& c) {
    const double idle = static_cast<double>(c.idleNs());
    if (idle <= 0)
        return {};
    std::vector<std::pair<int64_t, QString>> parts;
    for (size_t k = 0; k < kGapCategoryCount; ++k)
        parts.emplace_back(c.gaps.categories[k].ns, formatGapCategory(static_cast<GapCategory>(k)));
    parts.emplace_back(c.shortGapNs, InferencePanel::tr("between kernels"));
    std::sort(parts.begin(), parts.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    QStringList out;
    for (const auto& [ns, name] : parts)
        if (static_cast<double>(ns) >= 0.01 * idle)
            out << InferencePanel::tr("%1 %2").arg(name, formatUtilization(static_cast<double>(ns) / idle));
    return out.join(QStringLiteral(" · "));
}

} // namespace

InferencePanel::InferencePanel(TimeViewport* time, QWidget* parent)
    : QWidget(parent), m_time(time), m_summary(new QLabel(this)), m_table(new QTableWidget(this)),
      m_latency(new TokenLatencyChart(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_summary->setObjectName(QStringLiteral("inferenceSummary"));
    m_summary->setWordWrap(true);
    layout->addWidget(m_summary);
    m_table->setObjectName(QStringLiteral("inferenceTable"));
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    m_table->setColumnCount(10);
    m_table->setHorizontalHeaderLabels({tr("Phase"), tr("Forwards"), tr("Tokens per forward"), tr("p50 (ms)"),
                                        tr("p90 (ms)"), tr("p99 (ms)"), tr("GPU busy"), tr("MFU"), tr("MBU"),
                                        tr("Why the GPU idles")});
    m_table->horizontalHeaderItem(9)->setToolTip(tr("The phase's GPU idle time by cause: gaps of 50 us or more as the "
                                                   "idle-gap analysis classifies them, and the shorter gaps between "
                                                   "kernels (launch overhead)"));
    m_table->horizontalHeaderItem(7)->setToolTip(tr("Model FLOPs utilization: the forwards' estimated FLOPs over their "
                                                   "time at the GPU's Tensor Core peak (the Roofline tab)"));
    m_table->horizontalHeaderItem(8)->setToolTip(tr("Memory bandwidth utilization: their estimated bytes over their "
                                                   "time at the GPU's memory bandwidth"));
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    layout->addWidget(m_table);
    layout->addWidget(m_latency);
    connect(m_table, &QTableWidget::cellClicked, this, [this](int row, int) { showRow(row); });
    connect(m_latency, &TokenLatencyChart::stepClicked, this, &InferencePanel::showStep);
    setVisible(false);
}

void InferencePanel::setSteps(std::shared_ptr<const InferenceSteps> steps, std::shared_ptr<const Roofline> roofline,
                              std::shared_ptr<const std::vector<PhaseIdleCauses>> idleCauses) {
    m_steps = std::move(steps);
    m_roofline = std::move(roofline);
    m_table->setRowCount(0);
    m_rowStep.clear();
    if (!m_steps || m_steps->empty()) {
        setVisible(false);
        return;
    }
    const InferenceSteps& s = *m_steps;
    const LatencyStats ttft = s.ttft(), tpot = s.timePerToken();
    QStringList parts;
    parts << tr("%n forward(s) in %1 request(s) on GPU %2, cut at the LM head (%3)", nullptr, static_cast<int>(s.steps().size()))
                 .arg(s.requests().size())
                 .arg(s.device())
                 .arg(QString::fromStdString(s.headLabel()));
    if (ttft.count)
        parts << tr("time to first token %1 ms (p50)").arg(msText(static_cast<double>(ttft.p50)));
    if (tpot.count)
        parts << tr("time per output token %1 ms (p50), %2 ms (p99)")
                     .arg(msText(static_cast<double>(tpot.p50)), msText(static_cast<double>(tpot.p99)));
    const bool batchKnown = std::all_of(s.requests().begin(), s.requests().end(), [](const InferenceRequest& r) { return r.batch > 0; });
    parts << (batchKnown ? tr("%1 tokens/s").arg(s.tokensPerSecond(), 0, 'f', 1)
                         : tr("%1 tokens/s per sequence (no shapes give the batch)").arg(s.tokensPerSecond(), 0, 'f', 1));
    m_summary->setText(parts.join(QStringLiteral(" · ")));

    auto addRow = [&](const QString& phase, const QStringList& cells, uint32_t step) {
        const int row = m_table->rowCount();
        m_table->insertRow(row);
        m_table->setItem(row, 0, new QTableWidgetItem(phase));
        for (int c = 0; c < cells.size(); ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            // Figures right-aligned, the idle causes' text as text.
            item->setTextAlignment((c == 8 ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignVCenter);
            m_table->setItem(row, c + 1, item);
        }
        m_rowStep.push_back(step);
    };
    for (InferencePhase p : {InferencePhase::Prefill, InferencePhase::Decode}) {
        const PhaseTotals t = s.totals(p);
        if (t.steps == 0)
            continue;
        // A prefill's latency is its request's time to first token, a decode's its time per token.
        const LatencyStats l = p == InferencePhase::Prefill ? ttft : tpot;
        const QString share = t.spanNs > 0 ? QStringLiteral("%1 %").arg(100.0 * static_cast<double>(t.busyNs) / static_cast<double>(t.spanNs), 0, 'f', 1)
                                           : QString();
        auto latency = [&](int64_t v) { return l.count ? msText(static_cast<double>(v)) : QString(); };
        QString mfu, mbu;
        if (m_roofline)
            for (const RooflinePhase& ph : m_roofline->phases())
                if (ph.phase == p) {
                    mfu = formatUtilization(ph.mfu);
                    mbu = formatUtilization(ph.mbu);
                }
        QString idle;
        if (idleCauses)
            for (const PhaseIdleCauses& c : *idleCauses)
                if (c.phase == p)
                    idle = idleCausesText(c);
        addRow(p == InferencePhase::Prefill ? tr("Prefill") : tr("Decode"),
               {QString::number(t.steps), t.tokens > 0 ? QString::number(t.tokens / t.steps, 'f', 1) : QString(), latency(l.p50),
                latency(l.p90), latency(l.p99), share, mfu, mbu, idle},
               InferenceStep::kNone);
    }
    // The slowest of each phase, to click through to on the timeline.
    for (InferencePhase p : {InferencePhase::Prefill, InferencePhase::Decode}) {
        uint32_t slowest = InferenceStep::kNone;
        int64_t worst = -1;
        for (uint32_t i = 0; i < s.steps().size(); ++i) {
            const InferenceStep& st = s.steps()[i];
            const int64_t v = p == InferencePhase::Prefill ? st.end - st.start : st.latencyNs;
            if (st.phase == p && v > worst) {
                worst = v;
                slowest = i;
            }
        }
        if (slowest == InferenceStep::kNone)
            continue;
        const InferenceStep& st = s.steps()[slowest];
        addRow(p == InferencePhase::Prefill ? tr("Slowest prefill (forward %1)").arg(slowest)
                                            : tr("Slowest decode (forward %1)").arg(slowest),
               {QString(), st.tokens ? QString::number(st.tokens) : QString(), msText(static_cast<double>(worst)), QString(), QString(),
                st.end > st.start ? QStringLiteral("%1 %").arg(100.0 * static_cast<double>(st.busyNs) / static_cast<double>(st.end - st.start), 0, 'f', 1)
                                  : QString(),
                m_roofline && slowest < m_roofline->stepMfu().size() ? formatUtilization(m_roofline->stepMfu()[slowest]) : QString()},
               slowest);
    }
    // The time per output token, decode by decode; a prefill marks where a request starts.
    std::vector<TokenLatencyChart::Bar> bars;
    for (uint32_t i = 0; i < s.steps().size(); ++i) {
        const InferenceStep& st = s.steps()[i];
        bars.push_back({st.phase == InferencePhase::Prefill ? st.end - st.start : st.latencyNs,
                        st.phase == InferencePhase::Prefill, i});
    }
    m_latency->setBars(std::move(bars), tpot.p50, tpot.p99);
    m_latency->setVisible(tpot.count > 0);
    setVisible(true);
}

void InferencePanel::showRow(int row) {
    if (row >= 0 && static_cast<size_t>(row) < m_rowStep.size())
        showStep(m_rowStep[static_cast<size_t>(row)]);
}

void InferencePanel::showStep(uint32_t step) {
    if (!m_steps || step >= m_steps->steps().size())
        return;
    const InferenceStep& st = m_steps->steps()[step];
    m_time->showRange(st.start, st.end);
    if (st.headTrack != InferenceStep::kNone) {
        const SliceRef ref{st.headTrack, st.headSlice};
        m_time->setSelectedSlice(ref);
        emit revealRequested(ref);
    }
}

} // namespace ws
