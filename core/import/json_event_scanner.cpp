#include "import/json_event_scanner.h"

#include "model/json_block_masks.h"

#include <array>
#include <algorithm>
#include <cstring>

namespace ws {

namespace {

bool isSpace(char c) {
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

// Bytes that matter inside an event object; everything else is skipped in a tight loop.
constexpr std::array<bool, 256> makeSpecial() {
    std::array<bool, 256> t{};
    for (unsigned char c : {'"', '{', '}', '[', ']', ','})
        t[c] = true;
    return t;
}
constexpr std::array<bool, 256> kSpecial = makeSpecial();
constexpr unsigned char kBom[3] = {0xEF, 0xBB, 0xBF};

void trimRight(std::string& s) {
    while (!s.empty() && isSpace(s.back()))
        s.pop_back();
}

} // namespace

void JsonEventScanner::fail(const std::string& why, uint64_t at) {
    m_state = State::Error;
    m_error = why + " at byte " + std::to_string(at);
}

std::string JsonEventScanner::whereText() const {
    return "at byte " + std::to_string(m_consumed);
}

size_t JsonEventScanner::skipString(const char* buf, size_t pos, size_t to, std::string* capture) {
    if (m_escape && pos < to) {
        if (capture)
            capture->push_back(buf[pos]);
        ++pos;
        m_escape = false;
    }
    while (pos < to) {
        const auto* q = static_cast<const char*>(std::memchr(buf + pos, '"', to - pos));
        const size_t qe = q ? static_cast<size_t>(q - buf) : to;
        const auto* b = static_cast<const char*>(std::memchr(buf + pos, '\\', qe - pos));
        if (b) {
            const auto bp = static_cast<size_t>(b - buf);
            if (bp + 1 >= to) {
                if (capture)
                    capture->append(buf + pos, to - pos);
                m_escape = true;
                return to;
            }
            if (capture)
                capture->append(buf + pos, bp + 2 - pos);
            pos = bp + 2;
            continue;
        }
        if (!q) {
            if (capture)
                capture->append(buf + pos, to - pos);
            return to;
        }
        if (capture)
            capture->append(buf + pos, qe + 1 - pos);
        m_inString = false;
        return qe + 1;
    }
    return pos;
}

void JsonEventScanner::scan(const char* buf, size_t from, size_t to, std::vector<Span>& events) {
    const uint64_t absBase = m_consumed - from;
    size_t pos = from;
    while (pos < to) {
        if (to - pos >= 64 && m_state == State::EventsBetween && !m_escape && (!m_inEvent || m_eventIsObject)) {
            const size_t stop = scanFast(buf, pos, to, events);
            if (stop > pos) {
                pos = stop;
                continue;
            }
        }
        const size_t limit = std::min(to, pos + 64);
        scanScalar(buf, pos, limit, events, absBase);
        pos = limit;
    }
    m_consumed = absBase + to;
}

void JsonEventScanner::scanScalar(const char* buf, size_t from, size_t to, std::vector<Span>& events, uint64_t absBase) {
    size_t pos = from;
    while (pos < to) {
        if (m_inEvent) {
            // Hot loop: inside one element of the event array.
            while (pos < to) {
                if (m_inString) {
                    pos = skipString(buf, pos, to, nullptr);
                    continue;
                }
                while (pos < to && !kSpecial[static_cast<unsigned char>(buf[pos])])
                    ++pos;
                if (pos == to)
                    break;
                const char c = buf[pos];
                if (c == '"') {
                    m_inString = true;
                    ++pos;
                } else if (c == '{' || c == '[') {
                    ++m_depth;
                    ++pos;
                } else if (c == '}' || c == ']') {
                    if (m_depth == 0) { // a scalar element ended by the array's ']'
                        m_inEvent = false;
                        break;
                    }
                    --m_depth;
                    ++pos;
                    if (m_depth == 0) {
                        if (m_eventIsObject && c == '}')
                            events.emplace_back(m_eventStart, pos);
                        m_inEvent = false;
                        break;
                    }
                } else { // ','
                    if (m_depth == 0) {
                        m_inEvent = false;
                        break;
                    }
                    ++pos;
                }
            }
            continue;
        }
        const char c = buf[pos];
        switch (m_state) {
        case State::Start:
            if (isSpace(c)) {
                ++pos;
            } else if (absBase + pos < 3 && static_cast<unsigned char>(c) == kBom[absBase + pos]) {
                ++pos; // UTF-8 byte order mark, possibly split across blocks
            } else if (c == '{') {
                m_state = State::ObjExpectKey;
                ++pos;
            } else if (c == '[') {
                m_arrayForm = true;
                m_sawEventArray = true;
                m_state = State::EventsBetween;
                ++pos;
            } else {
                fail("not JSON: the text starts with neither '{' nor '['", absBase + pos);
                pos = to;
            }
            break;
        case State::ObjExpectKey:
            if (isSpace(c)) {
                ++pos;
            } else if (c == '"') {
                m_key.clear();
                m_inString = true;
                m_state = State::ObjKey;
                ++pos;
            } else if (c == '}') {
                m_state = State::Done;
                ++pos;
            } else {
                fail("malformed JSON: expected a member name", absBase + pos);
                pos = to;
            }
            break;
        case State::ObjKey:
            pos = skipString(buf, pos, to, &m_key);
            if (!m_inString) {
                m_key.pop_back(); // the closing quote
                m_state = State::ObjExpectColon;
            }
            break;
        case State::ObjExpectColon:
            if (isSpace(c)) {
                ++pos;
            } else if (c == ':') {
                m_state = State::ObjExpectValue;
                ++pos;
            } else {
                fail("malformed JSON: expected ':' after member \"" + m_key + "\"", absBase + pos);
                pos = to;
            }
            break;
        case State::ObjExpectValue:
            if (isSpace(c)) {
                ++pos;
            } else if (c == '[' && m_key == "traceEvents" && !m_sawEventArray) {
                m_sawEventArray = true;
                m_state = State::EventsBetween;
                ++pos;
            } else {
                m_raw.clear();
                m_depth = 0;
                m_rawIsScalar = c != '{' && c != '[';
                m_state = State::ObjRawValue;
            }
            break;
        case State::ObjRawValue: {
            if (m_inString) {
                pos = skipString(buf, pos, to, &m_raw);
                break;
            }
            bool finished = false;
            if (c == '"') {
                m_raw.push_back(c);
                m_inString = true;
                ++pos;
            } else if (c == '{' || c == '[') {
                ++m_depth;
                m_raw.push_back(c);
                ++pos;
            } else if (c == '}' || c == ']') {
                if (m_depth == 0) {
                    finished = true;
                } else {
                    --m_depth;
                    m_raw.push_back(c);
                    ++pos;
                    finished = m_depth == 0 && !m_rawIsScalar;
                }
            } else if (c == ',' && m_depth == 0) {
                finished = true;
            } else {
                m_raw.push_back(c);
                ++pos;
            }
            if (finished) {
                trimRight(m_raw);
                m_members.emplace_back(m_key, std::move(m_raw));
                m_raw.clear();
                m_state = State::ObjAfterValue;
            }
            break;
        }
        case State::ObjAfterValue:
            if (isSpace(c)) {
                ++pos;
            } else if (c == ',') {
                m_state = State::ObjExpectKey;
                ++pos;
            } else if (c == '}') {
                m_state = State::Done;
                ++pos;
            } else {
                fail("malformed JSON: expected ',' or '}' between top-level members", absBase + pos);
                pos = to;
            }
            break;
        case State::EventsBetween:
            if (isSpace(c) || c == ',') {
                ++pos;
            } else if (c == ']') {
                m_state = m_arrayForm ? State::Done : State::ObjAfterValue;
                ++pos;
            } else {
                m_inEvent = true;
                m_eventStart = pos;
                if (c == '{' || c == '[') {
                    m_eventIsObject = c == '{';
                    m_depth = 1;
                    ++pos;
                } else {
                    m_eventIsObject = false;
                    m_depth = 0;
                    if (c == '"') {
                        m_inString = true;
                    }
                    ++pos;
                }
                if (!m_eventIsObject)
                    ++m_nonObjectElements;
            }
            break;
        case State::Done:
            for (; pos < to; ++pos)
                if (!isSpace(buf[pos]) && buf[pos] != '\0') {
                    m_trailingGarbage = true;
                    pos = to;
                    break;
                }
            break;
        case State::Error:
            pos = to;
            break;
        }
    }
}

#if defined(__SSE2__)
namespace {

using namespace json_block;

uint64_t rangeMask(unsigned a, unsigned b) {
    if (a >= b)
        return 0;
    const uint64_t upTo = b >= 64 ? ~uint64_t(0) : (uint64_t(1) << b) - 1;
    return upTo & ~((uint64_t(1) << a) - 1);
}

} // namespace

/*
 * The fast path between and inside event objects: 64 bytes at a time, SSE2 compares give masks of
 * quotes and brackets, a prefix XOR of the quote mask marks string interiors, and only the
 * brackets outside strings are visited (a handful per event). Blocks with a backslash, and
 * anything unusual at array level (a non-object element, the array's end), go back to the scalar
 * state machine at an exact state. Returns where it stopped.
 */
size_t JsonEventScanner::scanFast(const char* buf, size_t pos, size_t to, std::vector<Span>& events) {
    while (to - pos >= 64) {
        const Block v(buf + pos);
        if (maskOf(v, '\\'))
            return pos;
        const uint64_t quotes = maskOf(v, '"');
        const uint64_t open = maskOfCaseless(v, '{');
        const uint64_t close = maskOfCaseless(v, '}');
        const uint64_t blank = maskOfSpace(v) | maskOf(v, ',');
        const bool carryIn = m_inString;
        const uint64_t inString = prefixXor(quotes) ^ (carryIn ? ~uint64_t(0) : 0);
        // Bytes that must not appear between events (outside strings): values, colons, closing quotes.
        const uint64_t stray = ~(open | close | blank) & ~inString;
        uint32_t depth = m_depth;
        bool inEvent = m_inEvent;
        size_t eventStart = m_eventStart;
        unsigned zeroFrom = inEvent ? 64u : 0u;
        auto bail = [&](unsigned at) {
            m_depth = depth;
            m_inEvent = inEvent;
            m_eventStart = eventStart;
            m_inString = at == 0 ? carryIn : false;
            return pos + at;
        };
        for (uint64_t bits = (open | close) & ~inString; bits; bits &= bits - 1) {
            const auto i = static_cast<unsigned>(__builtin_ctzll(bits));
            const bool isOpen = (open >> i) & 1;
            if (depth == 0) {
                if (stray & rangeMask(zeroFrom, i))
                    return bail(zeroFrom);
                if (buf[pos + i] != '{')
                    return bail(i);
                eventStart = pos + i;
                inEvent = true;
                m_eventIsObject = true;
                depth = 1;
            } else if (isOpen) {
                ++depth;
            } else if (--depth == 0) {
                events.emplace_back(eventStart, pos + i + 1);
                inEvent = false;
                zeroFrom = i + 1;
            }
        }
        if (depth == 0 && (stray & rangeMask(zeroFrom, 64)))
            return bail(zeroFrom);
        m_depth = depth;
        m_inEvent = inEvent;
        m_eventStart = eventStart;
        m_inString = inString >> 63;
        pos += 64;
    }
    return pos;
}
#else
size_t JsonEventScanner::scanFast(const char*, size_t pos, size_t, std::vector<Span>&) {
    return pos;
}
#endif

} // namespace ws
