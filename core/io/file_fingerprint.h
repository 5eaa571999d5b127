#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace ws {

/*
 * ContentHasher: the 64-bit content hash of a fingerprint, fed the file's bytes in pieces of any
 * size (the value depends on the bytes only, never on how they were cut). Four independent lanes
 * take 8 bytes each per 32-byte stripe with a multiply-xorshift mix, so the multiplies of the lanes
 * overlap where the single chain of the first hash (legacyContentHashHex) waited on every one: on
 * the 1 GB trace 1.5 % of an import+store's samples against 5 %. It is not cryptographic and need
 * not be: it only tells our own imports apart. Fed by whoever reads the file anyway
 * (FingerprintOnReads): a JSON import that is going to be stored, or the session store's pass over
 * the events' arguments, instead of a read of its own.
 */
class ContentHasher {
public:
    explicit ContentHasher(uint64_t fileSize);
    void update(const char* data, size_t n);
    uint64_t bytes() const { return m_bytes; }
    uint64_t finish() const;

private:
    uint64_t m_lane[4];
    char m_carry[32] = {};
    size_t m_carryLen = 0;
    uint64_t m_bytes = 0;
};

/*
 * FileFingerprint: what identifies a trace file for "already imported?": its absolute path, size,
 * modification time and a 64-bit content hash (ContentHasher, meta key "source_hash2"; sessions
 * stored before it carry legacyContentHash's under "source_hash").
 */
struct FileFingerprint {
    std::string path;
    uint64_t size = 0;
    int64_t mtimeNs = 0;
    uint64_t hash = 0;

    std::string hashHex() const;
};

// Path, size and modification time of a regular file, hash left 0; nullopt when it is not one.
std::optional<FileFingerprint> fileIdentity(const std::string& path);
// The identity and the content hash, reading the whole file.
std::optional<FileFingerprint> fingerprintFile(const std::string& path);
// The identity of the file at `path` when it still has this size and modification time; nullopt
// when it changed (or is gone).
std::optional<FileFingerprint> unchangedIdentity(const std::string& path, uint64_t size, int64_t mtimeNs);

/*
 * FingerprintOnReads: a file's fingerprint made from reads that a reader makes anyway (the JSON
 * import's, or the store's pass over the arguments), not from a read of its own. Made before the
 * first read, it takes the file's identity; update() is given every byte, in order; finish() gives
 * the fingerprint when the bytes given were the whole file and the file still has the size and
 * time it had at the start (otherwise the hash may mix two versions), nullopt else.
 */
class FingerprintOnReads {
public:
    explicit FingerprintOnReads(const std::string& path);
    bool started() const { return m_identity.has_value(); } // false: not a regular file
    void update(const char* data, size_t n) { m_hasher.update(data, n); }
    std::optional<FileFingerprint> finish() const;

private:
    std::optional<FileFingerprint> m_identity;
    ContentHasher m_hasher;
};
// The content hash of the first fingerprints (one multiply-xorshift chain over 8-byte words), as
// 16 hex digits: what a session stored before "source_hash2" is matched against.
std::optional<std::string> legacyContentHashHex(const std::string& path);

} // namespace ws
