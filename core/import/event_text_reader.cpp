#include "import/event_text_reader.h"

#include "model/json_string_scan.h"

namespace ws {

namespace {
constexpr size_t kBufferSize = 1 << 20;

bool isSpace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

// Index just past the JSON value starting at i (a string, or a balanced object/array, or a bare
// literal/number); s.size() when it runs off the end.
size_t skipValue(std::string_view s, size_t i) {
    if (i >= s.size())
        return s.size();
    if (s[i] == '"') {
        for (++i; i < s.size(); ++i) {
            if (s[i] == '\\')
                ++i;
            else if (s[i] == '"')
                return i + 1;
        }
        return s.size();
    }
    if (s[i] == '{' || s[i] == '[') {
        int depth = 0;
        bool inString = false;
        for (; i < s.size(); ++i) {
            const char c = s[i];
            if (inString) {
                if (c == '\\')
                    ++i;
                else if (c == '"')
                    inString = false;
            } else if (c == '"') {
                inString = true;
            } else if (c == '{' || c == '[') {
                ++depth;
            } else if ((c == '}' || c == ']') && --depth == 0) {
                return i + 1;
            }
        }
        return s.size();
    }
    while (i < s.size() && s[i] != ',' && s[i] != '}' && s[i] != ']' && !isSpace(s[i]))
        ++i;
    return i;
}

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
    return true;
}

std::string_view topLevelMember(std::string_view s, std::string_view key) {
    size_t i = 0;
    while (i < s.size() && isSpace(s[i]))
        ++i;
    if (i >= s.size() || s[i] != '{')
        return {};
    ++i;
    while (i < s.size()) {
        while (i < s.size() && (isSpace(s[i]) || s[i] == ','))
            ++i;
        if (i >= s.size() || s[i] != '"')
            return {};
        const size_t keyEnd = skipValue(s, i);
        const std::string_view name = s.substr(i + 1, keyEnd - i - 2 < s.size() ? keyEnd - i - 2 : 0);
        i = keyEnd;
        while (i < s.size() && (isSpace(s[i]) || s[i] == ':'))
            ++i;
        const size_t valueEnd = skipValue(s, i);
        if (name == key)
            return s.substr(i, valueEnd - i);
        i = valueEnd;
    }
    return {};
}

} // namespace ws
