#include "model/json_object_writer.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>

namespace ws {

namespace {

template <typename T>
void appendNumber(std::string& out, T v) {
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, r.ptr);
}

} // namespace

void JsonObjectWriter::add(std::string_view key, std::string_view value) {
    member(key, [&](std::string& out) { appendString(out, value); });
}

void JsonObjectWriter::add(std::string_view key, double value) {
    member(key, [&](std::string& out) { appendDouble(out, value); });
}

void JsonObjectWriter::addRaw(std::string_view key, std::string_view json) {
    member(key, [&](std::string& out) { out += json; });
}

void JsonObjectWriter::addInt(std::string_view key, int64_t v) {
    member(key, [&](std::string& out) { appendNumber(out, v); });
}

void JsonObjectWriter::addUInt(std::string_view key, uint64_t v) {
    member(key, [&](std::string& out) { appendNumber(out, v); });
}

void JsonObjectWriter::appendDims(std::string& out, int64_t x, int64_t y, int64_t z) {
    out += '[';
    appendNumber(out, x);
    out += ',';
    appendNumber(out, y);
    out += ',';
    appendNumber(out, z);
    out += ']';
}

void JsonObjectWriter::addDims(std::string_view key, int64_t x, int64_t y, int64_t z) {
    member(key, [&](std::string& out) { appendDims(out, x, y, z); });
}

std::string JsonObjectWriter::finish(std::string_view wrapper) {
    // nlohmann's object is a std::map: members in byte order of their keys; of a key set twice, the
    // last value (stable order keeps the later one last among equals).
    std::stable_sort(m_members.begin(), m_members.end(), [](const Member& a, const Member& b) { return a.key < b.key; });
    std::string out;
    out.reserve(m_values.size() + m_members.size() * 24 + wrapper.size() + 8);
    if (!wrapper.empty()) {
        out += '{';
        appendString(out, wrapper);
        out += ':';
    }
    out += '{';
    bool first = true;
    for (size_t i = 0; i < m_members.size(); ++i) {
        if (i + 1 < m_members.size() && m_members[i + 1].key == m_members[i].key)
            continue;
        if (!first)
            out += ',';
        first = false;
        appendString(out, m_members[i].key);
        out += ':';
        out.append(m_values, m_members[i].from, m_members[i].to - m_members[i].from);
    }
    out += '}';
    if (!wrapper.empty())
        out += '}';
    clear();
    return out;
}

namespace {

// Length of the valid UTF-8 sequence at s[i] (Unicode's well-formed table: no overlongs, no
// surrogates, nothing past U+10FFFF), or 0 with *bad set to where it stops being valid: the first
// byte that does not fit (which is read again on its own, as nlohmann's decoder does) or i + 1 for
// a byte that cannot start a sequence.
size_t utf8SequenceAt(std::string_view s, size_t i, size_t* bad) {
    const auto b = static_cast<unsigned char>(s[i]);
    size_t n = 0;
    unsigned char lo = 0x80, hi = 0xBF; // the second byte's range
    if (b >= 0xC2 && b <= 0xDF)
        n = 2;
    else if (b >= 0xE0 && b <= 0xEF) {
        n = 3;
        if (b == 0xE0)
            lo = 0xA0;
        else if (b == 0xED)
            hi = 0x9F;
    } else if (b >= 0xF0 && b <= 0xF4) {
        n = 4;
        if (b == 0xF0)
            lo = 0x90;
        else if (b == 0xF4)
            hi = 0x8F;
    } else {
        *bad = i + 1;
        return 0;
    }
    for (size_t k = 1; k < n; ++k) {
        if (i + k >= s.size()) {
            *bad = s.size();
            return 0;
        }
        const auto c = static_cast<unsigned char>(s[i + k]);
        if (k == 1 ? (c < lo || c > hi) : (c < 0x80 || c > 0xBF)) {
            *bad = i + k;
            return 0;
        }
    }
    return n;
}

} // namespace

