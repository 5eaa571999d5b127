#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ws {

class Session;
class SessionAnalyses;
struct QueryTables;

/* One value of a result row: SQLite's dynamic types. */
struct QueryValue {
    enum class Type : uint8_t { Null, Integer, Real, Text };
    Type type = Type::Null;
    int64_t integer = 0;
    double real = 0;
    std::string text;

    bool operator==(const QueryValue&) const = default;
    // CSV/plain text: empty for NULL, integers exactly, reals with up to 17 significant digits
    // (%.17g trimmed: what reads back as the same double), text as is.
    std::string toText() const;
};

/* What a query returned: its column names and, for QueryEngine::run, every row. */
struct QueryResult {
    std::vector<std::string> columns;
    std::vector<std::vector<QueryValue>> rows;
    std::string error;      // SQLite's message (syntax, unknown column, not read-only), empty on success
    bool cancelled = false; // stopped by QueryEngine::cancel or the cancel flag
    bool truncated = false; // more rows than QueryOptions::maxRows; the first maxRows are here
    bool ok() const { return error.empty() && !cancelled; }
};

struct QueryOptions {
    size_t maxRows = SIZE_MAX;                 // rows kept by run(); the rest are counted as truncated
    const std::atomic<bool>* cancel = nullptr; // set: the query stops at its next row (and table build)
};

/*
 * QueryEngine: SQL (SQLite's dialect) over one open session, read-only.
 *
 * The tables (query_schema.h lists them with their columns) are SQLite virtual tables over the
 * session's in-memory columns and the analyses' tables, not copies: a scan reads the model where it
 * lies, and an analysis (the kernel table, the operator tree, the idle gaps) is built the first
 * time a query reads its table, then kept for the engine's life. Each table's `id` is a slice id
 * (the slice's index over all tracks, in track order): equality on it is a lookup, so joins such as
 * `kernels.op_id = operators.id` cost one probe per row.
 *
 * Read-only: statements that would write (INSERT, CREATE TABLE, ATTACH, PRAGMA with a value, ...)
 * are refused by an authorizer with SQLite's "not authorized" message, and the database is a
 * private in-memory one: nothing on disk is open for writing. One engine serves one thread at a
 * time; cancel() may be called from any thread.
 */
class QueryEngine {
public:
    // analyses: the session's cached analyses to share (the app's); null makes a private one.
    explicit QueryEngine(std::shared_ptr<const Session> session, std::shared_ptr<SessionAnalyses> analyses = nullptr);
    ~QueryEngine();
    QueryEngine(const QueryEngine&) = delete;
    QueryEngine& operator=(const QueryEngine&) = delete;

    const std::string& openError() const { return m_openError; } // non-empty: the engine cannot run

    QueryResult run(std::string_view sql, const QueryOptions& options = {});
    // Streams instead of collecting: columns(names) once, then row(values) per row; row returning
    // false stops the query (not an error). Returns the result without rows.
    using ColumnsFn = std::function<void(const std::vector<std::string>& names)>;
    using RowFn = std::function<bool(const std::vector<QueryValue>& row)>;
    QueryResult stream(std::string_view sql, const ColumnsFn& columns, const RowFn& row,
                       const QueryOptions& options = {});
    // The tables a statement reads, by name (its FROMs and views resolved), without running it;
    // error as run() gives it. For the library: what each stored session must provide.
    std::vector<std::string> tablesRead(std::string_view sql, std::string* error);
    // Interrupts the running statement (from another thread); it returns cancelled.
    void cancel();

    const std::shared_ptr<const Session>& session() const { return m_session; }

private:
    struct Db;
    std::shared_ptr<const Session> m_session;
    std::unique_ptr<QueryTables> m_tables;
    std::unique_ptr<Db> m_db;
    std::string m_openError;
};

// The (track, slice) of a slice id (the `id` of slices, kernels, operators, ...); nullopt when the
// session has no such slice. For front ends that select a result row's slice.
struct SliceOfId {
    uint32_t track = 0;
    uint32_t slice = 0;
};
std::optional<SliceOfId> sliceOfId(const Session& session, int64_t id);

} // namespace ws
