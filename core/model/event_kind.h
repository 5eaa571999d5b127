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
};

EventKind eventKindForCategory(std::string_view category);
const char* eventKindName(EventKind kind);
inline bool isGpuActivity(EventKind k) {
    return k == EventKind::Kernel || k == EventKind::Memcpy || k == EventKind::Memset;
}

} // namespace ws
