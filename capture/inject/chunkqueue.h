#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <vector>

namespace ws {

/*
 * ChunkQueue: encoded record bytes on their way to the writer thread. Producers (CUPTI's buffer
 * thread, the samplers, error reporting) push whole framed records, so any interleaving of chunks
 * is a valid stream. The writer takes everything at once. Holds its lock only to move strings.
 */
class ChunkQueue {
public:
    void push(std::string&& chunk);
    // Waits until something is queued, notify() is called or the deadline passes; returns the chunks.
    std::vector<std::string> takeAll(std::chrono::steady_clock::time_point deadline);
    void notify();

private:
    std::mutex m_mutex;
    std::condition_variable m_cv;
    std::vector<std::string> m_chunks;
    bool m_woken = false;
};

} // namespace ws
