#include "model/trace_format.h"

namespace ws {

const char* formatName(TraceFormat format) {
    switch (format) {
    case TraceFormat::Unknown: return "unknown";
    case TraceFormat::ChromeJson: return "chrome-json";
    case TraceFormat::NsightSqlite: return "nsight-sqlite";
    case TraceFormat::NvprofSqlite: return "nvprof-sqlite";
    case TraceFormat::WarpscopeSession: return "warpscope-session";
    case TraceFormat::WarpscopeCapture: return "warpscope-capture";
    case TraceFormat::NsightReport: return "nsight-report";
    case TraceFormat::RocprofJson: return "rocprof-json";
    case TraceFormat::TorchMemoryTimeline: return "torch-memory-timeline";
    case TraceFormat::Xplane: return "xplane";
    case TraceFormat::TorchMemorySnapshot: return "torch-memory-snapshot";
    }
    return "unknown";
}

TraceFormat formatFromName(std::string_view name) {
    for (TraceFormat f : {TraceFormat::ChromeJson, TraceFormat::NsightSqlite, TraceFormat::NvprofSqlite,
                          TraceFormat::WarpscopeSession, TraceFormat::WarpscopeCapture, TraceFormat::NsightReport,
                          TraceFormat::RocprofJson, TraceFormat::TorchMemoryTimeline, TraceFormat::Xplane,
                          TraceFormat::TorchMemorySnapshot})
        if (name == formatName(f))
            return f;
    return TraceFormat::Unknown;
}

} // namespace ws
