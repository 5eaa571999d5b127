#include "inject/chunkqueue.h"

namespace ws {

void ChunkQueue::push(std::string&& chunk) {
    if (chunk.empty())
        return;
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_chunks.push_back(std::move(chunk));
    }
    m_cv.notify_one();
}

void ChunkQueue::notify() {
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_woken = true;
    }
    m_cv.notify_one();
}

std::vector<std::string> ChunkQueue::takeAll(std::chrono::steady_clock::time_point deadline) {
    std::unique_lock<std::mutex> lock(m_mutex);
    m_cv.wait_until(lock, deadline, [this] { return !m_chunks.empty() || m_woken; });
    m_woken = false;
    std::vector<std::string> out;
    out.swap(m_chunks);
    return out;
}

} // namespace ws
