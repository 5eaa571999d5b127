#pragma once

#include "import/trace_import.h"

#include <string>

namespace ws {

/*
 * Nsight Systems SQLite import (`nsys export --type sqlite`, FORMATS.md 4): reads the tables it
 * knows through a defensive read-only SqliteDatabase, introspecting columns per table because they
 * change between nsys versions, and feeds one ChunkResult to a TraceBuilder. GPU work goes to
 * pid = device id, tid = stream id; host work to the (pid, tid) that globalTid encodes; runtime
 * calls link to GPU work by (pid, correlationId) flows. Arguments are read back lazily by
 * NsysEventText. Unknown tables are ignored; bad rows are counted in the ImportReport.
 */
ImportResult importNsightSqlite(const std::string& path, const ImportControl& control);

} // namespace ws
