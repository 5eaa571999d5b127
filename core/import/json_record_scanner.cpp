#include "import/json_record_scanner.h"

#include <array>
#include <cstring>

namespace ws {

namespace {

constexpr uint32_t kNone = 0; // node 0: "no wanted path below here"
constexpr uint32_t kRoot = 1;

bool isSpace(char c) {
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

// Bytes that matter inside a skipped value; the rest goes by in a tight loop.
constexpr std::array<bool, 256> makeSpecial() {
    std::array<bool, 256> t{};
    for (unsigned char c : {'"', '{', '}', '[', ']'})
        t[c] = true;
    return t;
}
constexpr std::array<bool, 256> kSpecial = makeSpecial();

} // namespace

uint32_t JsonRecordScanner::want(std::string_view path) {
    if (m_nodes.size() == 1)
        m_nodes.emplace_back(); // the root
    uint32_t node = kRoot;
    while (!path.empty()) {
        uint32_t next = 0;
        if (path.substr(0, 2) == "[]") {
            path.remove_prefix(2);
            if (m_nodes[node].element == kNone) {
                m_nodes[node].element = static_cast<uint32_t>(m_nodes.size());
                m_nodes.emplace_back();
            }
            next = m_nodes[node].element;
        } else {
            const size_t cut = path.find_first_of(".[");
            const std::string key(path.substr(0, cut));
            path.remove_prefix(cut == std::string_view::npos ? path.size() : cut);
            next = child(node, false, key);
            if (next == kNone) {
                next = static_cast<uint32_t>(m_nodes.size());
                m_nodes[node].keys.emplace_back(key, next);
                m_nodes.emplace_back();
            }
        }
        if (!path.empty() && path.front() == '.')
            path.remove_prefix(1);
        node = next;
    }
    uint32_t index = 0;
    for (const Node& n : m_nodes)
        index += n.wanted >= 0 ? 1 : 0;
    m_nodes[node].wanted = static_cast<int32_t>(index);
    return index;
}

uint32_t JsonRecordScanner::child(uint32_t node, bool array, const std::string& key) const {
    if (node == kNone)
        return kNone;
    const Node& n = m_nodes[node];
    if (array)
        return n.element;
    for (const auto& [k, c] : n.keys)
        if (k == key)
            return c;
    return kNone;
}

void JsonRecordScanner::fail(const std::string& why, uint64_t at) {
    m_state = State::Error;
    m_error = why + " at byte " + std::to_string(at);
}

void JsonRecordScanner::startValue(size_t pos, char c) {
    const uint32_t node = m_pendingNode;
    const bool container = c == '{' || c == '[';
    if (node != kNone && m_nodes[node].wanted >= 0) {
        m_capturing = true;
        m_captureStart = pos;
        m_capturePath = static_cast<uint32_t>(m_nodes[node].wanted);
        m_captureOuter = 0;
        for (const Frame& f : m_frames)
            if (f.array) {
                m_captureOuter = f.index;
                break;
            }
        m_depth = container ? 1 : 0;
        m_inString = c == '"';
        m_state = container || m_inString ? State::Skip : State::Scalar;
        return;
    }
    const bool followed = node != kNone && (!m_nodes[node].keys.empty() || m_nodes[node].element != kNone);
    if (followed && container) {
        m_frames.push_back({node, c == '[', 0});
        m_state = c == '{' ? State::Key : State::Value;
        m_pendingNode = c == '[' ? m_nodes[node].element : kNone;
        return;
    }
    if (container) {
        m_depth = 1;
        m_state = State::Skip;
    } else if (c == '"') {
        m_depth = 0;
        m_inString = true;
        m_state = State::Skip;
    } else {
        m_state = State::Scalar;
    }
}

void JsonRecordScanner::endContainer(char c, uint64_t at) {
    if (m_frames.empty() || m_frames.back().array != (c == ']')) {
        fail(std::string("unexpected '") + c + "'", at);
        return;
    }
    m_frames.pop_back();
    m_state = m_frames.empty() ? State::Done : State::After;
}

void JsonRecordScanner::scan(const char* buf, size_t from, size_t to, std::vector<Span>& spans) {
    const uint64_t base = m_consumed - from; // absolute offset of buf[0]
    size_t pos = from;
    if (!m_started && m_nodes.size() > 1) {
        m_started = true;
        m_pendingNode = kRoot;
    }
    auto finishValue = [&](size_t end) {
        if (m_capturing) {
            spans.push_back({m_captureStart, end, m_capturePath, m_captureOuter});
            m_capturing = false;
        }
        m_state = m_frames.empty() ? State::Done : State::After;
    };
    while (pos < to && m_state != State::Error) {
        switch (m_state) {
        case State::Skip: {
            if (m_inString) {
                if (m_escape) {
                    m_escape = false;
                    ++pos;
                    continue;
                }
                const auto* q = static_cast<const char*>(std::memchr(buf + pos, '"', to - pos));
                const size_t qe = q ? static_cast<size_t>(q - buf) : to;
                const auto* b = static_cast<const char*>(std::memchr(buf + pos, '\\', qe - pos));
                if (b) {
                    pos = static_cast<size_t>(b - buf) + 1;
                    m_escape = true;
                    continue;
                }
                pos = qe;
                if (pos == to)
                    continue;
                ++pos;
                m_inString = false;
                if (m_depth == 0)
                    finishValue(pos);
                continue;
            }
            while (pos < to && !kSpecial[static_cast<unsigned char>(buf[pos])])
                ++pos;
            if (pos == to)
                continue;
            const char c = buf[pos++];
            if (c == '"') {
                m_inString = true;
            } else if (c == '{' || c == '[') {
                ++m_depth;
            } else if (--m_depth == 0) {
                finishValue(pos);
            }
            continue;
        }
        case State::Scalar: {
            const char c = buf[pos];
            if (c == ',' || c == '}' || c == ']' || isSpace(c))
                finishValue(pos); // the terminator is read in the next state
            else
                ++pos;
            continue;
        }
        default:
            break;
        }
        const char c = buf[pos];
        if (isSpace(c)) {
            ++pos;
            continue;
        }
        const uint64_t at = base + pos;
        switch (m_state) {
        case State::Value:
            if (c == ']' && !m_frames.empty() && m_frames.back().array && m_frames.back().index == 0) {
                ++pos; // an empty array
                endContainer(c, at);
            } else if (c == '}' || c == ']' || c == ',' || c == ':') {
                fail(std::string("unexpected '") + c + "' where a value should be", at);
            } else {
                startValue(pos, c);
                if (m_state != State::Scalar)
                    ++pos;
            }
            break;
        case State::Key:
            if (c == '"') {
                m_key.clear();
                m_state = State::KeyString;
                ++pos;
            } else if (c == '}') {
                ++pos;
                endContainer(c, at);
            } else {
                fail("expected a key", at);
            }
            break;
        case State::KeyString: {
            // Keys are short: collected raw (escapes kept), compared with the wanted names as they are.
            while (pos < to) {
                const char k = buf[pos++];
                if (m_escape) {
                    m_escape = false;
                } else if (k == '\\') {
                    m_escape = true;
                } else if (k == '"') {
                    m_state = State::Colon;
                    break;
                }
                if (m_key.size() < 256)
                    m_key.push_back(k);
            }
            break;
        }
        case State::Colon:
            if (c != ':') {
                fail("expected ':' after a key", at);
                break;
            }
            ++pos;
            if (m_firstKey.empty() && m_frames.size() == 1)
                m_firstKey = m_key.empty() ? std::string(" ") : m_key;
            m_pendingNode = child(m_frames.back().node, false, m_key);
            m_state = State::Value;
            break;
        case State::After: {
            Frame& f = m_frames.back();
            ++pos;
            if (c == ',') {
                if (f.array) {
                    ++f.index;
                    m_pendingNode = m_nodes[f.node].element;
                    m_state = State::Value;
                } else {
                    m_state = State::Key;
                }
            } else if (c == '}' || c == ']') {
                endContainer(c, at);
            } else {
                fail(std::string("unexpected '") + c + "' after a value", at);
            }
            break;
        }
        case State::Done:
            m_trailingGarbage = true;
            pos = to;
            break;
        default:
            break;
        }
    }
    m_consumed = base + to;
}

} // namespace ws
