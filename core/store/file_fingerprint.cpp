#include "store/file_fingerprint.h"

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

uint64_t mix(uint64_t h, uint64_t v) {
    h ^= v * kMul;
    h = (h << 31) | (h >> 33);
    return h * 0xbf58476d1ce4e5b9ull;
}

} // namespace

std::string FileFingerprint::hashHex() const {
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(hash));
    return buf;
}

std::optional<FileFingerprint> fingerprintFile(const std::string& path) {
    std::error_code ec;
    const std::filesystem::path absolute = std::filesystem::absolute(path, ec);
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return std::nullopt;
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        return std::nullopt;
    }
    FileFingerprint fp;
    fp.path = ec ? path : absolute.lexically_normal().string();
    fp.size = static_cast<uint64_t>(st.st_size);
    fp.mtimeNs = static_cast<int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
    uint64_t h = 0x6a09e667f3bcc909ull ^ fp.size;
    std::vector<char> buf(1 << 20);
    // fread fills the buffer completely until the end, so the hash never depends on read sizes.
    FILE* file = ::fdopen(fd, "rb");
    if (!file) {
        ::close(fd);
        return std::nullopt;
    }
    size_t n;
    while ((n = std::fread(buf.data(), 1, buf.size(), file)) > 0) {
        const size_t words = n / 8;
        for (size_t i = 0; i < words; ++i) {
            uint64_t v;
            std::memcpy(&v, buf.data() + i * 8, 8);
            h = mix(h, v);
        }
        uint64_t tail = 0;
        std::memcpy(&tail, buf.data() + words * 8, n - words * 8);
        if (n % 8)
            h = mix(h, tail ^ (static_cast<uint64_t>(n) << 56));
    }
    const bool failed = std::ferror(file) != 0;
    std::fclose(file);
    if (failed)
        return std::nullopt;
    fp.hash = h ^ (h >> 29);
    return fp;
}

} // namespace ws
