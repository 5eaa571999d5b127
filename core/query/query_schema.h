#pragma once

#include "query/query_engine.h"

#include <string>
#include <vector>

namespace ws {

/* The tables and views a query may read, with their columns: for --schema, the Query tab and docs. */
struct QuerySchemaColumn {
    std::string name;
    std::string type; // INTEGER, REAL, TEXT; empty for a view's computed column
    std::string doc;
};

struct QuerySchemaTable {
    std::string name;
    std::string doc;
    bool view = false;
    std::string sql; // a view's definition
    std::vector<QuerySchemaColumn> columns;
};

std::vector<QuerySchemaTable> querySchema();
// The schema as Markdown: one section per table, a row per column (docs/QUERY.md holds it).
std::string querySchemaMarkdown();

} // namespace ws
