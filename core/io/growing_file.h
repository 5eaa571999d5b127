#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <fcntl.h>
#include <mutex>
#include <string>
#include <unistd.h>

namespace ws {

/*
 * GrowingFile: a file that another thread is still writing (a remote trace being downloaded), so
 * that an importer can read it while it arrives instead of after (issue #14: download overlaps
 * import). The writer reports how many bytes the file holds after each write and when it is done;
 * InputStream (input_stream.h) waits on it before reading past what is there, and sees the end of
 * the file only once the writer has finished.
 *
 * The file is opened (created if need be) when the GrowingFile is made, before the first byte, and
 * readers read through that descriptor: the writer renames the file when it is complete, which may
 * happen before a reader gets to it.
 *
 * A writer that starts the file over (a server that answered a resumed request with the whole
 * object) makes restarted() true: what was read before may not be the object's bytes, so the
 * reader's result must be discarded and the finished file read again.
 */
class GrowingFile {
public:
    GrowingFile(const std::string& path, int64_t expectedSize)
        : m_expected(expectedSize), m_fd(::open(path.c_str(), O_RDONLY | O_CREAT | O_CLOEXEC, 0600)) {}
    ~GrowingFile() {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    GrowingFile(const GrowingFile&) = delete;
    GrowingFile& operator=(const GrowingFile&) = delete;

    // Readers dup() this; -1 when the file could not be opened.
    int fd() const { return m_fd; }
    // The object's full size when the server said it, -1 otherwise.
    int64_t expectedSize() const { return m_expected; }

    // Writer: the file now holds `bytes` bytes.
    void grew(uint64_t bytes) {
        bool wake;
        {
            std::lock_guard lock(m_mutex);
            if (bytes < m_bytes)
                m_restarted = true;
            m_bytes = bytes;
            // Only when a reader's wait is over: a wake-up per network read would cost the
            // download the CPU it needs where cores are few.
            wake = m_bytes >= m_wanted || m_restarted;
        }
        if (wake)
            m_changed.notify_all();
    }
    // Writer: no more bytes will come (complete, failed or cancelled).
    void finish() {
        {
            std::lock_guard lock(m_mutex);
            m_finished = true;
        }
        m_changed.notify_all();
    }

    // Reader: blocks until the file holds `want` bytes beyond `position` (or the writer has
    // finished); returns the bytes the file holds (<= position means there will be no more).
    // Waiting for a batch rather than the next byte keeps the reader from waking per network
    // packet, which costs the download its CPU where cores are few.
    uint64_t waitBeyond(uint64_t position, uint64_t want = 1) {
        std::unique_lock lock(m_mutex);
        const uint64_t target = position + want;
        while (m_bytes < target && !m_finished) {
            m_wanted = std::min(m_wanted, target);
            m_changed.wait(lock);
            m_wanted = UINT64_MAX; // readers that still wait set it again
        }
        return m_bytes;
    }
    bool restarted() const {
        std::lock_guard lock(m_mutex);
        return m_restarted;
    }

private:
    const int64_t m_expected;
    const int m_fd;
    mutable std::mutex m_mutex;
    std::condition_variable m_changed;
    uint64_t m_bytes = 0;
    uint64_t m_wanted = UINT64_MAX; // the least size a waiting reader needs
    bool m_finished = false;
    bool m_restarted = false;
};

} // namespace ws
