#include "io/sqlite_database.h"

#include <sqlite3.h>

namespace ws {

SqliteDatabase::~SqliteDatabase() { close(); }

void SqliteDatabase::close() {
    if (m_db)
        sqlite3_close_v2(m_db);
    m_db = nullptr;
}

void SqliteDatabase::setErrorFromDb(std::string_view what) {
    m_error = std::string(what);
    if (m_db) {
        m_error += ": ";
        m_error += sqlite3_errmsg(m_db);
    }
}

bool SqliteDatabase::open(const std::string& path, Mode mode) {
    close();
    m_error.clear();
    const int flags = mode == Mode::ReadOnly    ? SQLITE_OPEN_READONLY
                      : mode == Mode::ReadWrite ? SQLITE_OPEN_READWRITE
                                                : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    const int rc = sqlite3_open_v2(path.c_str(), &m_db, flags | SQLITE_OPEN_NOMUTEX, nullptr);
    if (rc != SQLITE_OK) {
        setErrorFromDb("cannot open the database");
        close();
        return false;
    }
    sqlite3_extended_result_codes(m_db, 1);
    sqlite3_db_config(m_db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, nullptr);
    sqlite3_db_config(m_db, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
    sqlite3_db_config(m_db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, nullptr);
    sqlite3_db_config(m_db, SQLITE_DBCONFIG_ENABLE_TRIGGER, mode == Mode::ReadOnly ? 0 : 1, nullptr);
    sqlite3_db_config(m_db, SQLITE_DBCONFIG_ENABLE_VIEW, 1, nullptr);
    sqlite3_busy_timeout(m_db, 2000);
    // A file that is not a database (or is corrupt) only shows itself at the first read.
    if (!queryInt("SELECT count(*) FROM sqlite_schema")) {
        if (m_error.empty())
            m_error = "not a readable SQLite database";
        close();
        return false;
    }
    return true;
}

bool SqliteDatabase::exec(std::string_view sql) {
    char* message = nullptr;
    const std::string text(sql);
    if (sqlite3_exec(m_db, text.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
        m_error = message ? message : "SQL error";
        sqlite3_free(message);
        return false;
    }
    return true;
}

bool SqliteDatabase::tableExists(std::string_view table) {
    SqliteStatement q(*this, "SELECT 1 FROM sqlite_schema WHERE type IN ('table','view') AND name = ?1");
    q.bind(1, table);
    return q.ok() && q.step();
}

std::vector<std::string> SqliteDatabase::columns(std::string_view table) {
    std::vector<std::string> out;
    SqliteStatement q(*this, "SELECT name FROM pragma_table_info(?1) ORDER BY cid");
    q.bind(1, table);
    while (q.ok() && q.step())
        out.emplace_back(q.text(0));
    return out;
}

std::vector<std::string> SqliteDatabase::tables() {
    std::vector<std::string> out;
    SqliteStatement q(*this, "SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name");
    while (q.ok() && q.step())
        out.emplace_back(q.text(0));
    return out;
}

std::optional<int64_t> SqliteDatabase::queryInt(std::string_view sql) {
    SqliteStatement q(*this, sql);
    if (!q.ok() || !q.step() || q.isNull(0))
        return std::nullopt;
    return q.int64(0);
}

SqliteStatement::SqliteStatement(SqliteDatabase& db, std::string_view sql) : m_db(db) {
    if (!db.m_db) {
        m_failed = true;
        return;
    }
    if (sqlite3_prepare_v3(db.m_db, sql.data(), static_cast<int>(sql.size()), 0, &m_stmt, nullptr) != SQLITE_OK) {
        db.setErrorFromDb("cannot prepare a query");
        m_stmt = nullptr;
        m_failed = true;
    }
}

SqliteStatement::~SqliteStatement() { sqlite3_finalize(m_stmt); }

bool SqliteStatement::step() {
    if (!ok())
        return false;
    const int rc = sqlite3_step(m_stmt);
    if (rc == SQLITE_ROW)
        return true;
    if (rc != SQLITE_DONE) {
        m_db.setErrorFromDb("query failed");
        m_failed = true;
    }
    return false;
}

bool SqliteStatement::reset() {
    if (!m_stmt)
        return false;
    m_failed = false;
    return sqlite3_reset(m_stmt) == SQLITE_OK;
}

void SqliteStatement::bind(int index, int64_t value) { sqlite3_bind_int64(m_stmt, index, value); }
void SqliteStatement::bind(int index, double value) { sqlite3_bind_double(m_stmt, index, value); }
void SqliteStatement::bind(int index, std::string_view text) {
    sqlite3_bind_text64(m_stmt, index, text.data(), text.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
}
void SqliteStatement::bindBlob(int index, const void* data, size_t size) {
    sqlite3_bind_blob64(m_stmt, index, data, size, SQLITE_TRANSIENT);
}
void SqliteStatement::bindNull(int index) { sqlite3_bind_null(m_stmt, index); }

bool SqliteStatement::isNull(int col) const { return sqlite3_column_type(m_stmt, col) == SQLITE_NULL; }
int64_t SqliteStatement::int64(int col) const { return sqlite3_column_int64(m_stmt, col); }
double SqliteStatement::real(int col) const { return sqlite3_column_double(m_stmt, col); }
std::string_view SqliteStatement::text(int col) const {
    const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(m_stmt, col));
    return p ? std::string_view(p, static_cast<size_t>(sqlite3_column_bytes(m_stmt, col))) : std::string_view();
}
std::string_view SqliteStatement::blob(int col) const {
    const auto* p = static_cast<const char*>(sqlite3_column_blob(m_stmt, col));
    return p ? std::string_view(p, static_cast<size_t>(sqlite3_column_bytes(m_stmt, col))) : std::string_view();
}
int SqliteStatement::columnCount() const { return m_stmt ? sqlite3_column_count(m_stmt) : 0; }
std::string SqliteStatement::columnName(int col) const {
    const char* n = sqlite3_column_name(m_stmt, col);
    return n ? n : "";
}

} // namespace ws
