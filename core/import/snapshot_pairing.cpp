#include "import/snapshot_pairing.h"

#include "import/snapshot_collector.h"

#include <algorithm>

namespace ws {

namespace {
// Batches waiting at most: the reader runs this far ahead of the pairing, no further.
constexpr size_t kMaxWaiting = 4;
// Entries whose address slot is fetched ahead of their pairing.
constexpr size_t kPrefetchAhead = 8;
} // namespace

SnapshotPairing::SnapshotPairing(MemorySnapshot& snapshot, bool threaded) : m_snapshot(snapshot) {
    if (threaded)
        m_thread = std::thread([this] { run(); });
}

SnapshotPairing::~SnapshotPairing() {
    if (m_thread.joinable()) {
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            m_done = true;
        }
        m_changed.notify_all();
        m_thread.join();
    }
}

void SnapshotPairing::submit(SnapshotRecordBatch& batch) {
    if (!m_thread.joinable()) {
        pair(batch);
        batch.clear();
        return;
    }
    std::unique_lock<std::mutex> lock(m_mutex);
    m_changed.wait(lock, [&] { return m_waiting.size() < kMaxWaiting || m_error; });
    m_waiting.push_back(std::move(batch));
    if (!m_spare.empty()) {
        batch = std::move(m_spare.back());
        m_spare.pop_back();
    } else {
        batch = SnapshotRecordBatch();
    }
    batch.clear();
    lock.unlock();
    m_changed.notify_all();
}

void SnapshotPairing::finish() {
    if (m_thread.joinable()) {
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            m_done = true;
        }
        m_changed.notify_all();
        m_thread.join();
    }
    m_spare.clear();
    if (m_error)
        std::rethrow_exception(m_error);
}

void SnapshotPairing::run() {
    std::unique_lock<std::mutex> lock(m_mutex);
    for (;;) {
        m_changed.wait(lock, [&] { return !m_waiting.empty() || m_done; });
        if (m_waiting.empty())
            return; // done
        SnapshotRecordBatch batch = std::move(m_waiting.front());
        m_waiting.pop_front();
        lock.unlock();
        m_changed.notify_all();
        try {
            if (!m_error)
                pair(batch);
        } catch (...) {
            m_error = std::current_exception(); // read by finish() after the join
        }
        batch.clear();
        lock.lock();
        m_spare.push_back(std::move(batch));
    }
}

void SnapshotPairing::pair(const SnapshotRecordBatch& batch) {
    // New frame lists first: an entry of this batch may name one.
    size_t at = 0;
    for (uint32_t n : batch.listSizes) {
        m_listStack.push_back(n == 0 ? 0 : internStack(batch.listFrames.data() + at, n));
        at += n;
    }
    // Each entry costs a lookup of its address among the open allocations, scattered over a large
    // table: the slots of the entries a few places on are fetched while this one is paired.
    const auto& entries = batch.entries;
    for (size_t k = 0; k < entries.size(); ++k) {
        if (k + kPrefetchAhead < entries.size()) {
            const SnapshotRawEntry& ahead = entries[k + kPrefetchAhead];
            if (ahead.trace < m_traces.size() && m_traces[ahead.trace])
                m_traces[ahead.trace]->open.prefetch(ahead.addr);
        }
        pairEntry(entries[k], trace(entries[k].trace));
    }
}

SnapshotDeviceTrace& SnapshotPairing::trace(uint32_t index) {
    if (index >= m_traces.size())
        m_traces.resize(index + 1);
    if (!m_traces[index]) {
        m_traces[index] = std::make_unique<SnapshotDeviceTrace>();
        m_traces[index]->ordinal = index;
    }
    return *m_traces[index];
}

uint32_t SnapshotPairing::internStack(const uint32_t* frames, size_t n) {
    uint64_t h = 0x9e3779b97f4a7c15ull ^ n;
    for (size_t i = 0; i < n; ++i) {
        h = (h ^ frames[i]) * 0xff51afd7ed558ccdull;
        h ^= h >> 29;
    }
    // Stacks by hash of their frame ids in an open-addressing table (one probe, no node to follow);
    // a hash collision is told apart by comparing the frames themselves.
    MemorySnapshot& s = m_snapshot;
    if ((m_stackTable.size() >> 1) <= s.stackCount()) { // keep it at most half full
        std::vector<StackSlot> grown(std::max<size_t>(1024, m_stackTable.size() * 2));
        for (const StackSlot& slot : m_stackTable)
            if (slot.id != 0)
                for (size_t i = slot.hash & (grown.size() - 1);; i = (i + 1) & (grown.size() - 1))
                    if (grown[i].id == 0) {
                        grown[i] = slot;
                        break;
                    }
        m_stackTable = std::move(grown);
    }
    const size_t mask = m_stackTable.size() - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
        StackSlot& slot = m_stackTable[i];
        if (slot.id == 0) {
            const auto id = static_cast<uint32_t>(s.stackCount());
            slot.hash = h;
            slot.id = id + 1;
            s.stackFrames.insert(s.stackFrames.end(), frames, frames + n);
            s.stackStart.push_back(static_cast<uint32_t>(s.stackFrames.size()));
            return id;
        }
        if (slot.hash != h)
            continue;
        const uint32_t known = slot.id - 1;
        if (s.stackSize(known) == n && std::equal(frames, frames + n, s.stackFrames.begin() + s.stackStart[known]))
            return known;
    }
}

