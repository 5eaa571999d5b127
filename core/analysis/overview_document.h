#pragma once

#include "analysis/idle_gaps.h"
#include "analysis/overview.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ws {

class Session;

/*
 * The Overview as `warpscope-cli overview` gives it, for every front end (CLI, Python, MCP): the
 * whole-trace report a stored session carries when no range is asked (session_results.h), else the
 * report computed; the inference rules applied (recommendations.h, issue #49); and the inference
 * and roofline blocks as `inference --json` and `roofline --json --top 10` give them; with
 * withIdleGaps, Why the GPU waits over the same steps (the text report's table), the Overview's data
 * prepared once for both.
 */
struct OverviewDocument {
    OverviewReport report;
    std::vector<std::pair<std::string, std::string>> members; // extra JSON members: name, JSON text
    std::optional<IdleGapReport> idleGaps;
};

OverviewDocument buildOverviewDocument(const Session& session, const std::optional<OverviewRange>& range = std::nullopt,
                                       bool withIdleGaps = false);
// overview --json.
std::string overviewDocumentJson(const Session& session, const OverviewDocument& document);

} // namespace ws
