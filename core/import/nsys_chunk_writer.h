#pragma once

#include "model/chunk_result.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace ws {

/*
 * NsysChunkWriter: builds the one ChunkResult that the SQLite importers (Nsight Systems, nvprof)
 * hand to the TraceBuilder. It owns the chunk's local string table (local id 0 is the empty string,
 * new strings from 1 on) and its track table keyed by (pid, tid, kind), so readers ask for ids by
 * value. Interning and track lookup are O(1) hash lookups; the chunk grows with the rows read.
 */
class NsysChunkWriter {
public:
    // Chunks of parallel readers get distinct workers (string remapping) and disjoint seq ranges.
    explicit NsysChunkWriter(uint32_t worker = 0);

    uint32_t string(std::string_view s);
    uint32_t track(int64_t pid, int64_t tid, uint8_t kind = ChunkResult::kThread);
    // A track whose tid is a string (e.g. the per-process "NVTX ranges" row).
    uint32_t namedTrack(int64_t pid, std::string_view tid, uint8_t kind);
    uint64_t nextSeq() { return m_seq++; }
    void noteTime(int64_t ts, int64_t end) {
        m_chunk.minTs = std::min(m_chunk.minTs, ts);
        m_chunk.maxTs = std::max(m_chunk.maxTs, end);
    }
    void meta(ChunkResult::MetaKind kind, int64_t pid, int64_t tid, uint32_t str, int64_t number = 0);
    // Names every GPU (pid = device id, labelled "GPU n" and sorted after host processes) and its
    // streams ("stream N", or "no stream (context sync)"), as the SQLite importers lay them out.
    // `deviceName` gives the GPU's product name, empty when unknown.
    void nameGpuStreams(const std::set<std::pair<int64_t, int64_t>>& streams,
                        const std::function<std::string(int64_t device)>& deviceName);

    ChunkResult& chunk() { return m_chunk; }
    // Hands over the chunk built so far and starts the next, so that a long import feeds the
    // TraceBuilder piece by piece instead of holding every record twice. Later chunks refer to
    // earlier strings by id and list only their own new strings; tracks are listed per chunk.
    ChunkResult takeChunk();
    ImportReport& report() { return m_chunk.report; }

private:
    struct Key {
        int64_t pid;
        int64_t tid;
        uint32_t tidString;
        uint8_t kind;
        bool operator==(const Key&) const = default;
    };
    struct KeyHash {
        size_t operator()(const Key& k) const noexcept {
            // Mixed as unsigned: a pid from a damaged file may be anything, and signed overflow is UB.
            return std::hash<uint64_t>()(static_cast<uint64_t>(k.pid) * 1000003u ^ static_cast<uint64_t>(k.tid)) ^
                   (size_t(k.tidString) << 16) ^ k.kind;
        }
    };

    ChunkResult m_chunk;
    std::unordered_map<std::string, uint32_t> m_strings;
    std::unordered_map<Key, uint32_t, KeyHash> m_tracks;
    uint64_t m_seq = 0;
};

} // namespace ws
