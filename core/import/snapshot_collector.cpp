#include "import/snapshot_collector.h"

#include "import/address_map.h"

#include <algorithm>
#include <cstring>
#include <span>

namespace ws {

using pickle::Kind;
using pickle::Reader;
using pickle::Value;

namespace {

// Token payloads: which table the id is in.
// (Tokens fit the memo's 60-bit payload, so a released container's memo entry holds them directly.)
constexpr uint64_t kStackToken = uint64_t(1) << 56;
constexpr uint64_t kFrameToken = uint64_t(2) << 56;
constexpr uint64_t kBlocksToken = uint64_t(3) << 56; // a segment's block list: the segment's index
constexpr uint64_t kBlockToken = uint64_t(4) << 56;  // a block dict: its index in blocks
constexpr uint64_t kTokenTag = uint64_t(7) << 56;

uint64_t listKey(const Value& list) {
    return (uint64_t(list.gen) << 32) | (list.u & 0xffffffffu);
}

bool asInt(const Value& v, int64_t& out) {
    if (v.kind == Kind::Int || v.kind == Kind::Bool) {
        out = v.i;
        return true;
    }
    if (v.kind == Kind::Float && v.f > -9.2e18 && v.f < 9.2e18) {
        out = static_cast<int64_t>(v.f);
        return true;
    }
    return false;
}

} // namespace


namespace {
constexpr size_t kBatchEntries = 4096; // trace entries per hand-over to the pairing
} // namespace

SnapshotCollector::SnapshotCollector(ImportReport& report, bool threaded)
    : m_report(report), m_snapshot(std::make_shared<MemorySnapshot>()),
      m_pairing(std::make_unique<SnapshotPairing>(*m_snapshot, threaded)) {}

SnapshotCollector::~SnapshotCollector() = default;

uint32_t SnapshotCollector::intern(std::string_view text) {
    if (auto it = m_stringIds.find(text); it != m_stringIds.end())
        return it->second;
    const auto id = static_cast<uint32_t>(m_snapshot->strings.size());
    m_stringIds.emplace(m_snapshot->strings.emplace_back(text), id);
    return id;
}

SnapshotCollector::Field SnapshotCollector::fieldOfText(Reader& reader, const Value& key) {
    if (key.kind != Kind::Str)
        return kOther;
    static const std::pair<const char*, Field> names[] = {
        {"action", kAction},           {"addr", kAddr},
        {"address", kAddress},         {"size", kSize},
        {"stream", kStream},           {"time_us", kTimeUs},
        {"frames", kFrames},           {"device_free", kDeviceFree},
        {"device", kDevice},           {"total_size", kTotalSize},
        {"allocated_size", kAllocatedSize}, {"active_size", kActiveSize},
        {"requested_size", kRequestedSize}, {"segment_type", kSegmentType},
        {"is_expandable", kExpandable}, {"blocks", kBlocks},
        {"state", kState},             {"name", kName},
        {"filename", kFilename},       {"line", kLine},
    };
    Field f = kOther;
    const std::string_view text = reader.str(key);
    for (const auto& [name, field] : names)
        if (text == name)
            f = field;
    if (key.u < (uint64_t(1) << 32)) {
        if (key.u >= m_fieldByString.size())
            m_fieldByString.resize(std::max<size_t>(key.u + 1, m_fieldByString.size() * 2), 0);
        m_fieldByString[key.u] = static_cast<uint8_t>(f + 1);
    }
    return f;
}

SnapshotAction SnapshotCollector::actionOf(Reader& reader, const Value& v) {
    if (v.kind != Kind::Str && v.kind != Kind::Bytes)
        return SnapshotAction::Other;
    // Cached by the reader's string id: an action is one memoized string fetched by GET.
    if (v.u < m_actionByString.size() && m_actionByString[v.u])
        return static_cast<SnapshotAction>(m_actionByString[v.u] - 1);
    static const std::pair<const char*, SnapshotAction> names[] = {
        {"alloc", SnapshotAction::Alloc},
        {"free_requested", SnapshotAction::FreeRequested},
        {"free_completed", SnapshotAction::FreeCompleted},
        {"free", SnapshotAction::FreeCompleted},
        {"segment_alloc", SnapshotAction::SegmentAlloc},
        {"segment_free", SnapshotAction::SegmentFree},
        {"segment_map", SnapshotAction::SegmentMap},
        {"segment_unmap", SnapshotAction::SegmentUnmap},
        {"snapshot", SnapshotAction::Snapshot},
        {"oom", SnapshotAction::Oom},
    };
    SnapshotAction a = SnapshotAction::Other;
    const std::string_view text = reader.str(v);
    for (const auto& [name, action] : names)
        if (text == name)
            a = action;
    if (v.u < (uint64_t(1) << 32)) {
        if (v.u >= m_actionByString.size())
            m_actionByString.resize(std::max<size_t>(v.u + 1, m_actionByString.size() * 2), 0);
        m_actionByString[v.u] = static_cast<uint8_t>(static_cast<uint8_t>(a) + 1);
    }
    return a;
}

uint32_t SnapshotCollector::frameOf(Reader& reader, const Value& frameDict) {
    const Value v = reader.resolve(frameDict);
    if (v.kind == Kind::Token && (v.u & kTokenTag) == kFrameToken)
        return static_cast<uint32_t>(v.u & ~kTokenTag);
    SnapshotFrame f;
    if (v.kind == Kind::Dict) {
        for (size_t i = 0; i < reader.size(v); ++i) {
            const Value val = reader.value(v, i);
            switch (fieldOf(reader, reader.key(v, i))) {
            case kName: f.function = intern(reader.str(val)); break;
            case kFilename: f.file = intern(reader.str(val)); break;
            case kLine: {
                int64_t line = 0;
                if (asInt(val, line))
                    f.line = static_cast<int32_t>(std::clamp<int64_t>(line, INT32_MIN, INT32_MAX));
                break;
            }
            default: break;
            }
        }
    } else if (v.kind == Kind::Str) { // a frame given as plain text
        f.function = intern(reader.str(v));
    }
    char key[12];
    std::memcpy(key, &f.function, 4);
    std::memcpy(key + 4, &f.file, 4);
    std::memcpy(key + 8, &f.line, 4);
    uint64_t h = 1469598103934665603ull;
    for (char c : key)
        h = (h ^ static_cast<uint8_t>(c)) * 1099511628211ull;
    // Collisions of the 64-bit hash are resolved by comparing the frame itself.
    uint32_t id;
    for (;; ++h) {
        auto [it, added] = m_frameIds.try_emplace(h, static_cast<uint32_t>(m_snapshot->frames.size()));
        if (added) {
            m_snapshot->frames.push_back(f);
            id = it->second;
            break;
        }
        const SnapshotFrame& g = m_snapshot->frames[it->second];
        if (g.function == f.function && g.file == f.file && g.line == f.line) {
            id = it->second;
            break;
        }
    }
    if (v.kind == Kind::Dict)
        reader.forward(v, Value::token(kFrameToken | id));
    return id;
}

uint32_t SnapshotCollector::listOf(Reader& reader, const Value& frames) {
    const Value v = reader.resolve(frames);
    if (v.kind == Kind::Token && (v.u & kTokenTag) == kStackToken)
        return static_cast<uint32_t>(v.u & ~kTokenTag);
    if (v.kind != Kind::List && v.kind != Kind::Tuple)
        return 0;
    // One pass over the list's raw items: a frame already read is a token (the memo holds it), so
    // the common frame costs a compare. (frameOf forwards only frame dicts, never this list: the
    // span stays valid.) The ids go to the pairing, which interns the list into a stack.
    const std::span<const Value> items = reader.items(v);
    uint32_t list = 0;
    if (!items.empty()) {
        for (const Value& item : items)
            m_batch.listFrames.push_back(item.kind == Kind::Token && (item.u & kTokenTag) == kFrameToken
                                             ? static_cast<uint32_t>(item.u & ~kTokenTag)
                                             : frameOf(reader, item));
        m_batch.listSizes.push_back(static_cast<uint32_t>(items.size()));
        list = m_nextList++;
    }
    // Frame lists are one per allocation: released. (Frame dicts are not: one list may hold the
    // same frame twice, and they are few.)
    reader.forward(v, Value::token(kStackToken | list), true);
    return list;
}

void SnapshotCollector::onSetItem(Reader& reader, const Value& dict, const Value& key, Value& value) {
    // Read at once, while no other container holds a handle to them (a later memo reference then
    // finds the token): frame lists become stacks, a segment's block list its range of blocks.
    const Field field = fieldOf(reader, key);
    if (field != kFrames && field != kBlocks)
        return;
    const Value v = reader.resolve(value);
    if (v.kind != Kind::List && v.kind != Kind::Tuple)
        return;
    value = Value::token(field == kFrames ? kStackToken | listOf(reader, v) : readBlocks(reader, dict, v));
}

uint32_t SnapshotCollector::traceFor(const Value& list) {
    return m_traceByList.try_emplace(listKey(list), static_cast<uint32_t>(m_traceByList.size())).first->second;
}

bool SnapshotCollector::onAppend(Reader& reader, const Value& list, const Value& element) {
    if (element.kind != Kind::Dict)
        return true;
    if (element.u < m_pendingBySlot.size()) {
        PendingEntry& p = m_pendingBySlot[element.u];
        if (p.valid && p.gen == element.gen) {
            p.valid = false;
            emitEntry(reader, p.fields, traceFor(list));
            return false;
        }
    }
    // The first key tells a trace entry (action ...) from a segment (device, address ...) without a
    // search: PyTorch writes them in that order; other dicts are looked at key by key.
    bool entry = false, segment = false;
    const std::span<const Value> items = reader.items(element);
    for (size_t i = 0; i + 1 < items.size() && !entry && !segment; i += 2) {
        const Field f = fieldOf(reader, items[i]);
        entry = f == kAction;
        segment = f == kBlocks || f == kTotalSize;
    }
    if (entry) {
        readEntry(reader, element, traceFor(list));
        return false;
    }
    if (segment) {
        readSegment(reader, element);
        return false;
    }
    return true;
}

void SnapshotCollector::readEntryFields(Reader& reader, std::span<const Value> items, EntryFields& f) {
    // Values are scalars, strings and the frame list (or its token once read).
    SnapshotRawEntry& e = f.raw;
    for (size_t i = 0; i + 1 < items.size(); i += 2) {
        const Value& v = items[i + 1];
        switch (fieldOf(reader, items[i])) {
        case kAction: e.action = actionOf(reader, v), f.actionText = v; break;
        case kAddr: e.haveAddr = asInt(v, e.addr); break;
        case kSize: asInt(v, e.size); break;
        case kStream: asInt(v, f.stream); break;
        case kTimeUs: e.haveTime = asInt(v, e.timeUs); break;
        case kDeviceFree: asInt(v, e.deviceFree); break;
        case kFrames: e.list = listOf(reader, v); break;
        default: break;
        }
    }
}

void SnapshotCollector::emitEntry(Reader& reader, EntryFields& f, uint32_t trace) {
    ++m_entries;
    SnapshotRawEntry& e = m_batch.entries.emplace_back(f.raw);
    e.trace = trace;
    e.stream = static_cast<int32_t>(std::clamp<int64_t>(f.stream, INT32_MIN, INT32_MAX));
    // Paired elsewhere, except the report of an action not known (the pairing skips those).
    if ((e.action == SnapshotAction::Other || e.action == SnapshotAction::None) && e.haveAddr && e.addr != INT64_MIN)
        m_report.add("memory snapshot: trace entries with an unknown action (skipped)",
                     e.action == SnapshotAction::None ? std::string() : std::string(reader.str(f.actionText)));
    if (m_batch.entries.size() >= kBatchEntries)
        m_pairing->submit(m_batch);
}

void SnapshotCollector::readEntry(Reader& reader, const Value& entry, uint32_t trace) {
    EntryFields f;
    readEntryFields(reader, reader.items(entry), f);
    emitEntry(reader, f, trace);
}

bool SnapshotCollector::onDictItems(Reader& reader, const Value& dict, std::span<const Value> items) {
    // A trace entry (its first key is `action`, as PyTorch writes it) is read from the SETITEMS
    // itself: its items are never stored, and the dict stays an empty handle until its APPENDS
    // names its device list (onAppend). Another SETITEMS into the same dict adds to it.
    if (dict.u >= m_pendingBySlot.size())
        m_pendingBySlot.resize(std::max<size_t>(dict.u + 1, m_pendingBySlot.size() * 2));
    PendingEntry& p = m_pendingBySlot[dict.u];
    const bool pending = p.valid && p.gen == dict.gen;
    if (!pending) {
        if (items.size() < 2 || fieldOf(reader, items[0]) != kAction || reader.size(dict) != 0)
            return false;
        p = PendingEntry();
        p.valid = true;
        p.gen = dict.gen;
    }
    readEntryFields(reader, items, p.fields);
    return true;
}

void SnapshotCollector::readSegment(Reader& reader, const Value& segment) {
    MemorySnapshot& s = *m_snapshot;
    SnapshotSegment seg;
    seg.firstBlock = static_cast<uint32_t>(s.blocks.size());
    Value blocks;
    bool haveBlocks = false;
    for (size_t i = 0, n = reader.size(segment); i < n; ++i) {
        const Value v = reader.value(segment, i);
        int64_t x = 0;
        switch (fieldOf(reader, reader.key(segment, i))) {
        case kDevice: asInt(v, x), seg.device = static_cast<int16_t>(std::clamp<int64_t>(x, -1, 32767)); break;
        case kAddress: asInt(v, seg.addr); break;
        case kTotalSize: asInt(v, seg.totalSize); break;
        case kAllocatedSize: asInt(v, seg.allocatedSize); break;
        case kActiveSize: asInt(v, seg.activeSize); break;
        case kRequestedSize: asInt(v, seg.requestedSize); break;
        case kStream: asInt(v, x), seg.stream = static_cast<int32_t>(std::clamp<int64_t>(x, INT32_MIN, INT32_MAX)); break;
        case kSegmentType: seg.segmentType = intern(reader.str(v)); break;
        case kExpandable: seg.expandable = v.kind == Kind::Bool && v.i; break;
        case kFrames: seg.stack = listOf(reader, v); break; // a list number until finish()
        case kBlocks: blocks = v, haveBlocks = true; break;
        default: break;
        }
    }
    // The blocks were read when the list was set into the segment (onSetItem): here their range.
    if (haveBlocks && blocks.kind != Kind::Token)
        blocks = Value::token(readBlocks(reader, segment, blocks));
    if (haveBlocks && (blocks.u & kTokenTag) == kBlocksToken) {
        seg.firstBlock = static_cast<uint32_t>((blocks.u & ~kTokenTag) >> 24);
        seg.blockCount = static_cast<uint32_t>(blocks.u & 0xffffff);
    }
    s.segments.push_back(seg);
}

uint64_t SnapshotCollector::readBlocks(Reader& reader, const Value& segment, const Value& blocks) {
    MemorySnapshot& s = *m_snapshot;
    const size_t first = s.blocks.size();
    Value address;
    int64_t nextAddr = 0; // blocks without an address follow each other from the segment's
    if (reader.get(segment, "address", address))
        asInt(address, nextAddr);
    for (size_t b = 0, n = reader.size(blocks); b < n; ++b) {
        const Value bd = reader.item(blocks, b);
        if (bd.kind == Kind::Token && (bd.u & kTokenTag) == kBlockToken) { // a block dict read before
            s.blocks.push_back(s.blocks[static_cast<size_t>(bd.u & ~kTokenTag)]);
            continue;
        }
        if (bd.kind != Kind::Dict)
            continue;
        SnapshotBlock block;
        block.addr = nextAddr;
        for (size_t i = 0, m = reader.size(bd); i < m; ++i) {
            const Value v = reader.value(bd, i);
            switch (fieldOf(reader, reader.key(bd, i))) {
            case kAddress:
            case kAddr: asInt(v, block.addr); break;
            case kSize: asInt(v, block.size); break;
            case kRequestedSize: asInt(v, block.requestedSize); break;
            case kFrames: block.stack = listOf(reader, v); break; // a list number until finish()
            case kState: {
                const std::string_view st = reader.str(v);
                block.state = st == "active_allocated"      ? SnapshotBlockState::ActiveAllocated
                              : st == "active_pending_free" ? SnapshotBlockState::ActivePending
                              : st == "inactive"            ? SnapshotBlockState::Inactive
                                                            : SnapshotBlockState::Unknown;
                break;
            }
            default: break;
            }
        }
        nextAddr = block.addr + block.size;
        // Read: the dict becomes a token for any later reference (PyTorch makes none).
        reader.forward(bd, Value::token(kBlockToken | s.blocks.size()), true);
        s.blocks.push_back(block);
    }
    const size_t count = std::min<size_t>(s.blocks.size() - first, 0xffffff);
    if (count < s.blocks.size() - first)
        m_report.add("memory snapshot: a segment with more than 16 M blocks (the rest not shown)");
    const uint64_t token = kBlocksToken | (uint64_t(first) << 24) | count;
    // The list too: a segment that shares it (a later memo reference) gets the same range.
    reader.forward(blocks, Value::token(token), true);
    return token;
}


std::string SnapshotCollector::text(Reader& reader, const Value& v, int depth) const {
    switch (v.kind) {
    case Kind::None: return "None";
    case Kind::Bool: return v.i ? "True" : "False";
    case Kind::Int: return std::to_string(v.i);
    case Kind::Float: {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%g", v.f);
        return buf;
    }
    case Kind::Str:
    case Kind::Bytes: return std::string(reader.str(v));
    case Kind::List:
    case Kind::Tuple:
    case Kind::Dict: {
        if (depth > 3)
            return "...";
        std::string out = v.kind == Kind::Dict ? "{" : "[";
        for (size_t i = 0, n = reader.size(v); i < n && out.size() < 400; ++i) {
            if (i)
                out += ", ";
            if (v.kind == Kind::Dict)
                out += text(reader, reader.key(v, i), depth + 1) + ": " + text(reader, reader.value(v, i), depth + 1);
            else
                out += text(reader, reader.item(v, i), depth + 1);
        }
        return out + (v.kind == Kind::Dict ? "}" : "]");
    }
    case Kind::Token: break;
    }
    return {};
}

void SnapshotCollector::readSettings(Reader& reader, const Value& settings) {
    for (size_t i = 0, n = reader.size(settings); i < n; ++i)
        m_snapshot->allocatorSettings.emplace_back(text(reader, reader.key(settings, i)),
                                                   text(reader, reader.value(settings, i)));
}

std::shared_ptr<MemorySnapshot> SnapshotCollector::finish(Reader& reader, const Value* root) {
    MemorySnapshot& s = *m_snapshot;
    // The last entries to the pairing, and wait for it: from here on everything is this thread's.
    if (!m_batch.empty())
        m_pairing->submit(m_batch);
    m_pairing->finish();
    m_batch = {};
    std::vector<std::unique_ptr<SnapshotDeviceTrace>> traces;
    for (auto& t : m_pairing->traces())
        if (t)
            traces.push_back(std::move(t));
    // Segments and blocks hold their frame list numbers: now stacks.
    for (SnapshotSegment& seg : s.segments)
        seg.stack = m_pairing->stackOfList(seg.stack);
    for (SnapshotBlock& block : s.blocks)
        block.stack = m_pairing->stackOfList(block.stack);
    // Devices of the trace lists: their place in device_traces.
    bool mapped = false;
    if (root && root->kind == Kind::Dict) {
        Value traceLists, settings;
        if (reader.get(*root, "device_traces", traceLists) &&
            (traceLists.kind == Kind::List || traceLists.kind == Kind::Tuple)) {
            for (size_t d = 0; d < reader.size(traceLists); ++d) {
                const Value list = reader.item(traceLists, d);
                if (auto it = m_traceByList.find(listKey(list)); it != m_traceByList.end() && list.isContainer())
                    for (auto& t : traces)
                        if (t->ordinal == it->second)
                            t->device = static_cast<int16_t>(std::min<size_t>(d, 32767));
            }
            mapped = true;
        }
        if (reader.get(*root, "allocator_settings", settings) && settings.kind == Kind::Dict)
            readSettings(reader, settings);
    }
    for (auto& t : traces)
        if (t->device < 0) {
            t->device = static_cast<int16_t>(std::min<uint32_t>(t->ordinal, 32767));
            if (mapped)
                m_report.add("memory snapshot: a trace list outside device_traces (its order taken as its device)");
        }
    if (!mapped && !traces.empty())
        m_report.addNote("memory snapshot: device_traces was not complete; each trace list's device is its order in the file");

    // Allocations alive before the trace and still active at the end: active blocks the trace never
    // allocated (memory_viz's rule). Their size is the requested size, as the trace records.
    // With the trace cut short, an active block the read part never allocated may come from the
    // lost part: the rule does not hold, and the blocks stay out (the report says why).
    const bool traceCut = !root && !traces.empty();
    if (traceCut)
        m_report.add("memory snapshot: the trace is cut short, so blocks alive before its first entry cannot be told "
                     "from those allocated in its lost part; only the allocations of the part read are shown");
    for (const SnapshotSegment& seg : s.segments) {
        if (traceCut)
            break;
        const SnapshotDeviceTrace* trace = nullptr;
        for (auto& t : traces)
            if (t->device == seg.device)
                trace = t.get();
        for (uint32_t b = seg.firstBlock; b < seg.firstBlock + seg.blockCount; ++b) {
            const SnapshotBlock& block = s.blocks[b];
            if (block.state != SnapshotBlockState::ActiveAllocated ||
                (trace && trace->open.find(block.addr) != AddressMap::kMissing))
                continue;
            SnapshotAllocation& a = s.allocations.emplace_back();
            a.addr = block.addr;
            a.size = block.requestedSize > 0 ? block.requestedSize : block.size;
            a.stack = block.stack;
            a.stream = seg.stream;
            a.device = seg.device;
        }
    }
    for (auto& t : traces) {
        for (uint32_t i : t->allocations)
            s.allocations[i].device = t->device;
        for (uint32_t i : t->segmentEvents)
            s.segmentEvents[i].device = t->device;
        for (uint32_t i : t->ooms)
            s.ooms[i].device = t->device;
    }
    // Allocations by (device, start): before-the-trace ones first, then trace order.
    // Allocations and segment entries stay in the order they were read (the change orders index them).
    for (auto& t : traces)
        if (t->seq > 0)
            m_orders.emplace_back(t->device, std::move(t->order));
    std::vector<int16_t> devices;
    for (const SnapshotSegment& seg : s.segments)
        devices.push_back(seg.device);
    for (auto& t : traces)
        if (t->seq > 0)
            devices.push_back(t->device);
    std::sort(devices.begin(), devices.end());
    devices.erase(std::unique(devices.begin(), devices.end()), devices.end());
    s.devices = std::move(devices);
    bool first = true;
    for (const SnapshotAllocation& a : s.allocations)
        for (int64_t t : {a.allocUs, a.freeRequestedUs, a.freeUs})
            if (t != SnapshotAllocation::kBeforeTrace && t != SnapshotAllocation::kNeverFreed) {
                s.firstUs = first ? t : std::min(s.firstUs, t);
                s.lastUs = first ? t : std::max(s.lastUs, t);
                first = false;
            }
    for (const auto* v : {&s.segmentEvents})
        for (const SnapshotSegmentEvent& e : *v) {
            s.firstUs = first ? e.timeUs : std::min(s.firstUs, e.timeUs);
            s.lastUs = first ? e.timeUs : std::max(s.lastUs, e.timeUs);
            first = false;
        }
    for (const SnapshotOom& o : s.ooms) {
        s.firstUs = first ? o.timeUs : std::min(s.firstUs, o.timeUs);
        s.lastUs = first ? o.timeUs : std::max(s.lastUs, o.timeUs);
        first = false;
    }
    s.traceEntries = m_entries;
    // The tables grew by doubling while the file was read: up to half of each is spare room, which
    // would still be held when the allocator records are written, the import's peak. Copied to
    // their size now, while memory is lower (the unpickler's is about to go).
    s.segmentEvents.shrink_to_fit();
    s.stackFrames.shrink_to_fit();
    s.stackStart.shrink_to_fit();
    s.frames.shrink_to_fit();
    s.blocks.shrink_to_fit();
    s.segments.shrink_to_fit();
    s.ooms.shrink_to_fit();
    if (m_pairing->allocatedTwice())
        m_report.add("memory snapshot: an address allocated again before it was freed (the first allocation ends there)",
                     {}, m_pairing->allocatedTwice());
    if (m_pairing->badEntries())
        m_report.add("memory snapshot: trace entries without an address (skipped)", {}, m_pairing->badEntries());
    if (m_pairing->withoutTime())
        m_report.addNote("memory snapshot: trace entries without time_us (PyTorch before 2.1) are placed 1 µs apart");
    // The pairing maps and interning indexes are no longer needed (memory for the rest of the import).
    traces.clear();
    m_pairing.reset();
    m_traceByList.clear();
    m_stringIds = {};
    m_frameIds = {};
    m_fieldByString = {};
    m_actionByString = {};
    m_pendingBySlot = {};
    return m_snapshot;
}

} // namespace ws
