#pragma once

#include <cupti.h>

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>

namespace ws {

/*
 * ActivityEncoder: turns completed CUPTI activity buffers into wscap records. It owns the string
 * table (a String record is emitted the first time a name is used, so every id is defined before
 * use within the file) and pairs NVTX start/end markers into ranges, in either arrival order since
 * per-thread buffers may complete out of order. Not thread-safe: the caller serializes calls.
 * Cost per record: a field copy plus one hash lookup per name.
 */
class ActivityEncoder {
public:
    void encodeBuffer(uint8_t* buffer, size_t validSize, std::string& out);
    // Emits NVTX ranges that never ended (end = 0). Call once at the end of the stream.
    void finish(std::string& out);
    uint32_t intern(std::string_view text, std::string& out);
    // The String id of an API call's name (domain: wscap::ApiDomain).
    uint32_t apiName(uint8_t domain, uint32_t cbid, std::string& out);
    uint64_t records() const { return m_records; }

private:
    struct PendingMarker {
        uint64_t start = 0;
        uint64_t end = 0;
        uint32_t nameId = 0;
        uint32_t domainId = 0;
        uint32_t processId = 0;
        uint32_t threadId = 0;
        uint32_t endThreadId = 0;
        uint32_t color = 0;
        uint32_t category = 0;
        bool hasColor = false;
        bool started = false;
        bool ended = false;
        bool instant = false;
    };
    void encodeRecord(const CUpti_Activity* record, std::string& out);
    void marker(const CUpti_ActivityMarker2& m, std::string& out);
    void markerData(const CUpti_ActivityMarkerData2& d);
    void emitMarker(uint32_t id, const PendingMarker& p, std::string& out);
    void emitInstants(std::string& out);

    // Interned strings by their text, viewed in m_stringTexts (a deque: its strings never move). Not a
    // std::string map looked up by string_view: GCC 10's libstdc++, which the portable build of the
    // capture tools uses (capture/package/build_portable.sh), has no heterogeneous lookup.
    std::unordered_map<std::string_view, uint32_t> m_strings;
    std::deque<std::string> m_stringTexts;
    std::unordered_map<uint64_t, uint32_t> m_apiNames;
    std::unordered_map<uint32_t, PendingMarker> m_markers;
    uint32_t m_nextStringId = 1;
    uint64_t m_records = 0;
};

} // namespace ws
