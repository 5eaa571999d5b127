#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace ws {

class GrowingFile;

/*
 * InputStream: sequential reader of a trace file's text, transparently inflating gzip (including
 * concatenated members) and zstd. Reads through a small fixed buffer, so memory stays bounded
 * whatever the file size. Compression is detected from the magic bytes, never the name.
 * A corrupt or cut compressed stream ends the text there and sets truncated()/error().
 */
class InputStream {
public:
    enum class Compression { None, Gzip, Zstd };

    InputStream();
    ~InputStream();
    InputStream(const InputStream&) = delete;
    InputStream& operator=(const InputStream&) = delete;

    // Opens path; on failure returns false and sets error() to one sentence. With `growing`, the
    // file is still being written (a download): it is read through the GrowingFile's descriptor
    // (path only names it), reads wait for its bytes, and the end of the file is where the writer
    // finished (growing_file.h).
    bool open(const std::string& path, std::shared_ptr<GrowingFile> growing = nullptr);
    // Reads up to n bytes of (decompressed) text; 0 at the end or on error.
    size_t read(char* out, size_t n);
    // Skips n bytes of decompressed text (seeks for plain files). Returns false at EOF/error.
    bool skip(uint64_t n);
    // Decompressed bytes returned or skipped so far.
    uint64_t textPosition() const { return m_textPos; }

    /*
     * Checkpoint: the complete decoder state at one text position of a gzip stream (zlib's
     * inflateCopy, ~40 KB with its window), so a later reader can resume there instead of
     * inflating from the start. Only gzip supports it; plain files seek directly.
     */
    class Checkpoint;
    bool canCheckpoint() const { return m_compression == Compression::Gzip; }
    std::shared_ptr<const Checkpoint> checkpoint() const;
    // Resumes at the checkpoint's text position (the stream must be open on the same file).
    bool restore(const Checkpoint& cp);

    // Calls `observer` with every byte read from the file (compressed as it is on disk), in order
    // and from the first byte on, so that a caller can hash the file on the reads it makes anyway.
    // False when bytes beyond the first buffer were read already. A seek (a far skip, a restore)
    // ends the observation: observedAll() is then false.
    bool observeFileBytes(std::function<void(const char*, size_t)> observer);
    bool observedAll() const { return m_observer != nullptr; }

    Compression compression() const { return m_compression; }
    uint64_t fileSize() const { return m_fileSize; }
    uint64_t fileBytesConsumed() const { return m_fileConsumed; }
    bool truncated() const { return m_truncated; }
    const std::string& error() const { return m_error; }

private:
    size_t readRaw(char* out, size_t n);
    size_t readGzip(char* out, size_t n);
    size_t readZstd(char* out, size_t n);
    bool refill(size_t want = SIZE_MAX); // reads up to min(want, the buffer's size)
    long readFile(char* out, size_t n); // ::read, waiting for a growing file's bytes

    struct Codec;
    int m_fd = -1;
    std::shared_ptr<GrowingFile> m_growing;
    Compression m_compression = Compression::None;
    uint64_t m_fileSize = 0;
    uint64_t m_fileConsumed = 0;
    uint64_t m_textPos = 0;
    bool m_eof = false;
    bool m_afterSeek = false; // skip() seeked far: the next refill reads only what is asked for
    bool m_finished = false;
    bool m_truncated = false;
    std::string m_error;
    std::unique_ptr<char[]> m_in;
    size_t m_inCapacity = 0;
    size_t m_inPos = 0;
    size_t m_inLen = 0;
    std::unique_ptr<Codec> m_codec;
    std::function<void(const char*, size_t)> m_observer;
};

} // namespace ws
