#pragma once

#include "import/trace_import.h"

#include <string>

namespace ws {

/*
 * nvprof SQLite import (`nvprof -o file.nvvp`, FORMATS.md 5): one table per CUPTI activity kind.
 * Kernels (CONCURRENT_KERNEL / KERNEL), memcpy (MEMCPY, MEMCPY2), memset and synchronization go to
 * pid = device id, tid = stream id; RUNTIME / DRIVER calls (callback ids named from CUPTI's tables)
 * to (processId, threadId); MARKER start/end pairs become NVTX ranges on their thread (PyProf's
 * annotations), instantaneous markers instants. Times are absolute epoch ns. Arguments are read
 * back lazily by NvprofEventText.
 */
ImportResult importNvprofSqlite(const std::string& path, const ImportControl& control);

} // namespace ws
