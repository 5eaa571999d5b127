#include "analysis/run_digest.h"

#include "analysis/operator_tree.h"
#include "analysis/session_analyses.h"
#include "model/saturating.h"
#include "model/session.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_map>

namespace ws {

namespace {

bool inWindow(const std::optional<DigestWindow>& window, int64_t start) {
    return !window || (start >= window->from && start < window->to);
}

DigestOperators operatorRows(const Session& session, const OperatorTree& tree, OperatorGrouping grouping,
                             const std::optional<DigestWindow>& window) {
    const OperatorTable table = OperatorTable::build(
        session, tree, grouping, window ? std::optional<OperatorTimeRange>(OperatorTimeRange{window->from, window->to}) : std::nullopt);
    DigestOperators out;
    out.present = true;
    out.hasDevice = table.hasDevice();
    out.rows.reserve(table.size());
    for (size_t r = 0; r < table.size(); ++r) {
        const OperatorRow& row = table.row(r);
        DigestOperatorRow d;
        d.name = std::string(session.str(row.name));
        d.shapes = table.text(session, tree, r, OperatorColumn::InputShapes);
        d.types = table.text(session, tree, r, OperatorColumn::InputTypes);
        d.callStack = table.text(session, tree, r, OperatorColumn::CallStack);
        d.calls = row.calls;
        d.hostTotalNs = row.hostTotalNs;
        d.hostSelfNs = row.hostSelfNs;
        d.deviceTotalNs = row.deviceTotalNs;
        d.deviceSelfNs = row.deviceSelfNs;
        d.tcSelfNs = row.tcSelfNs;
        d.tcTotalNs = row.tcTotalNs;
        d.tensorCoreEligible = row.tensorCoreEligible;
        out.rows.push_back(std::move(d));
    }
    return out;
}

} // namespace

RunDigest digestRun(SessionAnalyses& analyses, const std::optional<DigestWindow>& window,
                    const std::array<bool, 3>& groupings, bool readArgs) {
    RunDigest run;
    const Session& session = *analyses.session();
    run.overview = computeOverview(session, *analyses.overviewData(),
                                   window ? std::optional<OverviewRange>(OverviewRange{window->from, window->to}) : std::nullopt);
    // Shapes and call stacks come from the argument pass: only for the groupings that need them.
    const bool withArgs = readArgs && (groupings[1] || groupings[2]);
    const std::shared_ptr<const OperatorTree> tree = analyses.operatorTree(withArgs);
    run.argsRead = withArgs;
    run.callStacks = tree->anyCallStack();
    for (const OperatorNode& node : tree->nodes())
        if (node.pyStack != 0 && (node.kind == OperatorNodeKind::Operator || node.kind == OperatorNodeKind::ExcludedOperator)) {
            run.pyStacks = true; // as OperatorTree::build finds them without the argument pass
            break;
        }
    std::array<bool, 3> wanted = groupings;
    if (wanted[static_cast<size_t>(OperatorGrouping::NameAndCallStack)])
        wanted[static_cast<size_t>(OperatorGrouping::Name)] = true; // the fallback without call stacks
    for (size_t g = 0; g < wanted.size(); ++g)
        if (wanted[g])
            run.operators[g] = operatorRows(session, *tree, static_cast<OperatorGrouping>(g), window);

    // Kernels by name: only names and durations (the KernelTable's launch attribution is not needed).
    std::unordered_map<StringId, std::pair<uint64_t, int64_t>> byName;
    for (const Track& track : session.tracks()) {
        if (!track.gpu)
            continue;
        for (uint32_t i = 0; i < track.sliceCount(); ++i) {
            if (session.kindOf(track, i) != EventKind::Kernel || !inWindow(window, track.start[i]))
                continue;
            auto& [calls, total] = byName[track.names[i]];
            ++calls;
            addSaturating(total, track.dur[i]);
        }
    }
    for (const auto& [name, stats] : byName)
        run.kernels.push_back({std::string(), std::string(session.str(name)), stats.first, stats.second});
    std::sort(run.kernels.begin(), run.kernels.end(), [](const DigestKernel& a, const DigestKernel& b) { return a.name < b.name; });

    // Kernels by the operator whose own runtime call launched them.
    std::map<std::pair<StringId, StringId>, std::pair<uint64_t, int64_t>> launched;
    for (const OperatorTree::Launch& l : tree->launches()) {
        const Track& gpu = session.tracks()[l.gpuTrack];
        if (session.kindOf(gpu, l.gpuSlice) != EventKind::Kernel || !inWindow(window, gpu.start[l.gpuSlice]))
            continue;
        auto& [calls, ns] = launched[{tree->node(l.node).name, gpu.names[l.gpuSlice]}];
        ++calls;
        ns += gpu.dur[l.gpuSlice];
    }
    for (const auto& [ids, stats] : launched)
        run.launched.push_back({std::string(session.str(ids.first)), std::string(session.str(ids.second)), stats.first, stats.second});
    std::sort(run.launched.begin(), run.launched.end(), [](const DigestKernel& a, const DigestKernel& b) {
        return std::tie(a.op, a.name) < std::tie(b.op, b.name);
    });
    return run;
}

} // namespace ws
