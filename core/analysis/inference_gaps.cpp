#include "analysis/inference_gaps.h"

#include "analysis/step_ranges.h"

#include <algorithm>

namespace ws {

std::vector<PhaseIdleCauses> inferenceIdleCauses(const Session& session, const InferenceSteps& steps,
                                                 IdleGapOptions options) {
    std::vector<PhaseIdleCauses> out;
    options.range.reset(); // the forwards are the window
    for (InferencePhase phase : {InferencePhase::Prefill, InferencePhase::Decode}) {
        StepRanges ranges;
        for (const InferenceStep& st : steps.steps())
            if (st.phase == phase && st.end > st.start)
                ranges.steps.push_back({st.start, st.end});
        if (ranges.steps.empty())
            continue;
        ranges.labels.resize(ranges.steps.size());
        PhaseIdleCauses c;
        c.phase = phase;
        const PhaseTotals totals = steps.totals(phase);
        c.forwards = totals.steps;
        c.spanNs = totals.spanNs;
        c.busyNs = totals.busyNs;
        c.gaps = computeIdleGaps(session, ranges, options);
        c.shortGapNs = std::max<int64_t>(0, c.idleNs() - c.gaps.gapNs);
        out.push_back(std::move(c));
    }
    return out;
}

} // namespace ws
