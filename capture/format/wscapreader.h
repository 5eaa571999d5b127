#pragma once

#include "format/wscapcodec.h"

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace ws::wscap {

/* One framed record as read from a stream: its type, where it starts and its raw payload. */
struct RawRecord {
    uint16_t type = 0;
    uint16_t flags = 0;
    uint64_t offset = 0; // file offset of the record header
    std::vector<uint8_t> payload;

    bool known() const { return type >= 1 && type <= kMaxKnownRecordType; }
    template <class R> bool is() const { return type == static_cast<uint16_t>(R::kType); }
    // Decodes the payload as R; false when the type differs or the payload is malformed.
    template <class R> bool decode(R* record) const {
        return is<R>() && decodeRecord(payload.data(), payload.size(), record);
    }
};

/*
 * WscapReader: sequential reader of one capture stream, from a file (streamed, constant memory)
 * or from memory. open() checks the magic and the major version; next() then yields records in
 * file order until the end. A record whose header or payload is cut off (a process killed while
 * writing) ends the stream with Truncated after every complete record was returned; an absurd
 * payload size ends it with Corrupt. Unknown record types are returned like others (known() is
 * false) so callers skip them by just ignoring them.
 */
class WscapReader {
public:
    enum class Status { Record, End, Truncated, Corrupt };

    WscapReader() = default;
    WscapReader(const WscapReader&) = delete;
    WscapReader& operator=(const WscapReader&) = delete;
    ~WscapReader();

    bool open(const std::string& path, std::string* error);
    bool openMemory(const void* data, size_t size, std::string* error);

    Status next(RawRecord* record);
    // For a file that is still being written (a live capture): after next() returned End, or
    // Truncated because the last record was cut at the end of what was there, go back to the end
    // of the last complete record so that the next next() reads what was appended since. False
    // (nothing changes) for a memory reader, a corrupt stream, or one that is still readable.
    bool resume();

    uint16_t versionMajor() const { return m_major; }
    uint16_t versionMinor() const { return m_minor; }
    uint64_t offset() const { return m_offset; }
    // The end of the last complete record read (where resume() goes on).
    uint64_t completeOffset() const { return m_complete; }
    bool truncated() const { return m_status == Status::Truncated; }
    // Why the stream ended early (empty after a clean end).
    const std::string& problem() const { return m_problem; }

    // True when the first bytes of a file look like a capture stream (for format sniffing).
    static bool sniff(const void* data, size_t size);

private:
    bool readHeader(std::string* error);
    size_t readBytes(void* dst, size_t n);

    std::FILE* m_file = nullptr;
    const uint8_t* m_memory = nullptr;
    size_t m_memorySize = 0;
    uint64_t m_offset = 0;
    uint64_t m_complete = 0; // end of the last complete record (or of the file header)
    uint16_t m_major = 0;
    uint16_t m_minor = 0;
    Status m_status = Status::Record;
    std::string m_problem;
};

} // namespace ws::wscap
