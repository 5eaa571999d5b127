#pragma once

// Byte-level encoding of wscap records (layout rules in wscapformat.h). Header-only: the injection
// library encodes with it on CUPTI's buffer thread, readers decode with it.

#include "format/wscapformat.h"

#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>

namespace ws::wscap {

/* Appends little-endian fields to a byte string. Stateless apart from the output. */
class FieldEncoder {
public:
    explicit FieldEncoder(std::string& out) : m_out(out) {}

    template <class T> void operator()(const char*, const T& value) { put(value); }

private:
    template <class T> void putInt(T value) {
        using U = std::make_unsigned_t<T>;
        U u = static_cast<U>(value);
        char bytes[sizeof(T)];
        for (size_t i = 0; i < sizeof(T); ++i) {
            bytes[i] = static_cast<char>(u & 0xffu);
            u = static_cast<U>(u >> 8);
        }
        m_out.append(bytes, sizeof(T));
    }
    void put(uint8_t v) { m_out.push_back(static_cast<char>(v)); }
    void put(uint16_t v) { putInt(v); }
    void put(uint32_t v) { putInt(v); }
    void put(uint64_t v) { putInt(v); }
    void put(int32_t v) { putInt(v); }
    void put(int64_t v) { putInt(v); }
    void put(double v) {
        uint64_t bits;
        std::memcpy(&bits, &v, sizeof(bits));
        putInt(bits);
    }
    void put(const std::string& s) {
        putInt(static_cast<uint32_t>(s.size()));
        m_out.append(s);
    }
    void put(const std::vector<std::string>& list) {
        putInt(static_cast<uint32_t>(list.size()));
        for (const std::string& s : list)
            put(s);
    }
    void put(const Uuid& u) { m_out.append(reinterpret_cast<const char*>(u.data()), u.size()); }
    void put(const std::vector<uint64_t>& list) {
        putInt(static_cast<uint32_t>(list.size()));
        for (uint64_t v : list)
            putInt(v);
    }

    std::string& m_out;
};

/*
 * Reads fields back from one payload. When the payload ends early (an older minor version), the
 * remaining fields keep their defaults and short() says so; bytes left over (a newer minor
 * version) are ignored. A malformed string length marks the decoder bad().
 */
class FieldDecoder {
public:
    FieldDecoder(const uint8_t* data, size_t size) : m_p(data), m_end(data + size) {}

    template <class T> void operator()(const char*, T& value) {
        if (m_short || m_bad)
            return;
        get(value);
    }
    bool isShort() const { return m_short; }
    bool bad() const { return m_bad; }

private:
    bool need(size_t n) {
        if (static_cast<size_t>(m_end - m_p) < n) {
            m_short = true;
            return false;
        }
        return true;
    }
    template <class T> void getInt(T& value) {
        if (!need(sizeof(T)))
            return;
        using U = std::make_unsigned_t<T>;
        U u = 0;
        for (size_t i = sizeof(T); i-- > 0;)
            u = static_cast<U>((static_cast<uint64_t>(u) << 8) | m_p[i]);
        value = static_cast<T>(u);
        m_p += sizeof(T);
    }
    void get(uint8_t& v) { getInt(v); }
    void get(uint16_t& v) { getInt(v); }
    void get(uint32_t& v) { getInt(v); }
    void get(uint64_t& v) { getInt(v); }
    void get(int32_t& v) { getInt(v); }
    void get(int64_t& v) { getInt(v); }
    void get(double& v) {
        uint64_t bits = 0;
        getInt(bits);
        std::memcpy(&v, &bits, sizeof(v));
    }
    void get(std::string& s) {
        uint32_t n = 0;
        getInt(n);
        if (m_short)
            return;
        if (static_cast<size_t>(m_end - m_p) < n) {
            m_bad = true;
            return;
        }
        s.assign(reinterpret_cast<const char*>(m_p), n);
        m_p += n;
    }
    void get(std::vector<std::string>& list) {
        uint32_t n = 0;
        getInt(n);
        list.clear();
        for (uint32_t i = 0; i < n && !m_short && !m_bad; ++i) {
            std::string s;
            get(s);
            list.push_back(std::move(s));
        }
        if (m_short)
            m_bad = true; // a list cut in the middle is corruption, not an older version
    }
    void get(std::vector<uint64_t>& list) {
        uint32_t n = 0;
        getInt(n);
        list.clear();
        if (m_short)
            return;
        if (static_cast<size_t>(m_end - m_p) / sizeof(uint64_t) < n) {
            m_bad = true; // a count beyond the payload is corruption, not an older version
            return;
        }
        list.resize(n);
        for (uint32_t i = 0; i < n; ++i)
            getInt(list[i]);
    }
    void get(Uuid& u) {
        if (!need(u.size()))
            return;
        std::memcpy(u.data(), m_p, u.size());
        m_p += u.size();
    }

    const uint8_t* m_p;
    const uint8_t* m_end;
    bool m_short = false;
    bool m_bad = false;
};

// Appends one framed record (header + payload) to out.
template <class R> void appendRecord(std::string& out, const R& record) {
    const size_t headerAt = out.size();
    out.append(kRecordHeaderSize, '\0');
    FieldEncoder enc(out);
    R::fields(record, enc);
    const uint32_t size = static_cast<uint32_t>(out.size() - headerAt - kRecordHeaderSize);
    const uint16_t type = static_cast<uint16_t>(R::kType);
    char* h = out.data() + headerAt;
    h[0] = static_cast<char>(type & 0xff);
    h[1] = static_cast<char>(type >> 8);
    h[2] = h[3] = 0;
    for (int i = 0; i < 4; ++i)
        h[4 + i] = static_cast<char>((size >> (8 * i)) & 0xffu);
}

// The 16-byte file header for the current version.
inline std::string fileHeader(uint16_t major = kVersionMajor, uint16_t minor = kVersionMinor) {
    std::string h(kMagic, sizeof(kMagic));
    h.push_back(static_cast<char>(major & 0xff));
    h.push_back(static_cast<char>(major >> 8));
    h.push_back(static_cast<char>(minor & 0xff));
    h.push_back(static_cast<char>(minor >> 8));
    h.append(4, '\0');
    return h;
}

// Decodes a payload into record; false when the payload is malformed.
template <class R> bool decodeRecord(const uint8_t* payload, size_t size, R* record, bool* isShort = nullptr) {
    FieldDecoder dec(payload, size);
    R::fields(*record, dec);
    if (isShort)
        *isShort = dec.isShort();
    return !dec.bad();
}

} // namespace ws::wscap
