#include "query/query_schema.h"

#include "model/session.h"
#include "query/query_tables.h"

namespace ws {

namespace {

const char* typeName(QueryValue::Type t) {
    switch (t) {
    case QueryValue::Type::Integer: return "INTEGER";
    case QueryValue::Type::Real: return "REAL";
    case QueryValue::Type::Text: return "TEXT";
    case QueryValue::Type::Null: break;
    }
    return "";
}

} // namespace

std::vector<QuerySchemaTable> querySchema() {
    // The definitions are the engine's own, read over an empty session (no getter runs).
    const auto empty = std::make_shared<const Session>();
    QueryEngine engine(empty);
    const QueryTables tables(empty, nullptr);
    std::vector<QuerySchemaTable> out;
    for (const QueryTable& t : tables.tables) {
        QuerySchemaTable s{t.name, t.doc, false, {}, {}};
        for (const QueryColumn& c : t.columns)
            s.columns.push_back({c.name, typeName(c.type), c.doc});
        out.push_back(std::move(s));
    }
    for (const QueryView& v : tables.views) {
        QuerySchemaTable s{v.name, v.doc, true, v.sql, {}};
        const QueryResult r = engine.run("SELECT * FROM " + v.name + " LIMIT 0");
        for (const std::string& c : r.columns)
            s.columns.push_back({c, {}, {}});
        out.push_back(std::move(s));
    }
    return out;
}

std::string querySchemaMarkdown() {
    std::string md;
    for (const QuerySchemaTable& t : querySchema()) {
        md += "### `" + t.name + "`" + (t.view ? " (view)" : "") + "\n\n" + t.doc + ".\n\n";
        if (t.view) {
            md += "Columns: ";
            for (size_t i = 0; i < t.columns.size(); ++i)
                md += (i ? ", `" : "`") + t.columns[i].name + "`";
            md += ".\n\n```sql\n" + t.sql + "\n```\n\n";
            continue;
        }
        md += "| column | type | what |\n|---|---|---|\n";
        for (const QuerySchemaColumn& c : t.columns)
            md += "| `" + c.name + "` | " + c.type + " | " + c.doc + " |\n";
        md += "\n";
    }
    return md;
}

} // namespace ws
