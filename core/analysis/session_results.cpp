#include "analysis/session_results.h"

#include "analysis/distributed.h"
#include "analysis/distributed_json.h"
#include "analysis/kernel_table.h"
#include "analysis/overview.h"
#include "analysis/trace_summary.h"
#include "analysis/session_analyses.h"
#include "model/session.h"

#include <optional>
#include <thread>

namespace ws {

SessionResults computeSessionResults(const Session& session, SessionAnalyses* shared) {
    SessionResults results;
    results.sliceCount = session.sliceCount();
    results.startNs = session.startNs();
    results.endNs = session.endNs();
    // Not owning the session (aliasing constructor): the analyses live only for this call.
    std::optional<SessionAnalyses> own;
    if (!shared || shared->session().get() != &session)
        own.emplace(std::shared_ptr<const Session>(std::shared_ptr<const Session>(), &session));
    SessionAnalyses& analyses = own ? *own : *shared;
    // The kernel table and the distributed block on a second thread while the digest is made; the
    // block takes the Overview's step and role ranges (two passes over every slice) from the
    // analyses, whichever thread needs them first computing them.
    std::thread kernels([&] {
        const KernelTable table = KernelTable::build(session);
        results.kernelGroups = groupKernels(table, KernelGrouping::Name);
        results.kernelArgsLoaded = table.argsLoaded();
        const std::shared_ptr<const OverviewData> overview = analyses.overviewData();
        results.distributed = rankDistributedToJson(
            summarizeRank(session, *analyses.summary(), overview->steps, overview->stepLabels, overview->roles));
    });
    results.run = digestRun(analyses, std::nullopt, {true, true, true}, true);
    kernels.join();
    return results;
}

} // namespace ws
