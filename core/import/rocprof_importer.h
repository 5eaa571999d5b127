#pragma once

#include "import/trace_import.h"

#include <string>
#include <string_view>

namespace ws {

/*
 * rocprofiler-sdk JSON import (`rocprofv3 --output-format json`): one document with a
 * `rocprofiler-sdk-tool` array, an element per profiled process, holding agents (CPUs and GPUs
 * with CU counts and wavefront limits), string tables (operation names per record kind, roctx
 * messages), kernel symbols (names, registers, LDS) and `buffer_records` per kind: kernel
 * dispatches, HIP/HSA/RCCL API calls, roctx markers, memory copies and allocations.
 *
 * Streamed (JsonRecordScanner): memory is the compact records, not the document. Kernels go to
 * pid = GPU index, a row per queue; API calls and markers to the process's threads; launches are
 * linked to their dispatches and copies by correlation id. Blocks per SM and occupancy are the AMD
 * counterparts (workgroups per CU, wavefront occupancy: amd_occupancy.h). Times are the tool's ns
 * clock. Arguments come from the records kept in memory (RocprofEventText).
 */
ImportResult importRocprofJson(const std::string& path, const ImportControl& control);
// Whether a file's first bytes (decompressed) are a rocprofiler-sdk JSON document.
bool looksLikeRocprofJson(std::string_view head);

} // namespace ws
