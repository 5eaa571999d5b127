#include "import/event_text_reader.h"

#include "model/json_string_scan.h"
#include "model/json_trailing_commas.h"

namespace ws {

namespace {
constexpr size_t kBufferSize = 1 << 20;
} // namespace

bool EventTextReader::open(const std::string& path) {
    if (!m_in.open(path)) {
        m_error = m_in.error();
        return false;
    }
    m_buf.resize(kBufferSize);
    m_len = m_pos = 0;
    m_bufStart = 0;
    return true;
}

bool EventTextReader::fill() {
    m_bufStart += m_len;
    m_len = m_in.read(m_buf.data(), m_buf.size());
    m_pos = 0;
    return m_len > 0;
}

bool EventTextReader::getChar(char& c) {
    if (m_pos == m_len && !fill())
        return false;
    c = m_buf[m_pos++];
    return true;
}

bool EventTextReader::objectAt(uint64_t offset, std::string& out) {
    out.clear();
    const uint64_t here = m_bufStart + m_pos;
    if (offset < here)
        return false;
    // Skip forward, a buffer at a time when the target is further away.
    uint64_t skip = offset - here;
    while (skip > 0) {
        if (m_pos == m_len && !fill())
            return false;
        const size_t step = static_cast<size_t>(std::min<uint64_t>(skip, m_len - m_pos));
        m_pos += step;
        skip -= step;
    }
    char c;
    if (!getChar(c) || c != '{')
        return false;
    out.push_back(c);
    int depth = 1;
    JsonStringScan scan;
    while (depth > 0) {
        if (!getChar(c))
            return false;
        out.push_back(c);
        if (!scan.outside(c))
            continue;
        if (c == '{' || c == '[')
            ++depth;
        else if (c == '}' || c == ']')
            --depth;
    }
    blankTrailingCommas(out.data(), out.size()); // the text goes to a JSON parser or the store
    return true;
}

} // namespace ws
