#include "query/query_engine.h"

#include "model/session.h"
#include "query/query_tables.h"
#include "query/sqlite_value.h"

#include <sqlite3.h>

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <set>

namespace ws {

// ---- values ----------------------------------------------------------------------------------

std::string QueryValue::toText() const {
    switch (type) {
    case Type::Null: return {};
    case Type::Integer: return std::to_string(integer);
    case Type::Real: {
        if (std::isnan(real))
            return {};
        char buf[32];
        const auto r = std::to_chars(buf, buf + sizeof buf, real); // shortest text that reads back the same
        return std::string(buf, r.ptr);
    }
    case Type::Text: return text;
    }
    return {};
}

void SqlCell::null() { sqlite3_result_null(static_cast<sqlite3_context*>(m_context)); }
void SqlCell::integer(int64_t v) { sqlite3_result_int64(static_cast<sqlite3_context*>(m_context), v); }
void SqlCell::real(double v) { sqlite3_result_double(static_cast<sqlite3_context*>(m_context), v); }
void SqlCell::text(std::string_view stable) {
    sqlite3_result_text64(static_cast<sqlite3_context*>(m_context), stable.data() ? stable.data() : "", stable.size(),
                          SQLITE_STATIC, SQLITE_UTF8);
}
void SqlCell::textCopy(std::string_view temporary) {
    sqlite3_result_text64(static_cast<sqlite3_context*>(m_context), temporary.data() ? temporary.data() : "",
                          temporary.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
}
void SqlCell::realFromText(const std::string& text) {
    if (text.empty())
        return null();
    real(std::strtod(text.c_str(), nullptr));
}
void SqlCell::integerFromText(const std::string& text) {
    if (text.empty())
        return null();
    integer(std::strtoll(text.c_str(), nullptr, 10));
}

namespace {

void setResult(sqlite3_context* ctx, const QueryValue& v) {
    switch (v.type) {
    case QueryValue::Type::Null: sqlite3_result_null(ctx); break;
    case QueryValue::Type::Integer: sqlite3_result_int64(ctx, v.integer); break;
    case QueryValue::Type::Real: sqlite3_result_double(ctx, v.real); break;
    case QueryValue::Type::Text: sqlite3_result_text64(ctx, v.text.data(), v.text.size(), SQLITE_TRANSIENT, SQLITE_UTF8); break;
    }
}

} // namespace

QueryValue queryValueOfColumn(sqlite3_stmt* stmt, int column) {
    QueryValue v;
    switch (sqlite3_column_type(stmt, column)) {
    case SQLITE_INTEGER:
        v.type = QueryValue::Type::Integer;
        v.integer = sqlite3_column_int64(stmt, column);
        break;
    case SQLITE_FLOAT:
        v.type = QueryValue::Type::Real;
        v.real = sqlite3_column_double(stmt, column);
        break;
    case SQLITE_NULL: break;
    default: {
        v.type = QueryValue::Type::Text;
        const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt, column));
        v.text.assign(text ? text : "", size_t(sqlite3_column_bytes(stmt, column)));
        break;
    }
    }
    return v;
}

