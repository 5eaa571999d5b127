#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace ws {

class InputStream;

/*
 * EventObjectReader: cuts balanced JSON objects (one trace event each) out of an InputStream at
 * given text positions, in increasing order, without reading past what it needs twice: bytes read
 * beyond one object stay buffered for the next. This is what makes a pass over many events' text one
 * sequential read of the source instead of one open-and-seek per event.
 */
class EventObjectReader {
public:
    explicit EventObjectReader(InputStream& in) : m_in(in) {}

    // The object text starting at text position `pos`, which must not precede the previous call's
    // position. Empty when there is no '{' at pos, the text ends first, or the object exceeds 64 MiB.
    // Trailing commas in it are blanked (json_trailing_commas.h). The view lives until the next call.
    std::string_view objectAt(uint64_t pos);

private:
    bool fill(); // appends the next block of text to m_buf; false at the end

    InputStream& m_in;
    std::string m_buf;
    uint64_t m_bufPos = 0; // text position of m_buf[0]
    bool m_started = false;
};

} // namespace ws
