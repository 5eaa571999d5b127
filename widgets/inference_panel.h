#pragma once

#include "time_viewport.h"

#include <QWidget>

#include <memory>
#include <vector>

class QLabel;
class QTableWidget;

namespace ws {

class InferenceSteps;
class Roofline;
struct PhaseIdleCauses;
class TokenLatencyChart;

/*
 * InferencePanel: the Overview's "Inference" section (issue #49), a thin view over InferenceSteps:
 * a line with the forwards, requests, time to first token and per output token and tokens per
 * second, and a table per phase (forwards, tokens per forward, latency p50/p90/p99, GPU busy share,
 * MFU and MBU where the roofline knows the GPU's peaks, and why the GPU idles: the idle time's shares
 * by cause, inference_gaps.h) with the slowest prefill and decode, and the time per output token
 * decode by decode with its distribution (TokenLatencyChart), whose bars select their forward; a row with a forward selects it on the timeline and reveals
 * its LM head kernel. Hidden when the run has no inference forwards.
 */
class InferencePanel : public QWidget {
    Q_OBJECT
public:
    InferencePanel(TimeViewport* time, QWidget* parent = nullptr);
    void setSteps(std::shared_ptr<const InferenceSteps> steps, std::shared_ptr<const Roofline> roofline = nullptr,
                  std::shared_ptr<const std::vector<PhaseIdleCauses>> idleCauses = nullptr);
    TokenLatencyChart* latencyChart() const { return m_latency; }

signals:
    void revealRequested(const ws::SliceRef& slice);

private:
    void showRow(int row);
    void showStep(uint32_t step);

    TimeViewport* m_time;
    std::shared_ptr<const InferenceSteps> m_steps;
    std::shared_ptr<const Roofline> m_roofline;
    QLabel* m_summary;
    QTableWidget* m_table;
    TokenLatencyChart* m_latency;
    std::vector<uint32_t> m_rowStep; // forward shown by each table row (kNone: a phase row)
};

} // namespace ws
