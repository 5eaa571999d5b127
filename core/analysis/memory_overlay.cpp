#include "analysis/memory_overlay.h"

#include "model/session.h"

namespace ws {

MemoryOverlayCurve memoryOverlayCurve(const Session& session, const std::optional<DiffWindow>& window, size_t maxPoints) {
    MemoryOverlayCurve out;
    const MemoryCurves curves = MemoryCurves::build(session);
    const int64_t from = window ? window->from : session.startNs();
    const int64_t to = window ? window->to : session.endNs() + 1;
    const MemoryCurve* best = nullptr;
    for (const MemoryCurve& c : curves.devices())
        if (c.device.type != 0 && (!best || c.peakAllocated.value > best->peakAllocated.value))
            best = &c;
    if (!best)
        return out;
    out.found = true;
    out.device = best->device;
    out.points = decimateMemoryCurve(*best, best->allocated, from, to, maxPoints);
    for (MemoryPoint& p : out.points)
        p.ts -= from;
    out.peak = best->peakAllocatedIn(from, to);
    if (out.peak.known())
        out.peak.ts -= from;
    return out;
}

} // namespace ws
