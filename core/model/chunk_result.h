#pragma once

#include "model/args_spans.h"
#include "model/id_value.h"
#include "model/import_report.h"
#include "model/store_preparation.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ws {

/*
 * ChunkResult: the TraceBuilder's input, what one parser thread extracted from one block of event
 * objects (or what a non-JSON importer built, nsys_chunk_writer.h), before merging. It belongs to the
 * model, which defines what a reader may hand it; the importers fill it.
 * String ids are the worker's local ids (remapped on merge; newStrings lists the strings the
 * worker saw first in this block, with ids firstNewString, firstNewString+1, ...). Tracks are
 * local indices into `tracks`. `seq` fields are global file-order numbers of the events, used
 * where order matters (B/E, metadata, flows, async). Records are plain structs, transient.
 */
struct ChunkResult {
    enum TrackKind : uint8_t { kThread = 0, kAsync = 2, kProcessInstants = 3, kGlobalInstants = 4 };
    struct TrackKey {
        IdValue pid;
        IdValue tid;
        uint8_t kind = kThread;
        bool operator==(const TrackKey&) const = default;
    };
    enum Have : uint8_t { kCorr = 1, kExt = 2, kBytes = 4, kBps = 8, kOcc = 16 };
    struct Slice {
        int64_t ts = 0;
        int64_t dur = 0;
        uint64_t argRef = 0;
        int64_t bytes = 0;
        uint32_t track = 0;
        uint32_t name = 0;
        uint32_t cat = 0;
        uint32_t corr = 0;
        uint32_t ext = 0;
        float bps = 0;
        float occ = 0;
        uint32_t launchArgs = 0; // local string ids of the argument columns (arg_columns.h), 0 if none
        uint32_t opArgs = 0;
        uint8_t have = 0;
    };
    struct BeginEnd {
        int64_t ts = 0;
        uint64_t argRef = 0; // an E event's: Track::kNoArgs when it has no args to merge into its slice
        uint64_t seq = 0;
        uint32_t track = 0;
        uint32_t name = 0;
        uint32_t cat = 0;
        char ph = 'B';
    };
    struct Instant {
        int64_t ts = 0;
        uint64_t argRef = 0;
        uint32_t track = 0;
        uint32_t name = 0;
        uint32_t cat = 0;
    };
    struct Memory {
        int64_t ts = 0;
        int64_t addr = INT64_MIN;
        int64_t bytes = INT64_MIN;
        int64_t totalAllocated = INT64_MIN;
        int64_t totalReserved = INT64_MIN;
        uint32_t track = 0;
        int16_t deviceType = -1;
        int16_t deviceId = -1;
    };
    struct Counter {
        IdValue pid;
        int64_t ts = 0;
        double value = 0;
        uint64_t seq = 0;
        uint32_t name = 0;
        uint32_t series = 0;
        uint32_t cat = 0;
        uint32_t idString = 0; // counter id appended as name[id] at merge
        bool hasId = false;
    };
    // Flow ends and async events carry ids: numeric, or a string (idIsString, id = local string).
    struct FlowEnd {
        int64_t ts = 0;
        uint64_t seq = 0;
        uint64_t id = 0;
        uint32_t track = 0;
        uint32_t cat = 0;
        char ph = 's';
        bool bindEnclosing = false;
        bool idIsString = false;
    };
    struct Async {
        IdValue pid;
        int64_t ts = 0;
        uint64_t seq = 0;
        uint64_t id = 0;
        uint64_t argRef = 0;
        uint32_t cat = 0;
        uint32_t name = 0;
        char ph = 'b';
        bool idIsString = false;
    };
    enum class MetaKind : uint8_t { ProcessName, ProcessLabels, ProcessSortIndex, ThreadName, ThreadSortIndex };
    struct Meta {
        IdValue pid;
        IdValue tid;
        int64_t number = 0;
        uint64_t seq = 0;
        uint32_t str = 0;
        MetaKind kind = MetaKind::ProcessName;
    };

    uint32_t worker = 0;
    uint32_t firstNewString = 0;
    std::vector<std::string> newStrings;
    std::vector<TrackKey> tracks;
    std::vector<Slice> slices;
    std::vector<BeginEnd> beginEnds;
    std::vector<Instant> instants;
    std::vector<Memory> memory;
    std::vector<Counter> counters;
    std::vector<FlowEnd> flows;
    std::vector<Async> asyncs;
    std::vector<Meta> metas;
    // (local track, slices still to come on it, this chunk's included): an importer that counted
    // them beforehand (the XSpace importer's first pass) lets the TraceBuilder reserve the track's
    // columns exactly instead of growing them by doubling (up to twice the memory, and both
    // buffers at once while one grows).
    std::vector<std::pair<uint32_t, uint64_t>> sliceReserve;
    // Where the block's events' args lie (JsonEventParser::setKeepArgsSpans), in file order.
    ArgsSpans argsSpans;
    // Their args packed for the store (StorePreparation::packed), by the parse thread.
    std::optional<StorePreparation::PackedArgs> packedArgs;
    uint64_t events = 0;
    // An event's argument-column value could not be kept (arg_columns.h): the session gets none.
    bool argColumnsLost = false;
    int64_t minTs = INT64_MAX;
    int64_t maxTs = INT64_MIN;
    ImportReport report;
};

} // namespace ws
