#include "analysis/launch_flows.h"

#include "model/graph_flows.h"
#include "model/session.h"

namespace ws {

namespace {

// Whether `candidate` wins over `current` for one GPU slice (kNone: none yet).
bool better(const Session& s, uint32_t candidate, uint32_t current, uint32_t graphCategory, LaunchFlows::Follow follow) {
    if (current == LaunchFlows::kNone)
        return true;
    const std::vector<Flow>& flows = s.flows();
    const auto rank = [&](uint32_t f) {
        const Flow& x = flows[f];
        const bool graph = x.category == graphCategory;
        const bool self = x.fromTrack == x.toTrack && x.fromSlice == x.toSlice;
        // Lower is better: the graph_node flow first when attributing, then a flow to itself.
        return (follow == LaunchFlows::Follow::Attribution && graph ? 0 : 2) + (self ? 0 : 1);
    };
    const int a = rank(candidate), b = rank(current);
    return a != b ? a < b : candidate < current;
}

bool followed(const Flow& f, uint32_t graphCategory, LaunchFlows::Follow follow) {
    return follow == LaunchFlows::Follow::Attribution || f.category != graphCategory;
}

} // namespace

uint32_t LaunchFlows::graphNodeCategory(const Session& session) {
    const StringId id = session.strings().find(kGraphNodeFlowCategory);
    return id == StringTable::kNotFound ? kNone : id;
}

LaunchFlows LaunchFlows::build(const Session& session, Follow follow) {
    LaunchFlows out;
    const std::vector<Track>& tracks = session.tracks();
    out.m_flow.resize(tracks.size());
    const uint32_t graphCategory = graphNodeCategory(session);
    const std::vector<Flow>& flows = session.flows();
    for (uint32_t f = 0; f < flows.size(); ++f) {
        const Flow& flow = flows[f];
        if (flow.toTrack >= tracks.size() || !tracks[flow.toTrack].gpu || flow.toSlice >= tracks[flow.toTrack].sliceCount() ||
            flow.fromTrack >= tracks.size() || flow.fromSlice >= tracks[flow.fromTrack].sliceCount() ||
            !followed(flow, graphCategory, follow))
            continue;
        std::vector<uint32_t>& slot = out.m_flow[flow.toTrack];
        if (slot.empty())
            slot.assign(tracks[flow.toTrack].sliceCount(), kNone);
        uint32_t& current = slot[flow.toSlice];
        if (better(session, f, current, graphCategory, follow))
            current = f;
    }
    return out;
}

uint32_t LaunchFlows::flowOfSlice(const Session& session, uint32_t track, uint32_t slice, Follow follow) {
    const uint32_t graphCategory = graphNodeCategory(session);
    const std::vector<Track>& tracks = session.tracks();
    uint32_t best = kNone;
    for (uint32_t f : session.flowsOf(track, slice)) {
        const Flow& flow = session.flows()[f];
        if (flow.toTrack != track || flow.toSlice != slice || flow.fromTrack >= tracks.size() ||
            flow.fromSlice >= tracks[flow.fromTrack].sliceCount() || !followed(flow, graphCategory, follow))
            continue;
        if (better(session, f, best, graphCategory, follow))
            best = f;
    }
    return best;
}

} // namespace ws
