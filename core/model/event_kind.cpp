#include "model/event_kind.h"

#include <array>
#include <cctype>
#include <string>

namespace ws {

EventKind eventKindForCategory(std::string_view category) {
    std::string c(category);
    for (char& ch : c)
        ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    struct Entry {
        const char* cat;
        EventKind kind;
    };
    static const Entry kMap[] = {
        {"cpu_op", EventKind::CpuOp},
        {"operator", EventKind::CpuOp},
        {"user_annotation", EventKind::UserAnnotation},
        {"python_function", EventKind::PythonFunction},
        {"python", EventKind::PythonFunction},
        // Nsight Systems' CPU samples as call-stack slices (import/stack_samples.h): frames of the host's
        // call stack as python_function slices are, so the flame graph and idle gaps read both.
        {"cpu_sample", EventKind::PythonFunction},
        {"cuda_runtime", EventKind::Runtime},
        {"runtime", EventKind::Runtime},
        {"mtia_runtime", EventKind::Runtime},
        {"glow_runtime", EventKind::Runtime},
        {"xpu_runtime", EventKind::Runtime},
        {"privateuse1_runtime", EventKind::Runtime},
        {"cuda_driver", EventKind::Driver},
        {"xpu_driver", EventKind::Driver},
        {"privateuse1_driver", EventKind::Driver},
        {"kernel", EventKind::Kernel},
        {"gpu_memcpy", EventKind::Memcpy},
        {"memcpy", EventKind::Memcpy},
        {"gpu_memset", EventKind::Memset},
        {"memset", EventKind::Memset},
        {"gpu_user_annotation", EventKind::GpuUserAnnotation},
        {"cuda_sync", EventKind::CudaSync},
        {"cuda_event", EventKind::CudaEvent},
        {"trace", EventKind::Trace},
        {"overhead", EventKind::Overhead},
        {"cpu_instant_event", EventKind::Instant},
        {"graph_node", EventKind::GraphNode},
        {"cuda_graph", EventKind::GpuGraph},
    };
    for (const Entry& e : kMap)
        if (c == e.cat)
            return e.kind;
    return EventKind::Other;
}

const char* eventKindName(EventKind kind) {
    static const std::array<const char*, 17> kNames = {
        "other",  "cpu_op", "user_annotation",     "python_function", "runtime",
        "driver", "kernel", "memcpy",              "memset",          "gpu_user_annotation",
        "sync",   "event",  "trace",               "overhead",        "instant", "graph_node", "cuda_graph"};
    return kNames[static_cast<size_t>(kind)];
}

} // namespace ws
