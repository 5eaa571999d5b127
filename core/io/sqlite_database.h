#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace ws {

class SqliteStatement;

/*
 * SqliteDatabase: a thin RAII handle over the SQLite C API, shared by the session store and the
 * Nsight Systems / nvprof importers.
 *
 * Opening for reading is defensive, because trace files come from elsewhere: read-only, no
 * extension loading, SQLITE_DBCONFIG_DEFENSIVE (no writes to the schema or shadow tables), untrusted
 * schema (views and triggers cannot call application functions), no symlink following surprises,
 * and a busy timeout instead of failing on a lock. Errors never throw: open() returns false and
 * error() says why in one sentence.
 */
class SqliteDatabase {
public:
    enum class Mode { ReadOnly, ReadWrite, ReadWriteCreate }; // ReadWrite: an existing file only

    SqliteDatabase() = default;
    SqliteDatabase(const SqliteDatabase&) = delete;
    SqliteDatabase& operator=(const SqliteDatabase&) = delete;
    ~SqliteDatabase();

    bool open(const std::string& path, Mode mode);
    void close();
    bool isOpen() const { return m_db != nullptr; }
    const std::string& error() const { return m_error; }
    sqlite3* handle() const { return m_db; }

    // Runs SQL without results (may hold several statements); false and error() on failure.
    bool exec(std::string_view sql);
    bool tableExists(std::string_view table);
    // Column names of a table, in declaration order (empty when the table does not exist).
    std::vector<std::string> columns(std::string_view table);
    std::vector<std::string> tables();
    // Runs a query whose first row's first column is an integer.
    std::optional<int64_t> queryInt(std::string_view sql);

private:
    friend class SqliteStatement;
    void setErrorFromDb(std::string_view what);

    sqlite3* m_db = nullptr;
    std::string m_error;
};

/* A prepared statement; step() returns true while rows come. Columns are 0-based. */
class SqliteStatement {
public:
    SqliteStatement(SqliteDatabase& db, std::string_view sql);
    SqliteStatement(const SqliteStatement&) = delete;
    SqliteStatement& operator=(const SqliteStatement&) = delete;
    ~SqliteStatement();

    bool ok() const { return m_stmt != nullptr && !m_failed; }
    const std::string& error() const { return m_db.m_error; }

    bool step();
    bool reset();
    void bind(int index, int64_t value);
    void bind(int index, double value);
    void bind(int index, std::string_view text);
    void bindBlob(int index, const void* data, size_t size);
    void bindNull(int index);

    bool isNull(int col) const;
    int64_t int64(int col) const;
    double real(int col) const;
    std::string_view text(int col) const;
    std::string_view blob(int col) const;
    int columnCount() const;
    std::string columnName(int col) const;

private:
    SqliteDatabase& m_db;
    sqlite3_stmt* m_stmt = nullptr;
    bool m_failed = false;
};

} // namespace ws
