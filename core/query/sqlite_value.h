#pragma once

#include "query/query_engine.h"

struct sqlite3_stmt;

namespace ws {

// The value of a result column of the current row, with SQLite's dynamic type (the engine's rows
// and the benchmark's materialized copy read them alike).
QueryValue queryValueOfColumn(sqlite3_stmt* stmt, int column);

} // namespace ws
