#pragma once

#include "io/input_stream.h"
#include "model/counter_series.h"
#include "model/device_info.h"
#include "model/event_kind.h"
#include "model/event_text_source.h"
#include "model/flow.h"
#include "model/import_report.h"
#include "model/memory_event.h"
#include "model/memory_snapshot.h"
#include "model/process_info.h"
#include "model/source_frame.h"
#include "model/store_preparation.h"
#include "model/string_table.h"
#include "model/trace_format.h"
#include "model/track.h"

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace ws {

/*
 * Session: one imported trace, immutable after TraceBuilder::finish() and shared as
 * std::shared_ptr<const Session> between the GUI thread, analyses and views.
 *
 * Layout: processes (host processes, GPU devices, string pids), tracks (threads/streams/async
 * groups, each with columnar slices, see track.h), counter series, flows, memory events, the
 * string table, category table (StringId + EventKind per category index), source frames, trace
 * metadata (deviceProperties, distributedInfo, other top-level keys as raw JSON text) and the
 * ImportReport. All times are int64 ns on the session clock: absolute epoch ns when the trace
 * gives epoch times (Kineto: baseTimeNanoseconds + ts), else the trace's own zero.
 *
 * Memory: ~30-40 bytes per slice (columns), nothing per argument: argRef points back into the
 * source and eventJson() re-reads the event text on demand.
 */
class Session {
public:
    struct Category {
        StringId name = kEmptyString;
        EventKind kind = EventKind::Other;
    };

    TraceFormat format() const { return m_format; }
    // What the events were recorded as: format() for an import, the original format for a stored
    // session (a stored capture is still a capture to the analyses that care).
    TraceFormat sourceFormat() const { return m_sourceFormat; }
    const std::string& sourcePath() const { return m_sourcePath; }
    const ImportReport& report() const { return m_report; }
    // For the import that is building this session (trace_import.cpp adds what it learns after the
    // importer returned, e.g. that the file changed meanwhile); a shared session is never changed.
    ImportReport& reportDuringImport() { return m_report; }
    // The same for a memory snapshot of the same run placed beside the trace on its clock
    // (snapshot_beside_import.h), before the session is shared.
    void setMemorySnapshotDuringImport(std::shared_ptr<const MemorySnapshot> snapshot) {
        m_memorySnapshot = std::move(snapshot);
    }
    const StringTable& strings() const { return m_strings; }
    std::string_view str(StringId id) const { return m_strings.str(id); }

    const std::vector<ProcessInfo>& processes() const { return m_processes; }
    const std::vector<Track>& tracks() const { return m_tracks; }
    const std::vector<Category>& categories() const { return m_categories; }
    EventKind kindOf(const Track& t, size_t slice) const { return m_categories[t.category[slice]].kind; }
    const std::vector<CounterSeries>& counters() const { return m_counters; }
    const std::vector<Flow>& flows() const { return m_flows; }
    // Indices into flows() of the flows starting or ending at this slice (e.g. select a kernel,
    // find its launch). O(log flows).
    std::vector<uint32_t> flowsOf(uint32_t track, uint32_t slice) const;
    const std::vector<MemoryEvent>& memoryEvents() const { return m_memoryEvents; }
    const std::vector<DeviceInfo>& devices() const { return m_devices; }
    // The allocator snapshot behind a session read from a PyTorch memory snapshot; null otherwise.
    const MemorySnapshot* memorySnapshot() const { return m_memorySnapshot.get(); }
    std::shared_ptr<const MemorySnapshot> memorySnapshotShared() const { return m_memorySnapshot; }
    const std::optional<DistributedInfo>& distributedInfo() const { return m_distributed; }
    // Top-level keys other than traceEvents, as raw JSON text (e.g. "schemaVersion" -> "1").
    const std::map<std::string, std::string>& metadata() const { return m_metadata; }
    std::optional<int64_t> baseTimeNs() const { return m_baseTimeNs; }
    const std::string& displayTimeUnit() const { return m_displayTimeUnit; }
    // Parsed source location of a python_function name; nullptr if the name is not one.
    const SourceFrame* frameForName(StringId name) const;
    const std::unordered_map<StringId, SourceFrame>& frames() const { return m_frames; }

    // Number of trace events read from the input (all phases, including metadata and flow events).
    uint64_t sourceEventCount() const { return m_sourceEventCount; }
    uint64_t sliceCount() const;
    int64_t startNs() const { return m_startNs; }
    int64_t endNs() const { return m_endNs; }
    // Bytes held by the model (columns, strings, tables): what stays resident after import.
    size_t memoryBytes() const;

    // The JSON text of the event behind slice `slice` of `track` (arguments included), re-read from
    // the source file; empty if the source is gone or changed. A B/E slice's text is its B event's
    // with the E event's args merged in (endArgRef).
    std::string eventJson(const Track& track, size_t slice) const;
    std::string eventJsonAt(uint64_t argRef) const;
    // Whether eventJsonAt may be called from several threads at once at full speed each
    // (EventTextSource::parallelReads); a trace read back from its JSON text is not.
    bool eventTextReadsInParallel() const;
    // The argRef of the E event whose args merge into those of the slice with `argRef` (its B
    // event), Track::kNoArgs if none: a JSON source's duration slice whose E event has args. The
    // event text readers here merge them (mergeEndArgs); a stored session holds the merged text.
    // O(log pairs).
    uint64_t endArgRef(uint64_t argRef) const;
    // The slice's `args` as (key, value) pairs in file order, for a details pane: strings are
    // unquoted, everything else is compact JSON text. Empty if the event has none.
    std::vector<std::pair<std::string, std::string>> args(const Track& track, size_t slice) const;
    // Bulk form of args() for analyses over many events: reads the event texts in one pass in argRef
    // order (a JSON source is streamed once, a stored session decompresses each chunk once) and calls
    // fn(i, values) for each i with argRefs[i] != Track::kNoArgs, where values[k] is the text of
    // args[keys[k]] as args() gives it (strings unescaped, other values compact JSON), empty when
    // absent. Calls come in argRef order on the calling thread; the views die after each call.
    // Setting *stop ends the pass after the current event (a view closing while it reads).
    using ArgValuesFn = std::function<void(size_t index, const std::vector<std::string_view>& values)>;
    // The whole event texts, read the same way: fn(i, text, argRefs[i]) in argRef order; the text
    // dies after each call (an exporter copies what it keeps).
    using EventJsonFn = std::function<void(size_t index, std::string_view text, uint64_t argRef)>;
    void forEachEventJson(const std::vector<uint64_t>& argRefs, const EventJsonFn& fn,
                          const std::atomic<bool>* stop = nullptr) const;
    void forEachArgValues(const std::vector<uint64_t>& argRefs, const std::vector<std::string>& keys,
                          const ArgValuesFn& fn, const std::atomic<bool>* stop = nullptr) const;

    // True when Track::launchArgs and Track::opArgs (arg_columns.h) hold the kernel launch and
    // operator arguments of every slice: an empty column or kEmptyString then means the event had
    // none, and analyses read them there instead of from the source. False for importers that do
    // not fill them (they read forEachArgValues as before).
    bool argColumns() const { return m_argColumns; }

    // What an import that is going to be stored (ImportControl::forStore) prepared for the store
    // (store_preparation.h: where the args lie; with StorePrep::Packed, the args packed and the
    // source's hash); null otherwise.
    // Dropped once stored (about 25 bytes per event), by whoever stored it, while no other store of
    // it runs.
    const StorePreparation* storePreparation() const { return m_storePreparation.get(); }
    void dropStorePreparation() const { m_storePreparation.reset(); }

    // The analyses' results the session file carried (analysis/session_results.h decodes them):
    // computed when the session was stored, so a reopen shows them without recomputing. Empty for
    // an imported trace and for a session stored before results were cached.
    const std::string& storedResults() const { return m_storedResults; }

    // Enclosing slices of `slice` in its lane, outermost first (the stack a slice sits in; with
    // python_function slices this is the Python call stack, see frameForName). O(depth log n).
    std::vector<uint32_t> ancestors(const Track& track, uint32_t slice) const;
    // The same into `out` (cleared first), for callers walking millions of slices.
    void ancestors(const Track& track, uint32_t slice, std::vector<uint32_t>& out) const;
    // The slice's `Call stack` argument split into frames, innermost first; empty if none.
    std::vector<StackFrameText> callStack(const Track& track, uint32_t slice) const;

    // Human-readable labels for summaries and the track tree.
    std::string processLabel(const ProcessInfo& p) const;
    std::string trackLabel(const Track& t) const;

private:
    friend class TraceBuilder;
    friend class SessionStore;

    // Sorts the flow ends for flowsOf(), on up to `threads` threads; called once the flows are final.
    void rebuildFlowIndex(unsigned threads);
    // The event object at argRef in the JSON source, as read (no E args merged).
    std::string sourceObjectAt(uint64_t argRef) const;
    // For forEachEventJson: the E event texts of the requested slices that have one (endArgRef),
    // by the slice's argRef, read in one pass in E order.
    std::unordered_map<uint64_t, std::string> endObjectsFor(const std::vector<uint64_t>& argRefs,
                                                            const std::atomic<bool>* stop) const;

    TraceFormat m_format = TraceFormat::Unknown;
    TraceFormat m_sourceFormat = TraceFormat::Unknown;
    std::string m_sourcePath;
    ImportReport m_report;
    StringTable m_strings;
    std::vector<ProcessInfo> m_processes;
    std::vector<Track> m_tracks;
    std::vector<Category> m_categories;
    std::vector<CounterSeries> m_counters;
    std::vector<Flow> m_flows;
    std::vector<uint32_t> m_flowsByEnd; // flow indices sorted by (track, slice) of from, then of to
    std::vector<MemoryEvent> m_memoryEvents;
    std::vector<DeviceInfo> m_devices;
    std::shared_ptr<const MemorySnapshot> m_memorySnapshot;
    std::optional<DistributedInfo> m_distributed;
    std::map<std::string, std::string> m_metadata;
    std::optional<int64_t> m_baseTimeNs;
    std::string m_displayTimeUnit;
    std::unordered_map<StringId, SourceFrame> m_frames;
    uint64_t m_sourceEventCount = 0;
    bool m_argColumns = false;
    mutable std::unique_ptr<StorePreparation> m_storePreparation;
    std::string m_storedResults; // encoded, see storedResults()
    // Where event text comes from when it is not the JSON source file (a stored session).
    std::shared_ptr<const EventTextSource> m_eventText;
    // (B argRef, E argRef) of the duration slices whose E event has args to merge, sorted by B.
    std::vector<std::pair<uint64_t, uint64_t>> m_endArgRefs;
    // Decoder checkpoints of a gzip source by text position, made by eventJsonAt as it inflates,
    // so looking up a late event again does not inflate from the start (a cache, hence mutable).
    mutable std::mutex m_checkpointMutex;
    mutable std::map<uint64_t, std::shared_ptr<const InputStream::Checkpoint>> m_checkpoints;
    int64_t m_startNs = 0;
    int64_t m_endNs = 0;
};

} // namespace ws
