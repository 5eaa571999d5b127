#include "analysis/session_dump.h"

#include "analysis/trace_summary.h"
#include "model/session.h"

#include <algorithm>
#include <sstream>

namespace ws {

std::string dumpSession(const Session& s, size_t slicesPerTrack) {
    std::ostringstream o;
    const TraceSummary sum = summarizeSession(s);
    const int64_t t0 = s.startNs();
    o << "format " << sum.format << "\n";
    o << "events " << sum.events << " slices " << s.sliceCount() << " duration_ns " << (s.endNs() - s.startNs())
      << "\n";
    o << "kernels " << sum.kernelCount << " " << sum.kernelTotalNs << " ns; memcpy " << sum.memcpyCount << " "
      << sum.memcpyTotalNs << " ns; memset " << sum.memsetCount << " " << sum.memsetTotalNs << " ns; runtime "
      << sum.runtimeCalls << "; flows " << sum.flows << "; steps " << sum.steps << "\n";
    if (s.baseTimeNs())
        o << "baseTimeNanoseconds " << *s.baseTimeNs() << "\n";
    for (const DeviceInfo& d : s.devices())
        o << "deviceProperties " << d.id << " " << d.name << "\n";
    if (const auto& di = s.distributedInfo())
        o << "distributed " << di->backend << " rank " << (di->rank ? std::to_string(*di->rank) : "?") << " of "
          << (di->worldSize ? std::to_string(*di->worldSize) : "?") << "\n";
    for (size_t i = 0; i < s.tracks().size(); ++i) {
        const Track& t = s.tracks()[i];
        o << "track " << i << " [" << s.processLabel(s.processes()[t.process]) << "] " << s.trackLabel(t)
          << (t.gpu ? " gpu" : "") << ": slices " << t.sliceCount() << " rows " << t.rowCount() << " lanes "
          << t.laneCount << " instants " << t.instantTs.size() << "\n";
        // First slices in time order across rows.
        std::vector<uint32_t> idx(t.sliceCount());
        for (uint32_t k = 0; k < idx.size(); ++k)
            idx[k] = k;
        std::partial_sort(idx.begin(), idx.begin() + static_cast<std::ptrdiff_t>(std::min(slicesPerTrack, idx.size())),
                          idx.end(), [&](uint32_t a, uint32_t b) {
                              return t.start[a] != t.start[b] ? t.start[a] < t.start[b] : a < b;
                          });
        for (size_t k = 0; k < std::min(slicesPerTrack, idx.size()); ++k) {
            const uint32_t e = idx[k];
            const uint32_t row = t.rowOf(e);
            o << "  +" << (t.start[e] - t0) << " dur " << t.dur[e] << " row " << row << " depth " << t.rowDepth[row]
              << " [" << s.str(s.categories()[t.category[e]].name) << "] " << s.str(t.names[e]).substr(0, 80);
            if (!t.correlation.empty() && t.correlation[e] != Track::kNoId)
                o << " corr " << t.correlation[e];
            if (!t.externalId.empty() && t.externalId[e] != Track::kNoId)
                o << " ext " << t.externalId[e];
            o << "\n";
        }
    }
    for (const CounterSeries& c : s.counters())
        o << "counter [" << s.processLabel(s.processes()[c.process]) << "] " << s.str(c.name) << "." << s.str(c.series)
          << ": samples " << c.ts.size() << "\n";
    for (size_t k = 0; k < std::min<size_t>(3, s.flows().size()); ++k) {
        const Flow& f = s.flows()[k];
        const Track& a = s.tracks()[f.fromTrack];
        const Track& b = s.tracks()[f.toTrack];
        o << "flow " << s.str(f.category) << " " << f.id << ": " << s.str(a.names[f.fromSlice]).substr(0, 40) << " -> "
          << s.str(b.names[f.toSlice]).substr(0, 40) << "\n";
    }
    o << "memory events " << s.memoryEvents().size() << "\n";
    o << "report" << (s.report().truncated() ? " (truncated)" : "") << ":\n" << s.report().toText();
    return o.str();
}

} // namespace ws
