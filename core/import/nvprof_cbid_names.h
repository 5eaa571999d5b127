#pragma once

#include <cstdint>
#include <string_view>

namespace ws {

// Name of a CUPTI runtime / driver API callback id as nvprof stores it (e.g. 211 ->
// "cudaLaunchKernel_v7000", 307 -> "cuLaunchKernel"); empty when the id is unknown.
std::string_view nvprofRuntimeApiName(int64_t cbid);
std::string_view nvprofDriverApiName(int64_t cbid);

} // namespace ws
