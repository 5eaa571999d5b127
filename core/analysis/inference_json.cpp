#include "analysis/inference_json.h"

#include "analysis/inference_gaps.h"
#include "analysis/inference_steps.h"
#include "analysis/kernel_table.h"
#include "model/session.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <ostream>

namespace ws {

namespace {

using J = nlohmann::ordered_json;

const char* sourceName(ForwardSource s) {
    switch (s) {
    case ForwardSource::HeadShapes: return "lm_head_shapes";
    case ForwardSource::HeadLine: return "lm_head_line";
    case ForwardSource::None: break;
    }
    return "none";
}

const char* phaseSourceName(PhaseSource s) {
    switch (s) {
    case PhaseSource::AttentionShapes: return "attention_shapes";
    case PhaseSource::GemmRows: return "gemm_rows";
    case PhaseSource::GemmKernels: break;
    }
    return "gemm_kernels";
}

J stats(const LatencyStats& s) {
    return J{{"count", s.count}, {"min", s.min}, {"p50", s.p50}, {"p90", s.p90},
             {"p99", s.p99},     {"max", s.max}, {"mean", s.mean}};
}

} // namespace

std::string inferenceToJson(const Session& session, const KernelTable& table, const InferenceSteps& steps, bool withSteps) {
    J j;
    j["detected"] = !steps.empty();
    j["training"] = steps.training();
    j["source"] = sourceName(steps.source());
    j["phase_source"] = phaseSourceName(steps.phaseSource());
    j["device"] = steps.device();
    j["lm_head"] = steps.headLabel();
    j["vocabulary"] = steps.vocabulary();
    j["requests"] = steps.requests().size();
    j["forwards"] = steps.steps().size();
    j["ttft_ns"] = stats(steps.ttft());
    j["time_per_token_ns"] = stats(steps.timePerToken());
    j["tokens_per_second"] = steps.tokensPerSecond();
    J phases;
    for (InferencePhase p : {InferencePhase::Prefill, InferencePhase::Decode}) {
        const PhaseTotals t = steps.totals(p);
        phases[inferencePhaseName(p)] = {{"steps", t.steps}, {"span_ns", t.spanNs}, {"busy_ns", t.busyNs}, {"tokens", t.tokens}};
    }
    // Why the GPU idles in each phase (inference_gaps.h).
    if (!steps.empty())
        for (const PhaseIdleCauses& c : inferenceIdleCauses(session, steps)) {
            J categories = J::object();
            for (size_t k = 0; k < kGapCategoryCount; ++k)
                categories[gapCategoryId(static_cast<GapCategory>(k))] = c.gaps.categories[k].ns;
            std::vector<const GapLine*> heaviest;
            for (const GapLine& l : c.gaps.lines)
                heaviest.push_back(&l);
            std::stable_sort(heaviest.begin(), heaviest.end(), [](const GapLine* a, const GapLine* b) { return a->ns > b->ns; });
            J lines = J::array();
            for (size_t i = 0; i < heaviest.size() && i < 5; ++i) {
                const GapLine& l = *heaviest[i];
                lines.push_back({{"category", gapCategoryId(l.category)}, {"what", l.what}, {"file", l.file},
                                 {"line", l.line}, {"function", l.function}, {"ns", l.ns}});
            }
            phases[inferencePhaseName(c.phase)]["idle"] = {{"idle_ns", c.idleNs()},
                                                          {"gap_threshold_ns", c.gaps.thresholdNs},
                                                          {"gap_ns", c.gaps.gapNs},
                                                          {"short_gap_ns", c.shortGapNs},
                                                          {"gap_ns_by_category", std::move(categories)},
                                                          {"top_lines", std::move(lines)}};
        }
    j["phases"] = std::move(phases);
    if (withSteps) {
        J rows = J::array();
        for (const InferenceStep& s : steps.steps()) {
            rows.push_back({{"start_ns", s.start},
                            {"end_ns", s.end},
                            {"phase", inferencePhaseName(s.phase)},
                            {"request", s.request},
                            {"tokens", s.tokens},
                            {"batch", s.batch},
                            {"query_length", s.queryLength},
                            {"context", s.context},
                            {"kernels", s.kernels},
                            {"busy_ns", s.busyNs},
                            {"latency_ns", s.latencyNs},
                            {"lm_head_kernel", std::string(session.str(table.row(s.headRow).name))}});
        }
        j["steps"] = std::move(rows);
    }
    return j.dump(2);
}

void writeInferenceStepsCsv(std::ostream& out, const InferenceSteps& steps) {
    out << "step,request,phase,start_ns,end_ns,latency_ns,tokens,batch,query_length,context,kernels,busy_ns\n";
    for (size_t i = 0; i < steps.steps().size(); ++i) {
        const InferenceStep& s = steps.steps()[i];
        out << i << ',' << s.request << ',' << inferencePhaseName(s.phase) << ',' << s.start << ',' << s.end << ','
            << s.latencyNs << ',' << s.tokens << ',' << s.batch << ',' << s.queryLength << ',' << s.context << ','
            << s.kernels << ',' << s.busyNs << '\n';
    }
}

} // namespace ws
