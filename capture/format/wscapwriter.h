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
    // Creates a stream that did not exist in `dir`, never replacing one: <stem>.wscap, else
    // <stem>-2.wscap, <stem>-3.wscap, ... (O_EXCL, so two processes on two hosts writing into one
    // shared folder, or two captures into one folder, each get their own file). *path is the file.
    bool createNew(const std::string& dir, const std::string& stem, std::string* path, std::string* error);
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
    bool started(std::string* error);

    int m_fd = -1;
    uint64_t m_bytes = 0;
};

// Creates <dir>/<stem><extension>, else <stem>-2<extension>, <stem>-3<extension>, ... with O_EXCL,
// never opening a file that exists; the write-only descriptor, or -1 with *error. *path is the file.
int createExclusive(const std::string& dir, const std::string& stem, const std::string& extension, std::string* path,
                    std::string* error);

// The stem of a process's stream: "<host>-<pid>", the host name reduced to letters, digits, '.', '_'
// and '-' (others become '_'), so pids of different hosts never share a name.
std::string streamStem(const std::string& hostname, uint32_t pid);

} // namespace ws::wscap
