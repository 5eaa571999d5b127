#include "io/file_fingerprint.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace ws {

namespace {

constexpr uint64_t kMul = 0x9e3779b97f4a7c15ull;
constexpr uint64_t kSeed = 0x6a09e667f3bcc909ull;

uint64_t mix(uint64_t h, uint64_t v) {
    h ^= v * kMul;
    h = (h << 31) | (h >> 33);
    return h * 0xbf58476d1ce4e5b9ull;
}

uint64_t word(const char* p) {
    uint64_t v;
    std::memcpy(&v, p, 8);
    return v;
}

std::string hex(uint64_t v) {
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
    return buf;
}

// Reads the whole file through `f` in 1 MiB pieces; false on a read error.
template <typename F> bool readAll(const std::string& path, F&& f) {
    FILE* file = std::fopen(path.c_str(), "rb");
    if (!file)
        return false;
    std::vector<char> buf(1 << 20);
    size_t n;
    // fread fills the buffer completely until the end (the legacy hash depends on that).
    while ((n = std::fread(buf.data(), 1, buf.size(), file)) > 0)
        f(buf.data(), n);
    const bool failed = std::ferror(file) != 0;
    std::fclose(file);
    return !failed;
}

} // namespace

ContentHasher::ContentHasher(uint64_t fileSize) {
    for (int k = 0; k < 4; ++k)
        m_lane[k] = kSeed ^ fileSize ^ (kMul * static_cast<uint64_t>(k + 1));
}

void ContentHasher::update(const char* data, size_t n) {
    m_bytes += n;
    if (m_carryLen) {
        const size_t take = std::min(n, sizeof m_carry - m_carryLen);
        std::memcpy(m_carry + m_carryLen, data, take);
        m_carryLen += take;
        data += take;
        n -= take;
        if (m_carryLen < sizeof m_carry)
            return;
        for (int k = 0; k < 4; ++k)
            m_lane[k] = mix(m_lane[k], word(m_carry + 8 * k));
        m_carryLen = 0;
    }
    uint64_t a = m_lane[0], b = m_lane[1], c = m_lane[2], d = m_lane[3];
    for (; n >= 32; data += 32, n -= 32) {
        a = mix(a, word(data));
        b = mix(b, word(data + 8));
        c = mix(c, word(data + 16));
        d = mix(d, word(data + 24));
    }
    m_lane[0] = a, m_lane[1] = b, m_lane[2] = c, m_lane[3] = d;
    std::memcpy(m_carry, data, n);
    m_carryLen = n;
}

uint64_t ContentHasher::finish() const {
    uint64_t lane[4] = {m_lane[0], m_lane[1], m_lane[2], m_lane[3]};
    // The last partial stripe, zero-padded; the byte count below tells "ab" from "ab\0".
    char tail[32] = {};
    std::memcpy(tail, m_carry, m_carryLen);
    for (size_t k = 0; k * 8 < m_carryLen; ++k)
        lane[k] = mix(lane[k], word(tail + 8 * k));
    uint64_t h = mix(lane[0], m_bytes);
    for (int k = 1; k < 4; ++k)
        h = mix(h, lane[k]);
    return h ^ (h >> 29);
}

std::string FileFingerprint::hashHex() const { return hex(hash); }

std::optional<FileFingerprint> fileIdentity(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
        return std::nullopt;
    std::error_code ec;
    const std::filesystem::path absolute = std::filesystem::absolute(path, ec);
    FileFingerprint fp;
    fp.path = ec ? path : absolute.lexically_normal().string();
    fp.size = static_cast<uint64_t>(st.st_size);
    fp.mtimeNs = static_cast<int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
    return fp;
}

std::optional<FileFingerprint> fingerprintFile(const std::string& path) {
    std::optional<FileFingerprint> fp = fileIdentity(path);
    if (!fp)
        return std::nullopt;
    ContentHasher hasher(fp->size);
    if (!readAll(path, [&](const char* p, size_t n) { hasher.update(p, n); }) || hasher.bytes() != fp->size)
        return std::nullopt; // unreadable, or it changed size while read
    fp->hash = hasher.finish();
    return fp;
}

std::optional<FileFingerprint> unchangedIdentity(const std::string& path, uint64_t size, int64_t mtimeNs) {
    std::optional<FileFingerprint> now = fileIdentity(path);
    if (!now || now->size != size || now->mtimeNs != mtimeNs)
        return std::nullopt;
    return now;
}

FingerprintOnReads::FingerprintOnReads(const std::string& path)
    : m_identity(fileIdentity(path)), m_hasher(m_identity ? m_identity->size : 0) {}

std::optional<FileFingerprint> FingerprintOnReads::finish() const {
    if (!m_identity || m_hasher.bytes() != m_identity->size)
        return std::nullopt;
    std::optional<FileFingerprint> fp = unchangedIdentity(m_identity->path, m_identity->size, m_identity->mtimeNs);
    if (fp)
        fp->hash = m_hasher.finish();
    return fp;
}

std::optional<std::string> legacyContentHashHex(const std::string& path) {
    const std::optional<FileFingerprint> fp = fileIdentity(path);
    if (!fp)
        return std::nullopt;
    uint64_t h = kSeed ^ fp->size;
    const bool ok = readAll(path, [&](const char* p, size_t n) {
        const size_t words = n / 8;
        for (size_t i = 0; i < words; ++i)
            h = mix(h, word(p + i * 8));
        if (n % 8) {
            uint64_t tail = 0;
            std::memcpy(&tail, p + words * 8, n - words * 8);
            h = mix(h, tail ^ (static_cast<uint64_t>(n) << 56));
        }
    });
    if (!ok)
        return std::nullopt;
    return hex(h ^ (h >> 29));
}

} // namespace ws
