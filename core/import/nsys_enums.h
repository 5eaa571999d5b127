#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace ws {

/*
 * Labels of the CUDA enums that name GPU activity (FORMATS.md 4.6 and 6.5). Nsight Systems
 * renumbers some of them relative to CUPTI (memory kinds are off by one), so every lookup says
 * which numbering it uses. Unknown values give "Unknown"; lookups are O(1).
 */
enum class CudaEnumNumbering { Nsys, Cupti };

std::string_view memcpyKindShort(int64_t copyKind);                         // "HtoD", "DtoH", ...
std::string_view memoryKindName(int64_t kind, CudaEnumNumbering numbering); // "Pageable", "Device", ...
std::string_view syncTypeName(int64_t type);                                // "Stream Sync", ...
// Kineto's row names: "Memcpy HtoD (Pinned -> Device)", "Memset (Device)".
std::string memcpyName(int64_t copyKind, int64_t srcKind, int64_t dstKind, CudaEnumNumbering numbering);
std::string memsetName(int64_t memKind, CudaEnumNumbering numbering);
// Strips CUPTI's version suffix from a runtime API name ("cudaLaunchKernel_v7000" -> "cudaLaunchKernel")
// the way Kineto names them; short suffixes that are part of the API name ("_v2") stay.
std::string_view apiDisplayName(std::string_view name);

} // namespace ws
