#include "inject/launchrecorder.h"

#include "format/wscapcodec.h"

#include <sys/syscall.h>
#include <unistd.h>

namespace ws {

using namespace wscap;

std::shared_ptr<LaunchRecorder::ThreadBuffer> LaunchRecorder::registerThread(uint32_t threadId) {
    auto buffer = std::make_shared<ThreadBuffer>();
    buffer->threadId = threadId;
    std::lock_guard<std::mutex> lock(m_threadsMutex);
    m_threads.push_back(buffer);
    return buffer;
}

void LaunchRecorder::add(const Launch& launch) {
    // The buffer outlives the thread (the recorder keeps it) so launches of a thread that ended
    // before the next flush are still written.
    thread_local std::shared_ptr<ThreadBuffer> buffer;
    try {
        if (!buffer)
            buffer = registerThread(static_cast<uint32_t>(::syscall(SYS_gettid)));
        std::lock_guard<std::mutex> lock(buffer->mutex);
        buffer->launches.push_back(launch);
    } catch (...) {
        return; // out of memory: this launch goes unrecorded; nothing may escape into CUDA
    }
    m_launches.fetch_add(1, std::memory_order_relaxed);
}

void LaunchRecorder::take(uint32_t processId, const std::function<uint32_t(uint32_t, std::string&)>& apiName,
                          std::string& out) {
    std::vector<std::shared_ptr<ThreadBuffer>> threads;
    {
        std::lock_guard<std::mutex> lock(m_threadsMutex);
        threads = m_threads;
    }
    for (const auto& b : threads) {
        std::vector<Launch> launches;
        {
            std::lock_guard<std::mutex> lock(b->mutex);
            launches.swap(b->launches);
        }
        for (const Launch& l : launches) {
            ApiRecord o;
            o.domain = static_cast<uint8_t>(ApiDomain::Driver);
            o.cbid = l.cbid;
            o.nameId = apiName(l.cbid, out);
            o.start = l.start;
            o.end = l.end;
            o.processId = processId;
            o.threadId = b->threadId;
            o.correlationId = l.correlationId;
            o.returnValue = l.returnValue;
            appendRecord(out, o);
        }
    }
}

} // namespace ws
