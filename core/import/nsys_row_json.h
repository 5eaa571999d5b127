#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace ws {

class SqliteDatabase;

/*
 * Reads one row of a table by rowid into an ordered JSON object of its non-NULL columns (integers,
 * reals, text; blobs as hex), for the lazy argument views of the SQLite importers. `resolve` may
 * turn an integer column into text (string-table references); it returns false to keep the number.
 * False when the row cannot be read. O(columns) plus one indexed lookup.
 */
using NsysColumnResolver =
    std::function<bool(std::string_view column, int64_t value, nlohmann::ordered_json& out)>;

bool nsysRowJson(SqliteDatabase& db, std::string_view table, int64_t rowid, const NsysColumnResolver& resolve,
                 nlohmann::ordered_json& out);

// An integer column of a row read by nsysRowJson; `absent` when missing or not an integer.
inline int64_t nsysRowInt(const nlohmann::ordered_json& row, const char* key, int64_t absent = 0) {
    auto it = row.find(key);
    return it != row.end() && it->is_number_integer() ? it->get<int64_t>() : absent;
}

// Kineto's kernel argument names from a CUPTI kernel row (the same columns in Nsight Systems and
// nvprof exports): device, stream, correlation, grid, block, registers per thread, shared memory.
void addCuptiKernelArgs(const nlohmann::ordered_json& row, nlohmann::ordered_json& args);

// One string of a string table by id ("" when absent).
std::string nsysLookupString(SqliteDatabase& db, std::string_view table, std::string_view idColumn,
                             int64_t id);

} // namespace ws
