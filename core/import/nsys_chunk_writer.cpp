#include "import/nsys_chunk_writer.h"

namespace ws {

NsysChunkWriter::NsysChunkWriter(uint32_t worker) : m_seq(uint64_t(worker) << 48) {
    m_chunk.worker = worker;
    m_chunk.firstNewString = 1;
    m_strings.emplace(std::string(), 0u);
}

uint32_t NsysChunkWriter::string(std::string_view s) {
    auto it = m_strings.find(std::string(s));
    if (it != m_strings.end()) return it->second;
    const auto id = static_cast<uint32_t>(m_chunk.firstNewString + m_chunk.newStrings.size());
    m_chunk.newStrings.emplace_back(s);
    m_strings.emplace(std::string(s), id);
    return id;
}

ChunkResult NsysChunkWriter::takeChunk() {
    ChunkResult out = std::move(m_chunk);
    m_chunk = ChunkResult();
    m_chunk.worker = out.worker;
    m_chunk.firstNewString = out.firstNewString + static_cast<uint32_t>(out.newStrings.size());
    m_tracks.clear();
    return out;
}

uint32_t NsysChunkWriter::track(int64_t pid, int64_t tid, uint8_t kind) {
    const Key key{pid, tid, 0, kind};
    auto it = m_tracks.find(key);
    if (it != m_tracks.end()) return it->second;
    const auto idx = static_cast<uint32_t>(m_chunk.tracks.size());
    ChunkResult::TrackKey k;
    k.pid.number = pid;
    k.tid.number = tid;
    k.kind = kind;
    m_chunk.tracks.push_back(k);
    m_tracks.emplace(key, idx);
    return idx;
}

uint32_t NsysChunkWriter::namedTrack(int64_t pid, std::string_view tid, uint8_t kind) {
    const uint32_t s = string(tid);
    const Key key{pid, 0, s, kind};
    auto it = m_tracks.find(key);
    if (it != m_tracks.end()) return it->second;
    const auto idx = static_cast<uint32_t>(m_chunk.tracks.size());
    ChunkResult::TrackKey k;
    k.pid.number = pid;
    k.tid.isString = true;
    k.tid.string = s;
    k.kind = kind;
    m_chunk.tracks.push_back(k);
    m_tracks.emplace(key, idx);
    return idx;
}

void NsysChunkWriter::meta(ChunkResult::MetaKind kind, int64_t pid, int64_t tid, uint32_t str,
                           int64_t number) {
    ChunkResult::Meta m;
    m.kind = kind;
    m.pid.number = pid;
    m.tid.number = tid;
    m.str = str;
    m.number = number;
    m.seq = nextSeq();
    m_chunk.metas.push_back(m);
}

void NsysChunkWriter::nameGpuStreams(const std::set<std::pair<int64_t, int64_t>>& streams,
                                     const std::function<std::string(int64_t device)>& deviceName) {
    using K = ChunkResult::MetaKind;
    std::set<int64_t> devices;
    for (const auto& [device, stream] : streams) {
        devices.insert(device);
        // Context-wide synchronization has no stream (CUPTI writes -1 or its 32-bit image).
        const bool noStream = stream == -1 || stream == 0xFFFFFFFF;
        if (stream != INT64_MIN)
            meta(K::ThreadName, device, stream,
                 string(noStream ? std::string("no stream (context sync)") : "stream " + std::to_string(stream)));
    }
    for (int64_t d : devices) {
        meta(K::ProcessLabels, d, 0, string("GPU " + std::to_string(d)));
        if (const std::string name = deviceName(d); !name.empty())
            meta(K::ProcessName, d, 0, string(name));
        meta(K::ProcessSortIndex, d, 0, 0, 0x10000000 + d);
    }
}

} // namespace ws
