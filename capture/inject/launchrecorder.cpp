#include "inject/launchrecorder.h"

#include "format/wscapcodec.h"

namespace ws {

using namespace wscap;

void LaunchRecorder::add(const Launch& launch) {
    try {
        m_buffers.add(launch);
    } catch (...) {
        // Out of memory: this launch goes unrecorded; nothing may escape into CUDA.
    }
}

void LaunchRecorder::take(uint32_t processId, const std::function<uint32_t(uint32_t, std::string&)>& apiName,
                          const TickLine& ticks, std::string& out) {
    m_buffers.drain([&](uint32_t threadId, std::span<const Launch> launches) {
        for (const Launch& l : launches) {
            ApiRecord o;
            o.domain = static_cast<uint8_t>(ApiDomain::Driver);
            o.cbid = l.cbid;
            o.nameId = apiName(l.cbid, out);
            o.start = ticks.toNs(l.start);
            o.end = ticks.toNs(l.end);
            o.processId = processId;
            o.threadId = threadId;
            o.correlationId = l.correlationId;
            o.returnValue = l.returnValue;
            appendRecord(out, o);
        }
    });
}

} // namespace ws
