#pragma once

#include "format/wscapcodec.h"

#include <string>

namespace ws::wscap {

/*
 * WscapWriter: an append-only capture file. open() creates the file and writes the file header;
 * write() appends already framed records (built with appendRecord) with plain write(2) calls, so
 * whatever write() returned for is in the kernel's page cache and survives a SIGKILL of the
 * process. Not thread-safe: one thread writes.
 */
class WscapWriter {
public:
    WscapWriter() = default;
    WscapWriter(const WscapWriter&) = delete;
    WscapWriter& operator=(const WscapWriter&) = delete;
    ~WscapWriter();

    bool open(const std::string& path, std::string* error);
    bool write(const std::string& framedRecords, std::string* error);
    template <class R> bool writeRecord(const R& record, std::string* error) {
        std::string bytes;
        appendRecord(bytes, record);
        return write(bytes, error);
    }
    // Closes without writing anything more (a forked child drops its parent's stream this way).
    void close();
    bool isOpen() const { return m_fd >= 0; }
    uint64_t bytesWritten() const { return m_bytes; }

private:
    int m_fd = -1;
    uint64_t m_bytes = 0;
};

} // namespace ws::wscap
