#pragma once

#include "import/address_map.h"
#include "import/snapshot_change_codes.h"
#include "model/memory_snapshot.h"

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <vector>

namespace ws {

/*
 * The second half of the memory snapshot import, on its own thread: while the unpickler reads the
 * file (SnapshotCollector, the first half), this pairs the trace entries it has read into
 * allocations and interns the frame lists into stacks. The two halves share nothing but the batches
 * handed over (and write disjoint members of the MemorySnapshot), so a 1 GB snapshot is read on two
 * cores, as the Chrome importer's chunks are.
 *
 * SnapshotAction: a trace entry's `action`. SnapshotRawEntry: one entry as the unpickler read it.
 * Frame lists are numbered in the order they are read (0: the empty list); an entry names its list
 * by number, and the list's frame ids arrive in the same batch or an earlier one.
 */
enum class SnapshotAction : uint8_t {
    None, Other, Alloc, FreeRequested, FreeCompleted, SegmentAlloc, SegmentFree, SegmentMap, SegmentUnmap,
    Snapshot, Oom,
};

struct SnapshotRawEntry {
    int64_t addr = 0;
    int64_t size = 0;
    int64_t timeUs = 0;
    int64_t deviceFree = -1;
    uint32_t list = 0; // frame list number
    int32_t stream = 0;
    uint32_t trace = 0; // the device trace list (its order of first entry)
    SnapshotAction action = SnapshotAction::None;
    bool haveTime = false;
    bool haveAddr = false;
};

struct SnapshotRecordBatch {
    std::vector<SnapshotRawEntry> entries;
    std::vector<uint32_t> listSizes;  // the frame lists first read in this batch, in number order
    std::vector<uint32_t> listFrames; // their frame ids, one list after the other
    bool empty() const { return entries.empty() && listSizes.empty(); }
    void clear() {
        entries.clear();
        listSizes.clear();
        listFrames.clear();
    }
};

/* The pairing state of one device's trace list. */
struct SnapshotDeviceTrace {
    uint32_t ordinal = 0;       // order of first entry among the trace lists
    int16_t device = -1;        // set by SnapshotCollector::finish()
    uint32_t seq = 0;           // entries read
    int64_t lastUs = 0;
    AddressMap open;                                     // addr -> allocation allocated in the trace, not yet freed
    std::unordered_map<int64_t, uint32_t> requestedOnly; // addr -> allocation from before the trace, free requested
    std::vector<uint32_t> allocations;                   // indices into MemorySnapshot::allocations
    std::vector<uint32_t> segmentEvents;
    std::vector<uint32_t> ooms;
    SnapshotChangeCodes order; // the allocator records in trace order (SnapshotChangeOrder encoding)
};

class SnapshotPairing {
public:
    // Writes allocations, segmentEvents, ooms, stackStart and stackFrames of `snapshot` (and no other
    // member). `threaded`: on a thread of its own; else each batch is paired as it is submitted.
    SnapshotPairing(MemorySnapshot& snapshot, bool threaded);
    ~SnapshotPairing();
    SnapshotPairing(const SnapshotPairing&) = delete;
    SnapshotPairing& operator=(const SnapshotPairing&) = delete;

    // Hands `batch` over and gives it back emptied (a recycled one: its room is kept). Blocks while
    // a few batches are already waiting, so memory stays bounded whatever the file's size.
    void submit(SnapshotRecordBatch& batch);
    // Waits until every batch is paired; rethrows what the thread threw. The rest is valid after it.
    void finish();

    uint32_t stackOfList(uint32_t list) const { return list < m_listStack.size() ? m_listStack[list] : 0; }
    std::vector<std::unique_ptr<SnapshotDeviceTrace>>& traces() { return m_traces; }
    uint64_t badEntries() const { return m_badEntries; }
    uint64_t withoutTime() const { return m_withoutTime; }
    uint64_t allocatedTwice() const { return m_allocatedTwice; }

private:
    struct StackSlot {
        uint64_t hash = 0;
        uint32_t id = 0; // stack + 1; 0: empty
    };
    void run();
    void pair(const SnapshotRecordBatch& batch);
    uint32_t internStack(const uint32_t* frames, size_t n);
    SnapshotDeviceTrace& trace(uint32_t index);
    void pairEntry(const SnapshotRawEntry& e, SnapshotDeviceTrace& trace);

    MemorySnapshot& m_snapshot;
    std::vector<uint32_t> m_listStack{0}; // frame list number -> stack
    std::vector<StackSlot> m_stackTable;  // stacks by the hash of their frame ids (open addressing)
    std::vector<std::unique_ptr<SnapshotDeviceTrace>> m_traces;
    uint64_t m_badEntries = 0;
    uint64_t m_withoutTime = 0;
    uint64_t m_allocatedTwice = 0;

    // Hand-over.
    std::thread m_thread;
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::deque<SnapshotRecordBatch> m_waiting; // submitted, not yet paired
    std::vector<SnapshotRecordBatch> m_spare;  // paired, for reuse
    bool m_done = false;
    std::exception_ptr m_error;
};

} // namespace ws
