#include "io/column_codec.h"

#include <zstd.h>

#include <cstring>
#include <mutex>
#include <vector>

namespace ws::ColumnCodec {

namespace {

constexpr uint8_t kTagInt64Delta = 1;
constexpr uint8_t kTagFixedShuffled = 2;
// A decoded chunk is never larger than this: the store writes 64 Ki-row chunks of at most 8-byte
// values, so anything bigger is a damaged or hostile blob.
constexpr uint64_t kMaxDecodedBytes = uint64_t(1) << 28;

void putVarint(std::string& out, uint64_t v) {
    while (v >= 0x80) {
        out.push_back(static_cast<char>((v & 0x7f) | 0x80));
        v >>= 7;
    }
    out.push_back(static_cast<char>(v));
}

bool getVarint(const uint8_t*& p, const uint8_t* end, uint64_t& v) {
    v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (p == end)
            return false;
        const uint8_t b = *p++;
        v |= uint64_t(b & 0x7f) << shift;
        if (!(b & 0x80))
            return true;
    }
    return false;
}

uint64_t zigzag(int64_t v) { return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63); }
int64_t unzigzag(uint64_t v) { return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1); }

/*
 * CompressionContexts: zstd compression contexts kept for reuse. ZSTD_compress makes and frees a
 * context per call: its match tables (about 1 MB at level 3) came as fresh pages every time, faulted
 * in and zeroed by the kernel, for each of the thousands of chunks of a 1 GB session. A reused
 * context keeps them; the output is the same bytes. Shared by all threads (the store compresses
 * chunks on short-lived ones), at most one context per thread at a time.
 */
class CompressionContexts {
public:
    ~CompressionContexts() {
        for (ZSTD_CCtx* c : m_free)
            ZSTD_freeCCtx(c);
    }
    ZSTD_CCtx* take() {
        {
            std::lock_guard lock(m_mutex);
            if (!m_free.empty()) {
                ZSTD_CCtx* c = m_free.back();
                m_free.pop_back();
                return c;
            }
        }
        return ZSTD_createCCtx();
    }
    void give(ZSTD_CCtx* c) {
        std::lock_guard lock(m_mutex);
        m_free.push_back(c);
    }

private:
    std::mutex m_mutex;
    std::vector<ZSTD_CCtx*> m_free;
};

CompressionContexts& compressionContexts() {
    static CompressionContexts contexts;
    return contexts;
}

std::string frame(uint8_t tag, uint64_t count, std::string_view payload, int level) {
    std::string out;
    out.push_back(static_cast<char>(tag));
    putVarint(out, count);
    putVarint(out, payload.size());
    const size_t header = out.size();
    out.resize(header + ZSTD_compressBound(payload.size()));
    ZSTD_CCtx* context = compressionContexts().take();
    const size_t n = context ? ZSTD_compressCCtx(context, out.data() + header, out.size() - header, payload.data(),
                                                 payload.size(), level)
                             : ZSTD_compress(out.data() + header, out.size() - header, payload.data(), payload.size(), level);
    if (context)
        compressionContexts().give(context);
    out.resize(ZSTD_isError(n) ? header : header + n);
    // The bound is the payload's size: a blob that is kept (held columns, an import's packed args)
    // would keep about that much memory for a twentieth of it.
    if (out.capacity() > 2 * out.size() + 4096)
        out.shrink_to_fit();
    return out;
}

// Splits a blob into (tag, count, decompressed payload); false when anything does not add up.
bool unframe(std::string_view blob, uint8_t expectedTag, uint64_t& count, std::string& payload) {
    const auto* p = reinterpret_cast<const uint8_t*>(blob.data());
    const auto* end = p + blob.size();
    if (p == end || *p++ != expectedTag)
        return false;
    uint64_t size = 0;
    if (!getVarint(p, end, count) || !getVarint(p, end, size) || size > kMaxDecodedBytes)
        return false;
    payload.resize(size);
    if (size == 0)
        return p == end || ZSTD_getFrameContentSize(p, static_cast<size_t>(end - p)) == 0;
    const size_t n = ZSTD_decompress(payload.data(), size, p, static_cast<size_t>(end - p));
    return !ZSTD_isError(n) && n == size;
}

} // namespace

std::string encodeInt64(std::span<const int64_t> values, int zstdLevel) {
    std::string payload;
    payload.reserve(values.size() * 2);
    int64_t previous = 0;
    for (int64_t v : values) {
        // Wrapping subtraction: deltas of arbitrary int64 pairs round-trip through uint64.
        putVarint(payload, zigzag(static_cast<int64_t>(static_cast<uint64_t>(v) - static_cast<uint64_t>(previous))));
        previous = v;
    }
    return frame(kTagInt64Delta, values.size(), payload, zstdLevel);
}

bool decodeInt64(std::string_view blob, std::vector<int64_t>& out) {
    uint64_t count = 0;
    std::string payload;
    if (!unframe(blob, kTagInt64Delta, count, payload) || count > payload.size())
        return false;
    out.resize(count);
    const auto* p = reinterpret_cast<const uint8_t*>(payload.data());
    const auto* end = p + payload.size();
    uint64_t previous = 0;
    for (uint64_t i = 0; i < count; ++i) {
        uint64_t z = 0;
        if (!getVarint(p, end, z))
            return false;
        previous += static_cast<uint64_t>(unzigzag(z));
        out[i] = static_cast<int64_t>(previous);
    }
    return p == end;
}

bool rowCount(std::string_view blob, uint64_t& count) {
    const auto* p = reinterpret_cast<const uint8_t*>(blob.data());
    const auto* end = p + blob.size();
    return p != end && getVarint(++p, end, count);
}

std::string encodeFixed(const void* data, size_t count, size_t width, int zstdLevel) {
    if (width == 1) // nothing to shuffle (text): compress it where it is
        return frame(kTagFixedShuffled, count, std::string_view(static_cast<const char*>(data), count), zstdLevel);
    std::string payload(count * width, '\0');
    const auto* in = static_cast<const uint8_t*>(data);
    for (size_t i = 0; i < count; ++i)
        for (size_t b = 0; b < width; ++b)
            payload[b * count + i] = static_cast<char>(in[i * width + b]);
    return frame(kTagFixedShuffled, count, payload, zstdLevel);
}

bool decodeFixed(std::string_view blob, size_t width, std::vector<uint8_t>& out, size_t& count) {
    uint64_t n = 0;
    std::string payload;
    if (width == 0 || !unframe(blob, kTagFixedShuffled, n, payload) || payload.size() != n * width)
        return false;
    count = static_cast<size_t>(n);
    out.resize(payload.size());
    for (size_t i = 0; i < count; ++i)
        for (size_t b = 0; b < width; ++b)
            out[i * width + b] = static_cast<uint8_t>(payload[b * count + i]);
    return true;
}

} // namespace ws::ColumnCodec
