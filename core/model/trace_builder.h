#pragma once

#include "model/chunk_result.h"
#include "model/session.h"
#include "model/trace_format.h"

#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ws {

/*
 * TraceBuilder: the format-agnostic, mutable side of a Session. Readers feed it parsed records
 * (ChunkResult, in file order) and top-level metadata; finish() pairs B/E and async events, sorts
 * each track, assigns depth and lanes, binds flows to slices, applies metadata and returns the
 * immutable Session. Merging is O(records); finish() is O(n log n) per track, tracks in parallel.
 */
class TraceBuilder {
public:
    TraceBuilder(std::string sourcePath, TraceFormat format);
    ~TraceBuilder();

    // Merges one chunk; chunks must arrive in file order (determinism of ties).
    void addChunk(ChunkResult& chunk);
    // Strings of a worker's local ids first..first+n-1 without a chunk (a chunk of that worker
    // whose firstNewString follows them comes next): for strings the caller shares, not copies.
    void addStrings(uint32_t worker, uint32_t first, const std::vector<std::string>& strings);
    // Top-level members of the JSON object other than traceEvents (raw JSON text).
    void setTopLevelMembers(const std::vector<std::pair<std::string, std::string>>& members);
    ImportReport& report();
    // For importers of non-JSON sources (Nsight Systems, nvprof, captures), which feed ChunkResults
    // they build themselves: the devices they read, and where event arguments come from.
    void setDevices(std::vector<DeviceInfo> devices);
    void setEventTextSource(std::shared_ptr<const EventTextSource> source);
    // The importer fills the argument columns (arg_columns.h) of every X slice it reads; the
    // session has them (Session::argColumns) unless a slice's arguments could not be kept there.
    void setArgColumns(bool on) { m_argColumns = on; }
    // The import is going to be stored: the session keeps what the chunks prepared for the store
    // (Session::storePreparation): their spans, and their args packed at zstd level `packedLevel`
    // (nullopt: the chunks do not pack them).
    void prepareForStore(std::optional<int> packedLevel);
    // The source's hash over every byte the import read (StorePreparation::sourceHash).
    void setSourceHash(const StorePreparation::SourceHash& hash);
    // The allocator snapshot a PyTorch memory snapshot import read (memory_snapshot.h).
    void setMemorySnapshot(std::shared_ptr<const MemorySnapshot> snapshot);

    // Room for this many more flow ends, for an importer that knows (a growing vector would briefly
    // hold twice its size: on a large trace, a large share of the import's peak memory).
    void reserveFlows(size_t more) { m_flows.reserve(m_flows.size() + more); }
    // The same for allocator records (a memory snapshot knows its count before feeding them).
    void reserveMemoryEvents(size_t more);
    // Room in every track's columns, the pending flows and the memory events for what the whole
    // source will give, when `share` (0..1] of it has been added. A column of millions of slices
    // grown by doubling is copied each time and touches about twice its final memory, a large part
    // of a 10 GB import. Room that stays unused is never touched, so costs no memory, and a finished
    // vector gives it back (vector_slack.h): where the projection is more than the room, twice it is
    // reserved, so that a later call at a larger share seldom copies again. A vector's projection is
    // its count plus the rest of the source at the rate it grew since the previous call, where that
    // is more than its rate over the whole share: a thread that begins late in the file (the 10 GB
    // trace's second largest, 7.2 M slices, after a 16th) is not projected over the share before it.
    void reserveForShare(double share);

    // Flows from the correlation column (Track::correlation): after the tracks are final, the
    // slices with a correlation are linked as flows of this category with it as the id, a runtime
    // call's (EventKind::Runtime) being the start and any other's the end, each bound as an
    // enclosing end at its slice's start (as a FlowEnd record with bindEnclosing at the slice's time
    // would be). An importer that sets the column on exactly its flow ends then sends no FlowEnd
    // records for them: on a large XSpace those were millions of pending ends (73 MB on a 525 MB
    // file) held beside the whole model, the import's peak. Ends of one id at one time and of one
    // kind are ordered by track (FlowEnd records: by file order).
    void setCorrelationFlows(std::string category) { m_correlationFlowCategory = std::move(category); }

