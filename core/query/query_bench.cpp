#include "query/query_bench.h"

#include "model/append_format.h"

#include "query/query_engine.h"
#include "query/query_schema.h"
#include "query/sqlite_value.h"

#include <sqlite3.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <unistd.h>

namespace ws {

namespace {

double secondsSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double residentMb() {
    std::ifstream statm("/proc/self/statm");
    long pages = 0, resident = 0;
    statm >> pages >> resident;
    return double(resident) * double(sysconf(_SC_PAGESIZE)) / 1e6;
}

void bind(sqlite3_stmt* s, int i, const QueryValue& v) {
    switch (v.type) {
    case QueryValue::Type::Null: sqlite3_bind_null(s, i); break;
    case QueryValue::Type::Integer: sqlite3_bind_int64(s, i, v.integer); break;
    case QueryValue::Type::Real: sqlite3_bind_double(s, i, v.real); break;
    case QueryValue::Type::Text: sqlite3_bind_text64(s, i, v.text.data(), v.text.size(), SQLITE_TRANSIENT, SQLITE_UTF8); break;
    }
}

} // namespace

std::string queryBenchReport(std::shared_ptr<const Session> session, const std::string& sql) {
    std::string out;
    QueryEngine engine(session);
    const double rss0 = residentMb();
    auto t0 = std::chrono::steady_clock::now();
    const QueryResult cold = engine.run(sql);
    if (!cold.ok())
        return "error: " + cold.error + "\n";
    appendFormat(out, "vtab_cold_s: %.3f (the analyses the statement reads built first)\n", secondsSince(t0));
    const double rss1 = residentMb();
    t0 = std::chrono::steady_clock::now();
    const QueryResult warm = engine.run(sql);
    appendFormat(out, "vtab_warm_s: %.3f\n", secondsSince(t0));
    appendFormat(out, "rows: %zu\n", warm.rows.size());
    appendFormat(out, "vtab_rss_growth_mb: %.1f (analyses kept for the engine)\n", rss1 - rss0);

    // Materialized: every table the statement reads copied into SQLite, views made again over them.
    std::string error;
    const std::vector<std::string> tables = engine.tablesRead(sql, &error);
    sqlite3* db = nullptr;
    sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nullptr);
    const sqlite3_int64 mem0 = sqlite3_memory_used();
    t0 = std::chrono::steady_clock::now();
    size_t copied = 0;
    for (const std::string& t : tables) {
        if (t == "args")
            continue; // exists per slice only
        std::string create, insert;
        sqlite3_stmt* ins = nullptr;
        sqlite3_exec(db, "BEGIN", nullptr, nullptr, nullptr);
        engine.stream(
            "SELECT * FROM " + t,
            [&](const std::vector<std::string>& names) {
                create = "CREATE TABLE \"" + t + "\"(";
                insert = "INSERT INTO \"" + t + "\" VALUES(";
                for (size_t i = 0; i < names.size(); ++i) {
                    create += (i ? ", \"" : "\"") + names[i] + "\"";
                    insert += i ? ",?" : "?";
                }
                create += ")";
                insert += ")";
                sqlite3_exec(db, create.c_str(), nullptr, nullptr, nullptr);
                sqlite3_prepare_v2(db, insert.c_str(), -1, &ins, nullptr);
            },
            [&](const std::vector<QueryValue>& row) {
                for (size_t i = 0; i < row.size(); ++i)
                    bind(ins, int(i + 1), row[i]);
                sqlite3_step(ins);
                sqlite3_reset(ins);
                ++copied;
                return true;
            });
        sqlite3_finalize(ins);
        sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr);
    }
    for (const QuerySchemaTable& v : querySchema())
        if (v.view)
            sqlite3_exec(db, ("CREATE VIEW \"" + v.name + "\" AS " + v.sql).c_str(), nullptr, nullptr, nullptr);
    appendFormat(out, "materialize_s: %.3f (%zu rows of %zu tables copied)\n", secondsSince(t0), copied, tables.size());
    appendFormat(out, "materialize_mb: %.1f (SQLite's memory for the copy)\n", double(sqlite3_memory_used() - mem0) / 1e6);
    t0 = std::chrono::steady_clock::now();
    std::vector<std::vector<QueryValue>> rows;
    sqlite3_stmt* q = nullptr;
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &q, nullptr) == SQLITE_OK) {
        const int n = sqlite3_column_count(q);
        while (sqlite3_step(q) == SQLITE_ROW) {
            rows.emplace_back();
            for (int c = 0; c < n; ++c)
                rows.back().push_back(queryValueOfColumn(q, c));
        }
    }
    sqlite3_finalize(q);
    appendFormat(out, "materialized_query_s: %.3f\n", secondsSince(t0));
    appendFormat(out, "results_equal: %s\n", rows == warm.rows ? "yes" : "no");
    sqlite3_close(db);
    return out;
}

} // namespace ws
