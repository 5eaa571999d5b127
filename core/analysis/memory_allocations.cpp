#include "analysis/memory_allocations.h"

#include "model/session.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_map>

namespace ws {

namespace {

bool isOperator(EventKind kind) { return kind == EventKind::CpuOp || kind == EventKind::UserAnnotation; }

bool isEmptyOp(std::string_view name) { return name.substr(0, 11) == "aten::empty"; }

} // namespace

std::vector<uint32_t> operatorStackAt(const Session& s, const Track& t, int64_t ts) {
    std::vector<uint32_t> stack;
    // Each row is sorted and non-overlapping, so at most one slice per row contains ts. Rows of
    // every lane count: an op that partially overlapped a Python frame sits in a lane of its own.
    for (size_t r = 0; r + 1 < t.rowBegin.size(); ++r) {
        auto first = t.start.begin() + t.rowBegin[r];
        auto last = t.start.begin() + t.rowBegin[r + 1];
        auto it = std::upper_bound(first, last, ts);
        if (it == first)
            continue;
        const auto i = static_cast<uint32_t>(it - t.start.begin() - 1);
        if (ts < t.end(i) && isOperator(s.kindOf(t, i)))
            stack.push_back(i);
    }
    std::sort(stack.begin(), stack.end(), [&t](uint32_t a, uint32_t b) {
        if (t.start[a] != t.start[b])
            return t.start[a] < t.start[b];
        if (t.end(a) != t.end(b))
            return t.end(a) > t.end(b);
        return t.rowOf(a) < t.rowOf(b);
    });
    return stack;
}

std::vector<uint32_t> memoryRecordOps(const Session& s) {
    const auto& events = s.memoryEvents();
    std::vector<uint32_t> out(events.size(), Track::kNoId);
    for (size_t i = 0; i < events.size(); ++i) {
        const MemoryEvent& m = events[i];
        if (m.track >= s.tracks().size() || !memoryDeviceOf(m))
            continue;
        const std::vector<uint32_t> stack = operatorStackAt(s, s.tracks()[m.track], m.ts);
        if (!stack.empty())
            out[i] = stack.back();
    }
    return out;
}

MemoryAllocations MemoryAllocations::build(const Session& s, const std::vector<uint32_t>& recordOpsIn) {
    const auto& events = s.memoryEvents();
    const std::vector<uint32_t> computed = recordOpsIn.size() == events.size() ? std::vector<uint32_t>{} : memoryRecordOps(s);
    const std::vector<uint32_t>& recordOps = computed.empty() ? recordOpsIn : computed;
    MemoryAllocations out;
    // Open allocations by (device, process, address) -> row.
    std::map<std::tuple<MemoryDevice, uint32_t, int64_t>, uint32_t> open;
    for (size_t i = 0; i < events.size(); ++i) {
        const MemoryEvent& m = events[i];
        const auto device = memoryDeviceOf(m);
        if (!device || m.bytes == MemoryEvent::kUnknown || m.bytes == 0)
            continue;
        if (m.addr == MemoryEvent::kUnknown) {
            ++out.m_withoutAddr;
            continue;
        }
        const uint32_t process = m.track < s.tracks().size() ? s.tracks()[m.track].process : UINT32_MAX;
        const auto key = std::make_tuple(*device, process, m.addr);
        if (m.bytes > 0) {
            MemoryAllocation row;
            row.device = *device;
            row.addr = m.addr;
            row.bytes = m.bytes;
            row.allocatedAt = m.ts;
            row.allocRecord = static_cast<uint32_t>(i);
            const uint32_t op = i < recordOps.size() ? recordOps[i] : Track::kNoId;
            if (op != Track::kNoId) {
                const Track& t = s.tracks()[m.track];
                row.opTrack = m.track;
                row.opSlice = op;
                row.opName = t.names[op];
                if (isEmptyOp(s.str(row.opName))) {
                    const std::vector<uint32_t> stack = operatorStackAt(s, t, m.ts);
                    if (stack.size() >= 2)
                        row.parentOpName = t.names[stack[stack.size() - 2]];
                }
            }
            // A second allocation at an open address means its free was not recorded: the
            // earlier block stays a leak row and the address now belongs to the new one.
            open[key] = static_cast<uint32_t>(out.m_rows.size());
            out.m_rows.push_back(row);
        } else {
            auto it = open.find(key);
            if (it != open.end()) {
                MemoryAllocation& row = out.m_rows[it->second];
                row.freedAt = m.ts;
                row.freeRecord = static_cast<uint32_t>(i);
                open.erase(it);
            } else {
                MemoryAllocation row;
                row.device = *device;
                row.addr = m.addr;
                row.bytes = -m.bytes;
                row.freedAt = m.ts;
                row.freeRecord = static_cast<uint32_t>(i);
                out.m_rows.push_back(row);
            }
        }
    }
    // Rows are already in record (time) order of their first record.
    return out;
}

std::vector<uint32_t> MemoryAllocations::select(std::optional<MemoryDevice> device, int64_t from, int64_t to) const {
    std::vector<uint32_t> out;
    auto inside = [&](int64_t t) { return t != MemoryEvent::kUnknown && t >= from && t < to; };
    for (uint32_t i = 0; i < m_rows.size(); ++i) {
        const MemoryAllocation& r = m_rows[i];
        if (device && r.device != *device)
            continue;
        if (inside(r.allocatedAt) || inside(r.freedAt))
            out.push_back(i);
    }
    return out;
}

MemoryAllocations::Counts MemoryAllocations::counts(std::optional<MemoryDevice> device, int64_t from, int64_t to) const {
    Counts c;
    auto inside = [&](int64_t t) { return t != MemoryEvent::kUnknown && t >= from && t < to; };
    for (const MemoryAllocation& r : m_rows) {
        if (device && r.device != *device)
            continue;
        if (inside(r.allocatedAt)) {
            ++c.allocations;
            c.leaks += r.leaked();
        }
        if (inside(r.freedAt)) {
            ++c.frees;
            c.unmatchedFrees += r.unmatchedFree();
        }
    }
    return c;
}

std::string MemoryAllocations::opText(const Session& s, const MemoryAllocation& row) {
    if (row.opSlice == Track::kNoId)
        return {};
    std::string name(s.str(row.opName));
    if (row.parentOpName != kEmptyString)
        return std::string(s.str(row.parentOpName)) + " (" + name + ")";
    return name;
}

} // namespace ws