bool validUtf8(std::string_view s) {
    for (size_t i = 0; i < s.size();) {
        if (static_cast<unsigned char>(s[i]) < 0x80) {
            ++i;
            continue;
        }
        size_t bad = 0;
        const size_t n = utf8SequenceAt(s, i, &bad);
        if (n == 0)
            return false;
        i += n;
    }
    return true;
}

void JsonObjectWriter::appendString(std::string& out, std::string_view s) {
    out += '"';
    size_t from = 0; // start of the bytes not yet copied
    size_t i = 0;
    while (i < s.size()) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c >= 0x20 && c != '"' && c != '\\' && c < 0x80) {
            ++i;
            continue;
        }
        out.append(s.data() + from, i - from);
        if (c >= 0x80) {
            size_t bad = 0;
            if (const size_t n = utf8SequenceAt(s, i, &bad)) {
                out.append(s.data() + i, n);
                i += n;
            } else {
                out += "\xEF\xBF\xBD"; // U+FFFD
                i = bad;
            }
            from = i;
            continue;
        }
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\b': out += "\\b"; break;
        case '\t': out += "\\t"; break;
        case '\n': out += "\\n"; break;
        case '\f': out += "\\f"; break;
        case '\r': out += "\\r"; break;
        default: {
            static constexpr char kHex[] = "0123456789abcdef";
            const char esc[6] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 15]};
            out.append(esc, sizeof esc);
        }
        }
        from = ++i;
    }
    out.append(s.data() + from, s.size() - from);
    out += '"';
}

void JsonObjectWriter::appendDouble(std::string& out, double v) {
    // nlohmann's own number formatting (Grisu2, "2.0", "1e+20", null for NaN): its digits are not
    // always the shortest ones that std::to_chars would write, and doubles are few in arguments.
    out += nlohmann::json(v).dump();
}

namespace {

bool isJsonSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

} // namespace

bool compactIntegerArrays(std::string_view text, std::string& out) {
    out.clear();
    int depth = 0;
    bool expectValue = true; // after '[' or ','
    bool afterOpen = false;  // right after '[' (so ']' may close an empty array)
    size_t i = 0;
    auto skipSpace = [&] {
        while (i < text.size() && isJsonSpace(text[i]))
            ++i;
    };
    skipSpace();
    if (i >= text.size() || text[i] != '[')
        return false;
    while (i < text.size()) {
        const char c = text[i];
        if (isJsonSpace(c)) {
            ++i;
        } else if (c == '[') {
            if (!expectValue)
                return false;
            out += c;
            ++depth;
            afterOpen = true;
            ++i;
        } else if (c == ']') {
            if (expectValue && !afterOpen)
                return false; // "[1,]"
            out += c;
            --depth;
            expectValue = false;
            afterOpen = false;
            ++i;
            if (depth == 0)
                break;
        } else if (c == ',') {
            if (expectValue)
                return false;
            out += c;
            expectValue = true;
            afterOpen = false;
            ++i;
        } else if (c == '-' || (c >= '0' && c <= '9')) {
            if (!expectValue)
                return false;
            const size_t from = i;
            if (c == '-')
                ++i;
            const size_t digitsFrom = i;
            while (i < text.size() && text[i] >= '0' && text[i] <= '9')
                ++i;
            const size_t nDigits = i - digitsFrom;
            // Plain integers a dump writes back unchanged: no leading zero, no "-0", within int64.
            if (nDigits == 0 || nDigits > 18 || (text[digitsFrom] == '0' && (nDigits > 1 || c == '-')))
                return false;
            out.append(text.substr(from, i - from));
            expectValue = false;
            afterOpen = false;
        } else {
            return false; // strings, floats, objects: not shapes
        }
    }
    if (depth != 0)
        return false;
    skipSpace();
    return i == text.size();
}

} // namespace ws