    std::shared_ptr<Session> finish(unsigned threads);
    // Seconds spent in each phase of finish() (for bench-import).
    const std::vector<std::pair<std::string, double>>& timings() const { return m_timings; }

private:
    struct TrackKey {
        IdValue pid;
        IdValue tid;
        uint8_t kind;
        bool operator==(const TrackKey&) const = default;
    };
    struct TrackKeyHash {
        size_t operator()(const TrackKey& k) const noexcept;
    };
    struct CounterKey {
        uint32_t process;
        StringId name;
        StringId series;
        bool operator==(const CounterKey&) const = default;
    };
    struct CounterKeyHash {
        size_t operator()(const CounterKey& k) const noexcept;
    };
    struct PendingBE {
        int64_t ts;
        uint64_t argRef;
        uint64_t seq;
        uint32_t track;
        StringId name;
        uint16_t category;
        char ph;
    };
    // 32 bytes (was 40): a large trace holds millions until bindFlows, beside the whole model.
    struct PendingFlow {
        int64_t ts; // bindFlows replaces it by the bound slice (kNoId: none) once the end is bound
        uint64_t id;
        uint64_t seq : 48; // file order, to break ties: 2.8e14 events are out of reach
        uint64_t ph : 8;
        uint64_t bindEnclosing : 1;
        uint64_t idIsString : 1;
        uint32_t track;
        StringId category;
    };
    static_assert(sizeof(PendingFlow) == 32);
    struct PendingAsync {
        int64_t ts;
        uint64_t seq;
        uint64_t id;
        uint64_t argRef;
        uint32_t process;
        StringId category;
        StringId name;
        char ph;
        bool idIsString;
    };

    uint32_t processFor(const IdValue& pid);
    uint32_t trackFor(const IdValue& pid, const IdValue& tid, uint8_t kind);
    uint16_t categoryFor(StringId cat);
    IdValue globalId(const IdValue& local, const std::vector<StringId>& remap) const;
    void appendSlice(Track& t, int64_t ts, int64_t dur, StringId name, uint16_t cat, uint64_t argRef);
    // appendSlice for a slice paired from B/E or async events (no argument columns).
    void appendArgSlice(Track& t, int64_t ts, int64_t dur, StringId name, uint16_t cat, uint64_t argRef);

    void applyMetadata();
    void pairBeginEnd();
    void pairAsync();
    void finalizeTracks(unsigned threads);
    void bindFlows(unsigned threads);
    void bindCorrelationFlows(unsigned threads);
    void parseTopLevel();
    void buildFrames();
    void alignAmdDeviceNumbers();

    std::unique_ptr<Session> m_session;
    std::vector<std::vector<StringId>> m_workerStrings;
    std::unordered_map<IdValue, uint32_t, IdValueHash> m_processIndex;
    std::unordered_map<TrackKey, uint32_t, TrackKeyHash> m_trackIndex;
    std::unordered_map<StringId, uint16_t> m_categoryIndex;
    std::unordered_map<CounterKey, uint32_t, CounterKeyHash> m_counterIndex;
    std::vector<PendingBE> m_beginEnds;
    std::vector<PendingFlow> m_flows;
    // reserveForShare's previous call: its share, and the counts then (slices by track, flow ends,
    // memory events).
    double m_reservedAtShare = 0;
    std::vector<size_t> m_slicesAtReserve;
    size_t m_flowsAtReserve = 0;
    size_t m_memoryEventsAtReserve = 0;
    std::vector<PendingAsync> m_asyncs;
    std::vector<ChunkResult::Meta> m_metas;
    std::string m_correlationFlowCategory; // setCorrelationFlows; empty: none
    bool m_argColumns = false;     // the importer fills the argument columns
    bool m_argColumnsLost = false; // ... but a slice's arguments are not in them
    std::vector<std::pair<std::string, std::string>> m_members;
    std::vector<std::pair<std::string, double>> m_timings;
    int64_t m_minTs = INT64_MAX;
    int64_t m_maxTs = INT64_MIN;
};

} // namespace ws