namespace {

// An integer key from an SQL value: integers, and reals and texts that are exactly one.
bool keyOf(sqlite3_value* value, int64_t& key) {
    switch (sqlite3_value_type(value)) {
    case SQLITE_INTEGER: key = sqlite3_value_int64(value); return true;
    case SQLITE_FLOAT: {
        const double d = sqlite3_value_double(value);
        key = int64_t(d);
        return double(key) == d;
    }
    case SQLITE_TEXT: {
        const auto* t = reinterpret_cast<const char*>(sqlite3_value_text(value));
        const int n = sqlite3_value_bytes(value);
        const auto r = std::from_chars(t, t + n, key);
        return r.ec == std::errc() && r.ptr == t + n;
    }
    default: return false;
    }
}

// ---- the virtual table module: every QueryTable is an eponymous table of its own ----------------

struct VTab : sqlite3_vtab {
    QueryTable* table = nullptr;
};

struct Cursor : sqlite3_vtab_cursor {
    size_t pos = 0, end = 0;
    size_t single = 0;  // the row of a key lookup
    bool lookup = false;
    std::vector<std::vector<QueryValue>> keyed; // keyedRows' rows
};

QueryTable& tableOf(sqlite3_vtab_cursor* c) { return *static_cast<VTab*>(c->pVtab)->table; }

std::string quoted(const std::string& name) { return "\"" + name + "\""; }

int xConnect(sqlite3* db, void* aux, int, const char* const*, sqlite3_vtab** out, char** err) {
    auto* table = static_cast<QueryTable*>(aux);
    std::string sql = "CREATE TABLE x(";
    for (size_t i = 0; i < table->columns.size(); ++i) {
        const QueryColumn& c = table->columns[i];
        sql += (i ? ", " : "") + quoted(c.name) +
               (c.type == QueryValue::Type::Integer ? " INTEGER" : c.type == QueryValue::Type::Real ? " REAL" : " TEXT");
    }
    sql += ")";
    const int rc = sqlite3_declare_vtab(db, sql.c_str());
    if (rc != SQLITE_OK) {
        *err = sqlite3_mprintf("%s", sqlite3_errmsg(db));
        return rc;
    }
    auto* v = new VTab();
    v->table = table;
    *out = v;
    return SQLITE_OK;
}

int xDisconnect(sqlite3_vtab* v) {
    delete static_cast<VTab*>(v);
    return SQLITE_OK;
}

constexpr int kScan = 0;
constexpr int kKeyLookup = 1;

int xBestIndex(sqlite3_vtab* vtab, sqlite3_index_info* info) {
    const QueryTable& table = *static_cast<VTab*>(vtab)->table;
    for (int i = 0; i < info->nConstraint; ++i) {
        const auto& c = info->aConstraint[i];
        if (c.usable && c.op == SQLITE_INDEX_CONSTRAINT_EQ && c.iColumn == table.keyColumn && table.keyColumn >= 0 &&
            (table.findKey || table.keyedRows)) {
            info->idxNum = kKeyLookup;
            info->aConstraintUsage[i].argvIndex = 1;
            info->aConstraintUsage[i].omit = 1;
            info->estimatedCost = 10;
            info->estimatedRows = table.keyedRows ? 10 : 1;
            if (!table.keyedRows)
                info->idxFlags = SQLITE_INDEX_SCAN_UNIQUE;
            return SQLITE_OK;
        }
    }
    if (table.keyedRows) {
        // Only a key's rows exist (a slice's args): a plan without the key is no plan.
        return SQLITE_CONSTRAINT;
    }
    info->idxNum = kScan;
    info->estimatedCost = 1e7;
    info->estimatedRows = 1000000;
    return SQLITE_OK;
}

int xOpen(sqlite3_vtab*, sqlite3_vtab_cursor** out) {
    *out = new Cursor();
    return SQLITE_OK;
}

int xClose(sqlite3_vtab_cursor* c) {
    delete static_cast<Cursor*>(c);
    return SQLITE_OK;
}

int xFilter(sqlite3_vtab_cursor* base, int idxNum, const char*, int argc, sqlite3_value** argv) {
    auto* c = static_cast<Cursor*>(base);
    QueryTable& table = tableOf(base);
    c->keyed.clear();
    c->lookup = false;
    c->pos = c->end = 0;
    if (idxNum == kKeyLookup && argc == 1) {
        int64_t key = 0;
        if (!keyOf(argv[0], key))
            return SQLITE_OK; // no row has a key that is no integer
        if (table.keyedRows) {
            c->keyed = table.keyedRows(key);
            c->end = c->keyed.size();
        } else if (const std::optional<size_t> row = table.findKey(key)) {
            c->lookup = true;
            c->single = *row;
            c->end = 1;
        }
        return SQLITE_OK;
    }
    c->end = table.rowCount();
    return SQLITE_OK;
}

int xNext(sqlite3_vtab_cursor* c) {
    ++static_cast<Cursor*>(c)->pos;
    return SQLITE_OK;
}

int xEof(sqlite3_vtab_cursor* c) {
    const auto* cur = static_cast<Cursor*>(c);
    return cur->pos >= cur->end;
}

size_t rowOf(const Cursor* c) { return c->lookup ? c->single : c->pos; }

int xColumn(sqlite3_vtab_cursor* base, sqlite3_context* ctx, int column) {
    auto* c = static_cast<Cursor*>(base);
    if (!c->keyed.empty()) {
        setResult(ctx, c->keyed[c->pos][size_t(column)]);
        return SQLITE_OK;
    }
    SqlCell cell(ctx);
    tableOf(base).columns[size_t(column)].get(rowOf(c), cell);
    return SQLITE_OK;
}

int xRowid(sqlite3_vtab_cursor* base, sqlite3_int64* rowid) {
    const auto* c = static_cast<Cursor*>(base);
    *rowid = sqlite3_int64(c->keyed.empty() ? rowOf(c) : c->pos);
    return SQLITE_OK;
}

sqlite3_module makeModule() {
    sqlite3_module m{};
    m.iVersion = 1;
    m.xCreate = nullptr; // eponymous-only: the table exists under the module's name, no CREATE needed
    m.xConnect = xConnect;
    m.xBestIndex = xBestIndex;
    m.xDisconnect = xDisconnect;
    m.xDestroy = xDisconnect;
    m.xOpen = xOpen;
    m.xClose = xClose;
    m.xFilter = xFilter;
    m.xNext = xNext;
    m.xEof = xEof;
    m.xColumn = xColumn;
    m.xRowid = xRowid;
    return m;
}

const sqlite3_module kModule = makeModule();

// ---- read-only: what a statement may do ------------------------------------------------------

struct AuthorizerState {
    std::set<std::string>* tablesRead = nullptr; // set: records the tables a statement reads
};

int authorize(void* user, int action, const char* a1, const char*, const char*, const char*) {
    auto* state = static_cast<AuthorizerState*>(user);
    switch (action) {
    case SQLITE_SELECT:
    case SQLITE_FUNCTION:
    case SQLITE_RECURSIVE: return SQLITE_OK;
    case SQLITE_READ:
        if (state->tablesRead && a1)
            state->tablesRead->insert(a1);
        return SQLITE_OK;
    case SQLITE_PRAGMA:
        // Schema questions only (the columns of a table); no pragma that sets or changes anything.
        if (a1 && (std::strcmp(a1, "table_info") == 0 || std::strcmp(a1, "table_xinfo") == 0 ||
                   std::strcmp(a1, "table_list") == 0))
            return SQLITE_OK;
        return SQLITE_DENY;
    default: return SQLITE_DENY; // writes, schema changes, ATTACH, transactions
    }
}

} // namespace

