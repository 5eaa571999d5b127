#pragma once

#include "analysis/kernel_groups.h"
#include "analysis/run_digest.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ws {

class Session;
class SessionAnalyses;

/*
 * SessionResults: the whole-session analyses a session file carries (issue #29), computed when the
 * session is stored so that reopening it, comparing against it or opening a job of such ranks reads
 * them instead of recomputing:
 *   - run: the Overview of the whole trace (devices, step breakdown, recommendations), the operator
 *     table by name, by input shape and by call stack (texts, not the file's ids), the kernels by
 *     name and by launching operator: what a comparison needs (run_digest.h);
 *   - kernelGroups: the kernel table grouped by name (the Kernels tab's and `kernels --group name`'s
 *     first view);
 *   - distributed: the rank's distributed block (distributed_json.h's JSON), for jobs.
 * Ids inside (StringIds, track/slice of recommendations, kernel table rows) are those of the stored
 * model, which reads back with the same ids.
 *
 * Encoded compactly (session_results_codec.cpp, a few KB to a few hundred KB) with kVersion and the
 * model's slice count and time span: a blob of another version, or one that does not describe the
 * session at hand, is ignored (decodeSessionResults gives nullopt) and the analyses are computed as
 * before. Bump kVersion whenever an analysis whose result is cached changes what it computes, or
 * the encoding changes.
 */
struct SessionResults {
    static constexpr uint32_t kVersion = 5; // 5: a long idle gap names its cause; 2: operator rows with Tensor Core time; 3: a capture's inferred
                                            // operators with stacks, summaries with computed occupancy;
                                            // 4: the Overview's recorded pieces (recorded_spans.h)

    // The model described, checked against the session on decoding.
    uint64_t sliceCount = 0;
    int64_t startNs = 0;
    int64_t endNs = 0;

    RunDigest run;
    std::vector<KernelGroup> kernelGroups; // KernelGrouping::Name, as groupKernels orders them
    bool kernelArgsLoaded = false;         // the kernel table had its launch arguments
    std::string distributed;               // rankDistributedToJson(summarizeRank(session))
};

// Every cached analysis of the session, computed now (operators with arguments, all groupings).
// With `shared` (the analyses of the session as the app's views hold them), the Overview's data and
// the operator tree come from there, computed there when no view asked for them yet: a session
// stored while its first views are drawn computes them once, not once for each.
SessionResults computeSessionResults(const Session& session, SessionAnalyses* shared = nullptr);

/* What identifies the model results were computed from (a session file's meta has it too). */
struct ResultsModelIdentity {
    uint64_t sliceCount = 0;
    int64_t startNs = 0;
    int64_t endNs = 0;
};

std::string encodeSessionResults(const SessionResults& results);
// nullopt when `blob` is empty, of another version, damaged, or computed from another model than
// `session` (slice count or time span differ, or an id does not index the session's tables).
std::optional<SessionResults> decodeSessionResults(std::string_view blob, const Session& session);
// The same against a model not loaded (a session file's meta): the ids inside are not checked, so
// only the texts and numbers (RunDigest's rows, the distributed block) may be used without the model.
std::optional<SessionResults> decodeSessionResults(std::string_view blob, const ResultsModelIdentity& model);

} // namespace ws
