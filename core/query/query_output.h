#pragma once

#include "query/query_engine.h"

#include <ostream>
#include <string>
#include <vector>

namespace ws {

/*
 * Writing query results: CSV (RFC 4180, the CLI's csvField quoting), JSON ({"columns": [...],
 * "rows": [[...], ...]}, numbers as numbers and NULL as null) and aligned text for a terminal. The
 * writers stream: each row is written as it comes, so a query over a 10 GB session is not held.
 */
enum class QueryOutputFormat { Text, Csv, Json };

class QueryResultWriter {
public:
    QueryResultWriter(std::ostream& out, QueryOutputFormat format) : m_out(out), m_format(format) {}
    // prefix: columns written before the query's own (the library's `session`).
    void columns(const std::vector<std::string>& names);
    void row(const std::vector<QueryValue>& values);
    // Ends the output (JSON's closing brackets, the text table's rows); truncated is said in JSON.
    void finish(bool truncated = false);

private:
    std::ostream& m_out;
    QueryOutputFormat m_format;
    std::vector<std::string> m_names;
    size_t m_rows = 0;
    // Text: rows are kept to align their columns, up to kTextRows of them.
    std::vector<std::vector<std::string>> m_text;
    size_t m_textDropped = 0;
};

// A JSON value of one cell (a number, a string or null).
void appendQueryJsonValue(std::string& out, const QueryValue& v);
// A value read back from CSV text: INTEGER or REAL when the text is exactly one, else TEXT; NULL
// for an empty field. For merging per-trace CSV outputs (query --merge).
QueryValue queryValueFromText(const std::string& text);
// One CSV record into fields (quotes, doubled quotes, embedded commas and newlines); false at the
// end of the input. The CLI's CSV outputs read back with it.
bool readCsvRecord(std::istream& in, std::vector<std::string>& fields);

} // namespace ws
