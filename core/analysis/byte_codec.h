#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

namespace ws {

/*
 * ByteWriter / ByteReader: a minimal little-endian binary encoding for cached analysis results
 * (session_results_codec.cpp). Integers and floats are written at their in-memory width, strings
 * as a u32 length plus bytes, optionals as a presence byte plus the value. There is no framing or
 * schema: the caller writes and reads fields in the same order and versions the whole blob.
 * A reader never reads past its end: once it runs out, ok() turns false and every further get
 * returns zero values, so a truncated or foreign blob is detected (by ok()) instead of crashing.
 */
class ByteWriter {
public:
    template <typename T>
        requires std::is_arithmetic_v<T> || std::is_enum_v<T>
    void put(T v) {
        char bytes[sizeof(T)];
        std::memcpy(bytes, &v, sizeof(T));
        m_out.append(bytes, sizeof(T));
    }
    void put(bool v) { put(static_cast<uint8_t>(v ? 1 : 0)); }
    void put(std::string_view s) {
        put(static_cast<uint32_t>(s.size()));
        m_out.append(s.data(), s.size());
    }
    void put(const std::string& s) { put(std::string_view(s)); }
    template <typename T>
    void put(const std::optional<T>& v) {
        put(v.has_value());
        if (v)
            put(*v);
    }
    const std::string& bytes() const { return m_out; }
    std::string take() { return std::move(m_out); }

private:
    std::string m_out;
};

class ByteReader {
public:
    explicit ByteReader(std::string_view in) : m_in(in) {}

    template <typename T>
        requires std::is_arithmetic_v<T> || std::is_enum_v<T>
    void get(T& v) {
        v = T{};
        if (!take(sizeof(T)))
            return;
        std::memcpy(&v, m_in.data() + m_pos - sizeof(T), sizeof(T));
    }
    void get(bool& v) {
        uint8_t b = 0;
        get(b);
        v = b != 0;
    }
    void get(std::string& s) {
        uint32_t n = 0;
        get(n);
        s.clear();
        if (take(n))
            s.assign(m_in.data() + m_pos - n, n);
    }
    template <typename T>
    void get(std::optional<T>& v) {
        bool present = false;
        get(present);
        v.reset();
        if (present) {
            T value{};
            get(value);
            v = std::move(value);
        }
    }
    // A count of items that follow, each at least minBytes long: larger than what is left means a
    // damaged blob (ok() turns false, 0 returned), so no caller reserves gigabytes for garbage.
    size_t count(size_t minBytes = 1) {
        uint32_t n = 0;
        get(n);
        if (static_cast<uint64_t>(n) * (minBytes ? minBytes : 1) > m_in.size() - m_pos) {
            m_ok = false;
            return 0;
        }
        return n;
    }
    bool ok() const { return m_ok; }
    bool atEnd() const { return m_pos == m_in.size(); }

private:
    bool take(size_t n) {
        if (!m_ok || n > m_in.size() - m_pos) {
            m_ok = false;
            return false;
        }
        m_pos += n;
        return true;
    }
    std::string_view m_in;
    size_t m_pos = 0;
    bool m_ok = true;
};

} // namespace ws
