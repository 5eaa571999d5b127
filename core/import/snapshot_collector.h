#pragma once

#include "io/pickle_reader.h"
#include "model/import_report.h"
#include "model/memory_snapshot.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ws {

/*
 * SnapshotChangeOrder: one allocator record of a device trace, in trace order: an allocation's
 * alloc or free_completed entry (index into MemorySnapshot::allocations) or a segment entry (index
 * into segmentEvents), in 4 bytes. The importer turns them into allocator records without sorting.
 */
struct SnapshotChangeOrder {
    enum Kind : uint32_t { Alloc = 0, Free = 1, Segment = 2 };
    static uint32_t alloc(uint32_t i) { return (uint32_t(Alloc) << 30) | i; }
    static uint32_t free(uint32_t i) { return (uint32_t(Free) << 30) | i; }
    static uint32_t segment(uint32_t i) { return (uint32_t(Segment) << 30) | i; }
    static Kind kind(uint32_t code) { return static_cast<Kind>(code >> 30); }
    static uint32_t index(uint32_t code) { return code & ((1u << 30) - 1); }
};

/*
 * SnapshotCollector: the pickle::Visitor that turns a PyTorch memory snapshot into a MemorySnapshot
 * while the pickle is read, so the file's records never exist as a tree:
 *
 *   - a dict appended to a list that has an `action` key is a trace entry: paired on the spot
 *     (per device list, by address: alloc -> free_requested -> free_completed) and consumed;
 *   - a dict appended to a list with `blocks` or `total_size` is a segment: read with its blocks
 *     and consumed;
 *   - a `frames` list is interned by content into a stack the moment it is set into its dict, and
 *     forwarded to a token: the next memo reference to the same list (PyTorch shares one list per
 *     traceback) costs a lookup; frame dicts are interned and forwarded the same way.
 *
 * finish(root) then maps the device trace lists to their devices (their position in
 * `device_traces`; in trace-list order when the file was cut before that list was complete), adds
 * the blocks that were allocated before the trace began (memory_viz's rule: a block freed in the
 * trace but never allocated in it, or active at the end but never allocated in it, was alive from
 * the start) and reads `allocator_settings`. Problems go to the report, never throw.
 */
class SnapshotCollector : public pickle::Visitor {
public:
    explicit SnapshotCollector(ImportReport& report);
    ~SnapshotCollector() override;

    bool onAppend(pickle::Reader& reader, const pickle::Value& list, const pickle::Value& element) override;
    void onSetItem(pickle::Reader& reader, const pickle::Value& dict, const pickle::Value& key,
                   pickle::Value& value) override;

    // Completes the snapshot; `root` is the unpickled top-level value when the read completed.
    std::shared_ptr<MemorySnapshot> finish(pickle::Reader& reader, const pickle::Value* root);
    // Whether anything of a snapshot was seen (a trace entry or a segment).
    bool sawSnapshot() const { return m_entries > 0 || !m_snapshot->segments.empty(); }
    // After finish(): per device, its allocator records in trace order (SnapshotChangeOrder codes).
    std::vector<std::pair<int16_t, std::vector<uint32_t>>>& changeOrders() { return m_orders; }
    uint64_t entries() const { return m_entries; }

private:
    enum Field : uint8_t;
    enum class Action : uint8_t {
        None, Other, Alloc, FreeRequested, FreeCompleted, SegmentAlloc, SegmentFree, SegmentMap, SegmentUnmap,
        Snapshot, Oom,
    };
    Action actionOf(pickle::Reader& reader, const pickle::Value& v);
    struct DeviceTrace; // pairing state of one device trace list
    Field fieldOf(pickle::Reader& reader, const pickle::Value& key);
    uint32_t stackOf(pickle::Reader& reader, const pickle::Value& frames);
    uint32_t frameOf(pickle::Reader& reader, const pickle::Value& frameDict);
    uint32_t intern(std::string_view text);
    DeviceTrace& traceFor(const pickle::Value& list);
    void readEntry(pickle::Reader& reader, const pickle::Value& entry, DeviceTrace& trace);
    void readSegment(pickle::Reader& reader, const pickle::Value& segment);
    // Reads a segment's block list into MemorySnapshot::blocks; returns the token of their range.
    uint64_t readBlocks(pickle::Reader& reader, const pickle::Value& segment, const pickle::Value& blocks);
    void readSettings(pickle::Reader& reader, const pickle::Value& settings);
    std::string text(pickle::Reader& reader, const pickle::Value& v, int depth = 0) const;

    ImportReport& m_report;
    std::shared_ptr<MemorySnapshot> m_snapshot;
    std::vector<uint8_t> m_fieldByString; // reader string id -> Field + 1 (0: not looked up yet)
    std::unordered_map<std::string_view, uint32_t> m_stringIds; // views into MemorySnapshot::strings
    std::vector<uint8_t> m_actionByString; // reader string id -> Action + 1 (0: not looked up yet)
    struct StackSlot {
        uint64_t hash = 0;
        uint32_t id = 0; // stack + 1; 0: empty
    };
    std::vector<StackSlot> m_stackTable; // stacks by the hash of their frame ids (open addressing)
    std::vector<uint32_t> m_frameScratch;              // the frame ids of the list being read
    std::unordered_map<uint64_t, uint32_t> m_frameIds;    // (function, file, line) packed -> frame
    std::vector<std::unique_ptr<DeviceTrace>> m_traces;
    std::unordered_map<uint64_t, uint32_t> m_traceByList; // (slot, gen) of the list -> m_traces index
    std::vector<std::pair<int16_t, std::vector<uint32_t>>> m_orders;
    uint64_t m_entries = 0;
    uint64_t m_badEntries = 0;
    uint64_t m_withoutTime = 0;
};

} // namespace ws