struct QueryEngine::Db {
    sqlite3* db = nullptr;
    AuthorizerState auth;
    const std::atomic<bool>* runCancel = nullptr; // the running statement's QueryOptions::cancel
    QueryTables* tables = nullptr;
    ~Db() {
        if (db)
            sqlite3_close_v2(db);
    }
};

namespace {

// arg(slice_id, key): one argument of a slice, as the args table gives it; NULL when absent.
void argFunction(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
    auto* tables = static_cast<QueryTables*>(sqlite3_user_data(ctx));
    int64_t id = 0;
    const auto* key = reinterpret_cast<const char*>(sqlite3_value_text(argv[1]));
    if (argc != 2 || !keyOf(argv[0], id) || !key) {
        sqlite3_result_null(ctx);
        return;
    }
    for (const QueryTable& t : tables->tables)
        if (t.keyedRows && t.name == "args") {
            for (const std::vector<QueryValue>& row : t.keyedRows(id))
                if (row[1].text == key) {
                    setResult(ctx, row[2]);
                    return;
                }
        }
    sqlite3_result_null(ctx);
}

} // namespace

QueryEngine::QueryEngine(std::shared_ptr<const Session> session, std::shared_ptr<SessionAnalyses> analyses)
    : m_session(std::move(session)), m_db(std::make_unique<Db>()) {
    m_tables = std::make_unique<QueryTables>(m_session, std::move(analyses));
    m_db->tables = m_tables.get();
    if (sqlite3_open_v2(":memory:", &m_db->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nullptr) != SQLITE_OK) {
        m_openError = m_db->db ? sqlite3_errmsg(m_db->db) : "out of memory";
        return;
    }
    for (QueryTable& t : m_tables->tables)
        sqlite3_create_module_v2(m_db->db, t.name.c_str(), &kModule, &t, nullptr);
    sqlite3_create_function_v2(m_db->db, "arg", 2, SQLITE_UTF8, m_tables.get(), argFunction, nullptr, nullptr, nullptr);
    for (const QueryView& v : m_tables->views) {
        char* err = nullptr;
        const std::string sql = "CREATE TEMP VIEW " + quoted(v.name) + " AS " + v.sql;
        if (sqlite3_exec(m_db->db, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
            m_openError = "view " + v.name + ": " + (err ? err : "?");
            sqlite3_free(err);
            return;
        }
    }
    // Every table connected now, before the authorizer: connecting one declares its schema, which
    // the authorizer would take for a write of sqlite_master in the first statement that reads it.
    for (const QueryTable& t : m_tables->tables) {
        sqlite3_stmt* stmt = nullptr;
        sqlite3_prepare_v2(m_db->db, ("SELECT 1 FROM " + quoted(t.name)).c_str(), -1, &stmt, nullptr);
        sqlite3_finalize(stmt); // args has no plan without its key: connected all the same
    }
    sqlite3_set_authorizer(m_db->db, authorize, &m_db->auth);
    // Every 1000 virtual machine steps: whether the caller or cancel() asked to stop.
    sqlite3_progress_handler(
        m_db->db, 1000,
        [](void* user) -> int {
            const auto* d = static_cast<Db*>(user);
            return (d->runCancel && d->runCancel->load(std::memory_order_relaxed)) ||
                   d->tables->cancel.load(std::memory_order_relaxed);
        },
        m_db.get());
}

QueryEngine::~QueryEngine() = default;

void QueryEngine::cancel() {
    m_tables->cancel = true;
    if (m_db->db)
        sqlite3_interrupt(m_db->db);
}

QueryResult QueryEngine::run(std::string_view sql, const QueryOptions& options) {
    QueryResult collected;
    QueryResult r = stream(
        sql, [&](const std::vector<std::string>& names) { collected.columns = names; },
        [&](const std::vector<QueryValue>& row) {
            if (collected.rows.size() >= options.maxRows) {
                collected.truncated = true;
                return false;
            }
            collected.rows.push_back(row);
            return true;
        },
        options);
    r.rows = std::move(collected.rows);
    r.truncated = collected.truncated;
    return r;
}

QueryResult QueryEngine::stream(std::string_view sql, const ColumnsFn& columns, const RowFn& row,
                                const QueryOptions& options) {
    QueryResult result;
    if (!m_openError.empty()) {
        result.error = m_openError;
        return result;
    }
    m_tables->beginStatement();
    m_db->runCancel = options.cancel;
    const char* at = sql.data();
    const char* const end = sql.data() + sql.size();
    bool any = false;
    while (at < end) {
        sqlite3_stmt* stmt = nullptr;
        const char* tail = nullptr;
        if (sqlite3_prepare_v3(m_db->db, at, int(end - at), 0, &stmt, &tail) != SQLITE_OK) {
            result.error = sqlite3_errmsg(m_db->db);
            sqlite3_finalize(stmt);
            break;
        }
        at = tail;
        if (!stmt)
            continue; // whitespace or a comment
        if (!sqlite3_stmt_readonly(stmt)) {
            result.error = "only queries that read are allowed";
            sqlite3_finalize(stmt);
            break;
        }
        any = true;
        const int n = sqlite3_column_count(stmt);
        result.columns.clear();
        for (int i = 0; i < n; ++i)
            result.columns.emplace_back(sqlite3_column_name(stmt, i));
        if (columns)
            columns(result.columns);
        std::vector<QueryValue> values(static_cast<size_t>(n));
        int rc = SQLITE_ROW;
        bool stopped = false;
        while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
            for (int i = 0; i < n; ++i)
                values[size_t(i)] = queryValueOfColumn(stmt, i);
            if (row && !row(values)) {
                stopped = true;
                break;
            }
        }
        if (!stopped && rc != SQLITE_DONE) {
            if (rc == SQLITE_INTERRUPT || m_tables->cancel || (options.cancel && *options.cancel))
                result.cancelled = true;
            else
                result.error = sqlite3_errmsg(m_db->db);
        }
        sqlite3_finalize(stmt);
        if (!result.ok() || stopped)
            break;
    }
    if (!any && result.error.empty())
        result.error = "no statement to run";
    m_db->runCancel = nullptr;
    return result;
}

