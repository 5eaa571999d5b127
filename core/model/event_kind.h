#pragma once

#include <cstdint>
#include <string_view>

namespace ws {

/*
 * EventKind: what a slice is, derived once per category string (case-insensitive Kineto `cat`
 * names, FORMATS.md 2.6 and 3.1) so analyses switch on a byte instead of comparing strings.
 */
enum class EventKind : uint8_t {
    Other,
    CpuOp,
    UserAnnotation,
    PythonFunction,
    Runtime,
    Driver,
    Kernel,
    Memcpy,
    Memset,
    GpuUserAnnotation,
    CudaSync,
    CudaEvent,
    Trace,
    Overhead,
    Instant,
    // Where a CUDA graph node was made (a capture's GraphNode record, issue #48): the slice that a
    // replayed node's attribution flow starts from. Appended: stored sessions keep the numbers.
    GraphNode,
    // A CUDA graph replay recorded as one span (CUPTI's GRAPH_TRACE, --graph-trace=graph): GPU work
    // whose nodes were not traced, so busy for the whole span in no kernel's name.
    GpuGraph,
};

EventKind eventKindForCategory(std::string_view category);
const char* eventKindName(EventKind kind);
inline bool isGpuActivity(EventKind k) {
    return k == EventKind::Kernel || k == EventKind::Memcpy || k == EventKind::Memset;
}

} // namespace ws
