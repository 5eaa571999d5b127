#pragma once

#include "query/query_engine.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ws {

/*
 * SqlCell: where a table's getter puts one value for SQLite (a sqlite3_context, kept opaque so that
 * the tables' code does not see SQLite's API). text() is for strings that outlive the statement
 * (the session's string table, an analysis' texts); textCopy() for temporaries.
 */
class SqlCell {
public:
    explicit SqlCell(void* context) : m_context(context) {}
    void null();
    void integer(int64_t v);
    void real(double v);
    void text(std::string_view stable);
    void textCopy(std::string_view temporary);
    // Absent values as NULL: a negative id or count, a NaN.
    void integerOrNull(int64_t v, bool present) { present ? integer(v) : null(); }
    void realOrNull(double v) { v == v ? real(v) : null(); }
    // A number the CLI prints as text ("12.50", "" when absent), as SQL sees it: the same value.
    void realFromText(const std::string& text);
    void integerFromText(const std::string& text);

private:
    void* m_context;
};

/* A column of a query table: its SQL name and type, what it holds, and how a row's value is read. */
struct QueryColumn {
    std::string name;
    QueryValue::Type type = QueryValue::Type::Integer;
    std::string doc;
    std::function<void(size_t row, SqlCell& cell)> get;
};

/*
 * QueryTable: one virtual table. Its rows are 0 .. rowCount()-1; rowCount() builds what the getters
 * read on its first call (an analysis), so a table no query reads costs nothing.
 *  - keyColumn: a column with unique integer values (the slice id); findKey maps a value to its row,
 *    so `WHERE id = ?` and joins on it are lookups.
 *  - keyedRows instead of rows: a table whose rows exist only for one key (a slice's args); a query
 *    must constrain keyColumn by equality, and keyedRows gives that key's rows as values.
 */
struct QueryTable {
    std::string name;
    std::string doc;
    std::vector<QueryColumn> columns;
    std::function<size_t()> rowCount;
    int keyColumn = -1;
    std::function<std::optional<size_t>(int64_t key)> findKey;
    std::function<std::vector<std::vector<QueryValue>>(int64_t key)> keyedRows;
};

/* A view over the tables, created in every engine: its name, what it answers, and its SQL. */
struct QueryView {
    std::string name;
    std::string doc;
    std::string sql;
};

} // namespace ws