std::optional<SliceOfId> sliceOfId(const Session& session, int64_t id) {
    if (id < 0)
        return std::nullopt;
    uint64_t base = 0;
    const auto& tracks = session.tracks();
    for (uint32_t t = 0; t < tracks.size(); ++t) {
        const uint64_t n = tracks[t].sliceCount();
        if (uint64_t(id) < base + n)
            return SliceOfId{t, uint32_t(uint64_t(id) - base)};
        base += n;
    }
    return std::nullopt;
}

std::vector<std::string> QueryEngine::tablesRead(std::string_view sql, std::string* error) {
    std::set<std::string> names;
    if (!m_openError.empty()) {
        *error = m_openError;
        return {};
    }
    m_db->auth.tablesRead = &names;
    const char* at = sql.data();
    const char* const end = sql.data() + sql.size();
    while (at < end) {
        sqlite3_stmt* stmt = nullptr;
        const char* tail = nullptr;
        if (sqlite3_prepare_v3(m_db->db, at, int(end - at), 0, &stmt, &tail) != SQLITE_OK) {
            *error = sqlite3_errmsg(m_db->db);
            sqlite3_finalize(stmt);
            break;
        }
        sqlite3_finalize(stmt);
        at = tail;
    }
    m_db->auth.tablesRead = nullptr;
    // Views report the tables they read too; only the engine's tables are of interest.
    std::vector<std::string> out;
    for (const QueryTable& t : m_tables->tables)
        if (names.count(t.name))
            out.push_back(t.name);
    return out;
}

} // namespace ws
