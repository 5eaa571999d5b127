#include "import/event_text_reader.h"

#include "model/json_members.h"
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

bool EventTextReader::objectAt(uint64_t offset, std::string& out, std::vector<uint32_t>* separators) {
    out.clear();
    if (separators)
        separators->clear();
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
    if (m_pos == m_len && !fill())
        return false;
    if (m_buf[m_pos] != '{')
        return false;
    // Scan the buffer in place (no per-byte call or append): depth outside strings, and whether a
    // comma is followed (after whitespace) by a closer, the only case the trailing-comma repair
    // has work for.
    int depth = 0;
    JsonStringScan scan; // its state carries over a refill of the buffer
    bool comma = false, trailingComma = false;
    auto separator = [&](size_t i) {
        if (separators)
            separators->push_back(static_cast<uint32_t>(out.size() + (i - m_pos)));
    };
    for (;;) {
        const char* const data = m_buf.data();
        size_t i = m_pos;
        bool done = false;
        for (; i < m_len; ++i) {
            const char c = data[i];
            if (!scan.outside(c)) {
                comma = false; // a string is a value
                continue;
            }
            switch (c) {
            case '{':
            case '[': ++depth; comma = false; break;
            case '}':
            case ']':
                trailingComma |= comma;
                comma = false;
                if (--depth == 0) {
                    separator(i);
                    done = true;
                }
                break;
            case ',':
                comma = true;
                if (depth == 1)
                    separator(i);
                break;
            case ':':
                comma = false;
                if (depth == 1)
                    separator(i);
                break;
            case ' ':
            case '\n':
            case '\r':
            case '\t': break;
            default: comma = false; break;
            }
            if (done) {
                ++i;
                break;
            }
        }
        out.append(data + m_pos, i - m_pos);
        m_pos = i;
        if (done)
            break;
        if (!fill())
            return false;
    }
    if (trailingComma)
        blankTrailingCommas(out.data(), out.size()); // the text goes to a JSON parser or the store
    return true;
}

std::string_view EventTextReader::member(std::string_view object, const std::vector<uint32_t>& separators,
                                         std::string_view key) {
    auto isSpace = [](char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; };
    auto trim = [&](size_t from, size_t to) {
        while (from < to && isSpace(object[from]))
            ++from;
        while (to > from && isSpace(object[to - 1]))
            --to;
        return object.substr(from, to - from);
    };
    // Members are `key : value` between '{' or ',' and the next ',' or the closing '}'; a blanked
    // trailing comma (' ') is followed by the closer.
    size_t begin = 1, s = 0;
    while (s < separators.size()) {
        const size_t colon = separators[s];
        if (colon >= object.size())
            return topLevelMember(object, key);
        if (object[colon] == '}')
            return {};
        if (object[colon] != ':' || s + 1 >= separators.size())
            return topLevelMember(object, key); // not the regular shape: the general reader decides
        const size_t end = separators[s + 1];
        if (end >= object.size() || (object[end] != ',' && object[end] != '}' && object[end] != ' '))
            return topLevelMember(object, key);
        const std::string_view quoted = trim(begin, colon);
        if (quoted.size() < 2 || quoted.front() != '"' || quoted.back() != '"')
            return topLevelMember(object, key);
        if (quoted.substr(1, quoted.size() - 2) == key)
            return trim(colon + 1, end);
        if (object[end] == '}')
            return {};
        begin = end + 1;
        s += 2;
    }
    return {};
}

} // namespace ws
