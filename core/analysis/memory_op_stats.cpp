#include "analysis/memory_op_stats.h"

#include "analysis/memory_allocations.h"
#include "model/session.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>

namespace ws {

MemoryOpStats MemoryOpStats::build(const Session& s, const std::vector<uint32_t>& recordOpsIn, int64_t from, int64_t to) {
    const auto& events = s.memoryEvents();
    const std::vector<uint32_t> computed = recordOpsIn.size() == events.size() ? std::vector<uint32_t>{} : memoryRecordOps(s);
    const std::vector<uint32_t>& recordOps = computed.empty() ? recordOpsIn : computed;

    std::map<std::pair<MemoryDevice, StringId>, MemoryOpStat> stats;
    // Operator calls seen per device, as (track, slice) keys, for the Calls column.
    std::set<std::tuple<MemoryDevice, uint32_t, uint32_t>> calls;
    uint32_t cachedTrack = Track::kNoId, cachedOp = Track::kNoId;
    std::vector<uint32_t> stack;
    const auto first = std::lower_bound(events.begin(), events.end(), from,
                                        [](const MemoryEvent& m, int64_t t) { return m.ts < t; });
    for (auto it = first; it != events.end() && it->ts < to; ++it) {
        const size_t i = static_cast<size_t>(it - events.begin());
        const MemoryEvent& m = *it;
        const auto device = memoryDeviceOf(m);
        const uint32_t op = i < recordOps.size() ? recordOps[i] : Track::kNoId;
        if (!device || op == Track::kNoId || m.bytes == MemoryEvent::kUnknown)
            continue;
        const Track& t = s.tracks()[m.track];
        // Innermost first: the record's own operator, then the ones around it. Records of one op
        // call come in a row (an op allocating its outputs), so the stack is looked up once per call.
        if (m.track != cachedTrack || op != cachedOp) {
            cachedTrack = m.track;
            cachedOp = op;
            stack = operatorStackAt(s, t, m.ts);
            std::reverse(stack.begin(), stack.end());
        }
        if (stack.empty() || stack.front() != op)
            continue; // recordOps came from another session
        const bool allocation = m.bytes > 0;
        for (size_t k = 0; k < stack.size(); ++k) {
            MemoryOpStat& st = stats[{*device, t.names[stack[k]]}];
            st.device = *device;
            st.name = t.names[stack[k]];
            if (calls.emplace(*device, m.track, stack[k]).second)
                ++st.calls;
            st.sizeIncrease += m.bytes;
            if (allocation) {
                ++st.allocationCount;
                st.allocationSize += m.bytes;
            }
            if (k == 0) {
                st.selfSizeIncrease += m.bytes;
                if (allocation) {
                    ++st.selfAllocationCount;
                    st.selfAllocationSize += m.bytes;
                }
            }
        }
    }
    MemoryOpStats out;
    for (auto& [key, st] : stats)
        out.m_rows.push_back(st);
    std::stable_sort(out.m_rows.begin(), out.m_rows.end(), [&s](const MemoryOpStat& a, const MemoryOpStat& b) {
        if (a.device != b.device)
            return a.device < b.device;
        if (a.allocationSize != b.allocationSize)
            return a.allocationSize > b.allocationSize;
        return s.str(a.name) < s.str(b.name);
    });
    return out;
}

std::vector<uint32_t> MemoryOpStats::select(std::optional<MemoryDevice> device) const {
    std::vector<uint32_t> out;
    for (uint32_t i = 0; i < m_rows.size(); ++i)
        if (!device || m_rows[i].device == *device)
            out.push_back(i);
    return out;
}

} // namespace ws
