#pragma once

#include "import/snapshot_pairing.h"
#include "io/pickle_reader.h"
#include "model/import_report.h"
#include "model/memory_snapshot.h"

#include <cstdint>
#include <memory>
#include <span>
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
 *   - a dict appended to a list that has an `action` key is a trace entry: its fields go into a
 *     SnapshotRawEntry and the dict is consumed; batches of entries go to SnapshotPairing, which
 *     pairs them (per device list, by address: alloc -> free_requested -> free_completed) on a
 *     thread of its own while the file is still being read;
 *   - a dict appended to a list with `blocks` or `total_size` is a segment: read with its blocks
 *     and consumed;
 *   - a `frames` list gets the next frame list number the moment it is set into its dict, its frame
 *     ids go to the pairing (which interns them into a stack), and it is forwarded to a token: the
 *     next memo reference to the same list (an allocation's free entries, its block) costs nothing;
 *     frame dicts are interned here by (function, file, line) and forwarded the same way.
 *
 * finish(root) then maps the device trace lists to their devices (their position in
 * `device_traces`; in trace-list order when the file was cut before that list was complete), adds
 * the blocks that were allocated before the trace began (memory_viz's rule: a block freed in the
 * trace but never allocated in it, or active at the end but never allocated in it, was alive from
 * the start) and reads `allocator_settings`. Problems go to the report, never throw.
 */
class SnapshotCollector : public pickle::Visitor {
public:
    // `threaded`: pair the entries on a second thread while the file is read.
    SnapshotCollector(ImportReport& report, bool threaded);
    ~SnapshotCollector() override;

    bool onAppend(pickle::Reader& reader, const pickle::Value& list, const pickle::Value& element) override;
    void onSetItem(pickle::Reader& reader, const pickle::Value& dict, const pickle::Value& key,
                   pickle::Value& value) override;
    bool onDictItems(pickle::Reader& reader, const pickle::Value& dict, std::span<const pickle::Value> items) override;

    // Completes the snapshot; `root` is the unpickled top-level value when the read completed.
    std::shared_ptr<MemorySnapshot> finish(pickle::Reader& reader, const pickle::Value* root);
    // Whether anything of a snapshot was seen (a trace entry or a segment).
    bool sawSnapshot() const { return m_entries > 0 || !m_snapshot->segments.empty(); }
    // After finish(): per device, its allocator records in trace order (SnapshotChangeOrder codes).
    std::vector<std::pair<int16_t, SnapshotChangeCodes>>& changeOrders() { return m_orders; }
    uint64_t entries() const { return m_entries; }

private:
    enum Field : uint8_t {
        kOther, kAction, kAddr, kAddress, kSize, kStream, kTimeUs, kFrames, kDeviceFree, kDevice, kTotalSize,
        kAllocatedSize, kActiveSize, kRequestedSize, kSegmentType, kExpandable, kBlocks, kState, kName, kFilename,
        kLine,
    };
    // A key's field: by the reader's string id once the string was looked up (fieldOfText).
    Field fieldOf(pickle::Reader& reader, const pickle::Value& key) {
        if (key.kind == pickle::Kind::Str && key.u < m_fieldByString.size() && m_fieldByString[key.u])
            return static_cast<Field>(m_fieldByString[key.u] - 1);
        return fieldOfText(reader, key);
    }
    Field fieldOfText(pickle::Reader& reader, const pickle::Value& key);
    SnapshotAction actionOf(pickle::Reader& reader, const pickle::Value& v);
    // The frame list number of a `frames` value (0: empty or not a list).
    uint32_t listOf(pickle::Reader& reader, const pickle::Value& frames);
    uint32_t frameOf(pickle::Reader& reader, const pickle::Value& frameDict);
    uint32_t intern(std::string_view text);
    uint32_t traceFor(const pickle::Value& list);
    // A trace entry's fields as read, before its device list is known.
    struct EntryFields {
        SnapshotRawEntry raw;
        pickle::Value actionText;
        int64_t stream = 0;
    };
    // A trace entry read from its SETITEMS (onDictItems), by the reader's slot of its dict.
    struct PendingEntry {
        uint32_t gen = 0;
        bool valid = false;
        EntryFields fields;
    };
    void readEntryFields(pickle::Reader& reader, std::span<const pickle::Value> items, EntryFields& f);
    void emitEntry(pickle::Reader& reader, EntryFields& f, uint32_t trace);
    void readEntry(pickle::Reader& reader, const pickle::Value& entry, uint32_t trace);
    void readSegment(pickle::Reader& reader, const pickle::Value& segment);
    // Reads a segment's block list into MemorySnapshot::blocks; returns the token of their range.
    uint64_t readBlocks(pickle::Reader& reader, const pickle::Value& segment, const pickle::Value& blocks);
    void readSettings(pickle::Reader& reader, const pickle::Value& settings);
    std::string text(pickle::Reader& reader, const pickle::Value& v, int depth = 0) const;

    ImportReport& m_report;
    std::shared_ptr<MemorySnapshot> m_snapshot;
    std::unique_ptr<SnapshotPairing> m_pairing;
    SnapshotRecordBatch m_batch; // filling; handed over when full
    uint32_t m_nextList = 1;     // frame list numbers (0: the empty list)
    std::vector<uint8_t> m_fieldByString;  // reader string id -> Field + 1 (0: not looked up yet)
    std::vector<uint8_t> m_actionByString; // reader string id -> SnapshotAction + 1 (0: not looked up yet)
    std::vector<PendingEntry> m_pendingBySlot; // trace entries read, waiting for their APPENDS
    std::unordered_map<std::string_view, uint32_t> m_stringIds; // views into MemorySnapshot::strings
    std::unordered_map<uint64_t, uint32_t> m_frameIds;    // (function, file, line) packed -> frame
    std::unordered_map<uint64_t, uint32_t> m_traceByList; // (slot, gen) of the list -> trace index
    std::vector<std::pair<int16_t, SnapshotChangeCodes>> m_orders;
    uint64_t m_entries = 0;
};

} // namespace ws
