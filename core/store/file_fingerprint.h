#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace ws {

/*
 * FileFingerprint: what identifies a trace file for "already imported?": its absolute path, size,
 * modification time and a 64-bit content hash. The hash reads the whole file once, 8 bytes per
 * step with a multiply-xorshift mix (several GB/s), so it is affordable next to an import; it is not
 * cryptographic and need not be: it only tells our own imports apart.
 */
struct FileFingerprint {
    std::string path;
    uint64_t size = 0;
    int64_t mtimeNs = 0;
    uint64_t hash = 0;

    std::string hashHex() const;
};

std::optional<FileFingerprint> fingerprintFile(const std::string& path);

} // namespace ws
