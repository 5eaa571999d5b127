#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace ws::capture {

// Display names of CUPTI enum values kept verbatim in wscap records (FORMATS.md 6.5).
const char* memcpyKindName(uint32_t kind);      // "HtoD", "DtoH", ...
const char* memoryKindName(uint32_t kind);      // "Pageable", "Device", ...
const char* syncTypeName(uint32_t type);        // "Stream Synchronize", ...
const char* overheadKindName(uint32_t kind);    // "CUPTI buffer flush", ...

// "cudaLaunchKernel_v7000" -> "cudaLaunchKernel": CUPTI's callback names carry the API version.
std::string_view apiDisplayName(std::string_view name);
// Demangled C++ name of a kernel, or the name itself when it is not mangled.
std::string demangle(const std::string& name);

} // namespace ws::capture
