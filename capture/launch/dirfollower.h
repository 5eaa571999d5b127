#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <string_view>

namespace ws {

/*
 * DirFollower: the capture files (*.wscap) of one directory as they grow, for streaming a capture
 * while it records. Files there before start() are someone else's and never read. poll() reads what
 * each file gained since the last poll, in pieces of at most `chunk` bytes, and hands them on with
 * their offsets; files only grow (the writer appends; symbolization appends after the Footer), so a
 * file that shrank is read again from the start.
 */
class DirFollower {
public:
    using DataFn = std::function<bool(const std::string& name, uint64_t offset, std::string_view data)>;

    explicit DirFollower(std::string dir, size_t chunk = 1 << 20) : m_dir(std::move(dir)), m_chunk(chunk) {}
    void start(); // remembers the files already there
    // Returns false when fn returned false (the receiver is gone); bytes not handed on are read
    // again at the next poll.
    bool poll(const DataFn& fn);
    uint64_t bytesSent() const { return m_bytes; }

private:
    std::string m_dir;
    size_t m_chunk;
    std::set<std::string> m_ignored; // paths there at start()
    std::map<std::string, uint64_t> m_sent; // name -> bytes handed on
    uint64_t m_bytes = 0;
};

} // namespace ws
