#include "analysis/inference_counters.h"

#include "analysis/inference_steps.h"
#include "model/session.h"

namespace ws {

std::vector<DerivedCounter> inferenceCounters(const Session& s, const InferenceSteps& steps) {
    if (steps.empty())
        return {};
    uint32_t process = 0;
    bool found = false;
    for (uint32_t p = 0; p < s.processes().size() && !found; ++p)
        if (s.processes()[p].deviceId == steps.device()) {
            process = p;
            found = true;
        }
    if (!found)
        return {};
    DerivedCounter phase, latency;
    phase.process = latency.process = process;
    phase.name = "Inference Phase";
    latency.name = "Time per Output Token (ms)";
    phase.unit = latency.unit = DerivedCounter::Unit::Fraction; // plain numbers
    auto sample = [](DerivedCounter& c, int64_t ts, double v) {
        if (!c.ts.empty() && c.ts.back() == ts)
            c.value.back() = v; // the next forward starts where the last ended
        else {
            c.ts.push_back(ts);
            c.value.push_back(v);
        }
    };
    for (const InferenceStep& st : steps.steps()) {
        const bool prefill = st.phase == InferencePhase::Prefill;
        const int64_t ns = prefill ? st.end - st.start : st.latencyNs;
        sample(phase, st.start, prefill ? 2 : 1);
        sample(latency, st.start, static_cast<double>(ns) / 1e6);
        phase.ts.push_back(st.end);
        phase.value.push_back(0);
        latency.ts.push_back(st.end);
        latency.value.push_back(0);
    }
    return {std::move(phase), std::move(latency)};
}

} // namespace ws
