#include "import/nsys_row_json.h"

#include "io/sqlite_database.h"

namespace ws {

bool nsysRowJson(SqliteDatabase& db, std::string_view table, int64_t rowid, const NsysColumnResolver& resolve,
                 nlohmann::ordered_json& out) {
    const std::vector<std::string> cols = db.columns(table);
    if (cols.empty()) return false;
    // No column-type accessor on SqliteStatement: ask SQL for typeof() next to each value.
    std::string sql = "SELECT ";
    for (size_t i = 0; i < cols.size(); ++i) {
        if (i) sql += ", ";
        std::string quoted = "\"";
        for (char ch : cols[i])
            quoted += ch == '"' ? std::string("\"\"") : std::string(1, ch);
        quoted += '"';
        sql += quoted + ", typeof(" + quoted + ")";
    }
    sql += " FROM \"" + std::string(table) + "\" WHERE rowid = ?1";
    SqliteStatement q(db, sql);
    if (!q.ok()) return false;
    q.bind(1, rowid);
    if (!q.step()) return false;
    static const char* const kHex = "0123456789abcdef";
    for (size_t i = 0; i < cols.size(); ++i) {
        const int c = static_cast<int>(2 * i);
        const std::string_view type = q.text(c + 1);
        if (type == "null") continue;
        const std::string& name = cols[i];
        if (type == "integer") {
            const int64_t v = q.int64(c);
            if (!resolve || !resolve(name, v, out[name])) out[name] = v;
        } else if (type == "real") {
            out[name] = q.real(c);
        } else if (type == "blob") {
            const std::string_view b = q.blob(c);
            std::string hex;
            for (size_t k = 0; k < b.size() && k < 64; ++k) {
                hex += kHex[static_cast<unsigned char>(b[k]) >> 4];
                hex += kHex[static_cast<unsigned char>(b[k]) & 15];
            }
            out[name] = hex;
        } else {
            out[name] = std::string(q.text(c));
        }
    }
    return true;
}

std::string nsysLookupString(SqliteDatabase& db, std::string_view table, std::string_view idColumn,
                             int64_t id) {
    SqliteStatement q(db, "SELECT value FROM \"" + std::string(table) + "\" WHERE \"" +
                              std::string(idColumn) + "\" = ?1");
    q.bind(1, id);
    if (!q.step()) return {};
    return std::string(q.text(0));
}

void addCuptiKernelArgs(const nlohmann::ordered_json& row, nlohmann::ordered_json& args) {
    args["device"] = nsysRowInt(row, "deviceId");
    args["stream"] = nsysRowInt(row, "streamId");
    args["correlation"] = nsysRowInt(row, "correlationId");
    args["grid"] = {nsysRowInt(row, "gridX"), nsysRowInt(row, "gridY"), nsysRowInt(row, "gridZ")};
    args["block"] = {nsysRowInt(row, "blockX"), nsysRowInt(row, "blockY"), nsysRowInt(row, "blockZ")};
    args["registers per thread"] = nsysRowInt(row, "registersPerThread");
    args["shared memory"] = nsysRowInt(row, "staticSharedMemory") + nsysRowInt(row, "dynamicSharedMemory");
}

} // namespace ws