void SnapshotPairing::pairEntry(const SnapshotRawEntry& e, SnapshotDeviceTrace& trace) {
    using A = SnapshotAction;
    int64_t timeUs = e.timeUs;
    const int64_t addr = e.addr;
    const uint32_t seq = ++trace.seq;
    if (!e.haveTime) {
        // Snapshots before PyTorch 2.1 have no time_us: entries are placed 1 µs apart in order.
        ++m_withoutTime;
        timeUs = trace.lastUs + 1;
    }
    trace.lastUs = timeUs;
    MemorySnapshot& s = m_snapshot;
    const uint32_t stack = stackOfList(e.list);
    auto newAllocation = [&](int64_t allocUs, uint32_t allocSeq) -> SnapshotAllocation& {
        trace.allocations.push_back(static_cast<uint32_t>(s.allocations.size()));
        SnapshotAllocation& a = s.allocations.emplace_back();
        a.addr = addr;
        a.size = e.size;
        a.allocUs = allocUs;
        a.allocSeq = allocSeq;
        a.stack = stack;
        a.stream = e.stream;
        return a;
    };
    if (e.action == A::Oom) {
        // The oom entry has device_free where the others have addr.
        trace.ooms.push_back(static_cast<uint32_t>(s.ooms.size()));
        SnapshotOom o;
        o.timeUs = timeUs;
        o.seq = seq;
        o.size = e.size;
        o.deviceFree = e.deviceFree;
        o.stack = stack;
        o.stream = e.stream;
        s.ooms.push_back(o);
        return;
    }
    if ((!e.haveAddr && e.action != A::Snapshot) || addr == INT64_MIN) { // INT64_MIN: a clamped address
        ++m_badEntries;
        return;
    }
    switch (e.action) {
    case A::Alloc: {
        if (trace.open.find(addr) != AddressMap::kMissing) // allocated twice: the first one's free is lost
            ++m_allocatedTwice;
        const auto index = static_cast<uint32_t>(s.allocations.size());
        trace.open.set(addr, index);
        trace.order.push_back(SnapshotChangeOrder::alloc(index));
        newAllocation(timeUs, seq);
        break;
    }
    case A::FreeRequested:
        if (const uint32_t open = trace.open.find(addr); open != AddressMap::kMissing) {
            s.allocations[open].freeRequestedUs = timeUs;
        } else if (!trace.requestedOnly.count(addr)) {
            trace.requestedOnly[addr] = static_cast<uint32_t>(s.allocations.size());
            newAllocation(SnapshotAllocation::kBeforeTrace, 0).freeRequestedUs = timeUs;
        }
        break;
    case A::FreeCompleted: {
        uint32_t index = trace.open.find(addr);
        if (index != AddressMap::kMissing) {
            trace.open.erase(addr);
        } else if (auto r = trace.requestedOnly.find(addr); r != trace.requestedOnly.end()) {
            index = r->second;
            trace.requestedOnly.erase(r);
        } else {
            index = static_cast<uint32_t>(s.allocations.size());
            newAllocation(SnapshotAllocation::kBeforeTrace, 0).freeRequestedUs = timeUs;
        }
        trace.order.push_back(SnapshotChangeOrder::free(index));
        SnapshotAllocation& a = s.allocations[index];
        a.freeUs = timeUs;
        a.freeSeq = seq;
        if (a.freeRequestedUs == SnapshotAllocation::kNeverFreed)
            a.freeRequestedUs = timeUs;
        break;
    }
    case A::SegmentAlloc:
    case A::SegmentFree:
    case A::SegmentMap:
    case A::SegmentUnmap: {
        SnapshotSegmentEvent ev;
        ev.timeUs = timeUs;
        ev.seq = seq;
        ev.addr = addr;
        ev.size = e.size;
        ev.stream = e.stream;
        ev.action = e.action == A::SegmentAlloc  ? SnapshotSegmentAction::Alloc
                    : e.action == A::SegmentFree ? SnapshotSegmentAction::Free
                    : e.action == A::SegmentMap  ? SnapshotSegmentAction::Map
                                                 : SnapshotSegmentAction::Unmap;
        trace.segmentEvents.push_back(static_cast<uint32_t>(s.segmentEvents.size()));
        trace.order.push_back(SnapshotChangeOrder::segment(static_cast<uint32_t>(s.segmentEvents.size())));
        s.segmentEvents.push_back(ev);
        break;
    }
    default: break; // snapshot entries; unknown actions (reported by the collector)
    }
}

} // namespace ws
