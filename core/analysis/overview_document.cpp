#include "analysis/overview_document.h"

#include "analysis/inference_json.h"
#include "analysis/inference_steps.h"
#include "analysis/kernel_table.h"
#include "analysis/recommendations.h"
#include "analysis/roofline.h"
#include "analysis/roofline_json.h"
#include "analysis/session_results.h"
#include "model/session.h"

namespace ws {

OverviewDocument buildOverviewDocument(const Session& session, const std::optional<OverviewRange>& range,
                                       bool withIdleGaps) {
    OverviewDocument d;
    std::optional<OverviewData> data; // prepared on first need
    const auto prepared = [&]() -> const OverviewData& {
        if (!data)
            data = prepareOverview(session);
        return *data;
    };
    const std::optional<SessionResults> stored = range ? std::nullopt : decodeSessionResults(session.storedResults(), session);
    if (stored)
        d.report = stored->run.overview;
    else
        d.report = computeOverview(session, prepared(), range);
    if (withIdleGaps) {
        IdleGapOptions options;
        options.range = range;
        d.idleGaps = computeIdleGaps(session, prepared(), options);
    }
    const KernelTable table = KernelTable::build(session);
    const InferenceSteps steps = InferenceSteps::build(session, table);
    if (d.report.valid && !steps.empty())
        addInferenceRecommendations(d.report.recommendations, steps);
    d.members = {{"inference", inferenceToJson(session, table, steps, false)},
                 {"roofline", rooflineToJson(session, Roofline::build(session, table, &steps), 10)}};
    return d;
}

std::string overviewDocumentJson(const Session& session, const OverviewDocument& document) {
    return overviewToJson(session, document.report, document.members);
}

} // namespace ws
