#include "analysis/session_results.h"

#include "analysis/distributed.h"
#include "analysis/distributed_json.h"
#include "analysis/kernel_table.h"
#include "analysis/session_analyses.h"
#include "model/session.h"

#include <thread>

namespace ws {

SessionResults computeSessionResults(const Session& session) {
    SessionResults results;
    results.sliceCount = session.sliceCount();
    results.startNs = session.startNs();
    results.endNs = session.endNs();
    // The kernel table and the distributed block on a second thread while the digest is made.
    std::thread kernels([&] {
        const KernelTable table = KernelTable::build(session);
        results.kernelGroups = groupKernels(table, KernelGrouping::Name);
        results.kernelArgsLoaded = table.argsLoaded();
        results.distributed = rankDistributedToJson(summarizeRank(session));
    });
    // Not owning the session (aliasing constructor): the analyses live only for this call.
    SessionAnalyses analyses(std::shared_ptr<const Session>(std::shared_ptr<const Session>(), &session));
    results.run = digestRun(analyses, std::nullopt, {true, true, true}, true);
    kernels.join();
    return results;
}

} // namespace ws
