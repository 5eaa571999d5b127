#include "model/event_object_reader.h"

#include "io/input_stream.h"
#include "model/json_string_scan.h"
#include "model/json_trailing_commas.h"

namespace ws {

namespace {
constexpr size_t kBlock = 64 * 1024;
// The first read at an object after a far skip: most events fit in it, and an analysis that reads a
// few events far apart then reads a page at each, not a block (InputStream::skip).
constexpr size_t kFirstBlock = 4 * 1024;
constexpr size_t kMaxObject = 64u << 20;
} // namespace

bool EventObjectReader::fill() {
    const size_t old = m_buf.size();
    const size_t block = old == 0 ? kFirstBlock : kBlock;
    m_buf.resize(old + block);
    const size_t got = m_in.read(m_buf.data() + old, block);
    m_buf.resize(old + got);
    return got > 0;
}

std::string_view EventObjectReader::objectAt(uint64_t pos) {
    if (!m_started) {
        m_started = true;
        m_bufPos = m_in.textPosition();
    }
    if (pos < m_bufPos)
        return {};
    if (pos >= m_bufPos + m_buf.size()) {
        // Not buffered: skip to it (a seek for plain files, inflation for compressed ones).
        const uint64_t streamPos = m_bufPos + m_buf.size();
        m_buf.clear();
        if (pos > streamPos && !m_in.skip(pos - streamPos))
            return {};
        m_bufPos = pos;
    } else {
        m_buf.erase(0, static_cast<size_t>(pos - m_bufPos));
        m_bufPos = pos;
    }
    if (m_buf.empty() && !fill())
        return {};
    if (m_buf[0] != '{')
        return {};
    int depth = 0;
    JsonStringScan scan;
    size_t i = 0;
    while (true) {
        for (; i < m_buf.size(); ++i) {
            const char c = m_buf[i];
            if (!scan.outside(c))
                continue;
            if (c == '{')
                ++depth;
            else if (c == '}' && --depth == 0) {
                // Blanked in place (same length): the text goes to JSON parsers that reject them.
                blankTrailingCommas(m_buf.data(), i + 1);
                return std::string_view(m_buf.data(), i + 1);
            }
        }
        if (m_buf.size() > kMaxObject || !fill())
            return {};
    }
}

} // namespace ws
