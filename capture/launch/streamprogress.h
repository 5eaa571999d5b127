#pragma once

#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace ws {

/*
 * StreamProgress: how far a running capture has got, read from the streams it is writing. Each
 * poll() reads only the bytes appended since the last one (record headers; payloads only of
 * Dropped, Error and Footer records), so watching a long capture costs O(new records), not a full
 * re-read. Used by the GUI's live status; plain C++.
 */
class StreamProgress {
public:
    /* One Error record worth showing (warnings and errors of the injection library). */
    struct Problem {
        uint32_t pid = 0;
        int severity = 0;
        int code = 0;
        std::string text; // "where: message"
    };

    StreamProgress() = default;
    StreamProgress(const StreamProgress&) = delete;
    StreamProgress& operator=(const StreamProgress&) = delete;
    ~StreamProgress();

    // Scans the *.wscap files of `dir` for new records.
    void poll(const std::string& dir);

    size_t streams() const { return m_files.size(); }
    uint64_t records() const { return m_records; }
    uint64_t dropped() const { return m_dropped; }
    uint64_t bytes() const { return m_bytes; }
    size_t complete() const { return m_footers; } // streams closed cleanly (Footer seen)
    const std::vector<Problem>& problems() const { return m_problems; }

private:
    /* Read position in one stream. */
    struct File {
        std::FILE* f = nullptr;
        uint64_t offset = 0; // next record header (after the 16-byte file header)
        uint32_t pid = 0;
        bool headerChecked = false;
    };
    void scan(File& file);

    std::map<std::string, File> m_files;
    uint64_t m_records = 0;
    uint64_t m_dropped = 0;
    uint64_t m_bytes = 0;
    size_t m_footers = 0;
    std::vector<Problem> m_problems;
};

} // namespace ws
