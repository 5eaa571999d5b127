#include "launch/streamframes.h"

#include <cstring>

namespace ws::frames {

namespace {

template <class T> void put(std::string& out, T v) {
    for (size_t i = 0; i < sizeof(T); ++i)
        out.push_back(static_cast<char>(static_cast<uint64_t>(v) >> (8 * i)));
}

template <class T> T get(const char* p) {
    uint64_t v = 0;
    for (size_t i = 0; i < sizeof(T); ++i)
        v |= uint64_t(static_cast<uint8_t>(p[i])) << (8 * i);
    return static_cast<T>(v);
}

} // namespace

void append(std::string& out, Kind kind, std::string_view name, uint64_t offset, std::string_view data) {
    put<uint8_t>(out, static_cast<uint8_t>(kind));
    put<uint32_t>(out, static_cast<uint32_t>(name.size()));
    out += name;
    put<uint64_t>(out, offset);
    put<uint32_t>(out, static_cast<uint32_t>(data.size()));
    out += data;
}

bool Parser::feed(const char* data, size_t size, std::string* error) {
    if (m_failed)
        return false;
    m_buffer.append(data, size);
    size_t pos = 0;
    auto fail = [&](const std::string& why) {
        m_failed = true;
        *error = why;
        return false;
    };
    if (!m_greeted) {
        // Anything a login script prints before the greeting would not be ours: refuse it whole.
        const size_t have = std::min(m_buffer.size(), kGreeting.size());
        if (m_buffer.compare(0, have, kGreeting.substr(0, have)) != 0)
            return fail("the host did not answer as warpscope-capture --stream (got \"" +
                        m_buffer.substr(0, std::min<size_t>(m_buffer.size(), 60)) + "\")");
        if (m_buffer.size() < kGreeting.size())
            return true;
        m_greeted = true;
        pos = kGreeting.size();
    }
    for (;;) {
        const char* p = m_buffer.data() + pos;
        const size_t left = m_buffer.size() - pos;
        if (left < 5)
            break;
        const auto kind = get<uint8_t>(p);
        if (kind < 1 || kind > 4)
            return fail("unknown frame kind " + std::to_string(kind));
        const auto nameLen = get<uint32_t>(p + 1);
        if (nameLen > kMaxName)
            return fail("frame name of " + std::to_string(nameLen) + " bytes");
        if (left < 5 + nameLen + 12)
            break;
        const auto offset = get<uint64_t>(p + 5 + nameLen);
        const auto dataLen = get<uint32_t>(p + 5 + nameLen + 8);
        if (dataLen > kMaxData)
            return fail("frame data of " + std::to_string(dataLen) + " bytes");
        const size_t total = 5 + nameLen + 12 + size_t(dataLen);
        if (left < total)
            break;
        const std::string name(p + 5, nameLen);
        m_fn(static_cast<Kind>(kind), name, offset, std::string_view(p + 5 + nameLen + 12, dataLen));
        pos += total;
    }
    m_buffer.erase(0, pos);
    return true;
}

} // namespace ws::frames
