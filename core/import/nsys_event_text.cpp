#include "import/nsys_event_text.h"

#include "import/nsys_enums.h"
#include "import/nsys_row_json.h"
#include "import/nsys_table_id.h"

#include <algorithm>
#include <cstdio>
#include <vector>

namespace ws {

namespace {

const char* tableName(NsysTableId id) {
    switch (id) {
    case NsysTableId::Kernel:
        return "CUPTI_ACTIVITY_KIND_KERNEL";
    case NsysTableId::Memcpy:
        return "CUPTI_ACTIVITY_KIND_MEMCPY";
    case NsysTableId::Memset:
        return "CUPTI_ACTIVITY_KIND_MEMSET";
    case NsysTableId::Sync:
        return "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION";
    case NsysTableId::Runtime:
        return "CUPTI_ACTIVITY_KIND_RUNTIME";
    case NsysTableId::Nvtx:
        return "NVTX_EVENTS";
    case NsysTableId::Osrt:
        return "OSRT_API";
    case NsysTableId::MemoryUsage:
        return "CUDA_GPU_MEMORY_USAGE_EVENTS";
    default:
        return nullptr;
    }
}


// The backtrace nsys recorded for a CUDA runtime or OS runtime call (--backtrace / -s options), as
// a `Call stack` argument (Session::callStack's format, innermost first). nsys resolves function
// names and modules but not source lines: each frame is "module(0): function", line 0 meaning
// "native frame without a line", as Warpscope captures without debug info write it.
std::string callchainText(SqliteDatabase& db, const char* table, int64_t id) {
    if (!db.tableExists(table))
        return {};
    SqliteStatement q(db, std::string("SELECT s.value, m.value FROM ") + table +
                              " c LEFT JOIN StringIds s ON s.id = c.symbol LEFT JOIN StringIds m ON m.id = c.module"
                              " WHERE c.id = ?1 ORDER BY c.stackDepth");
    q.bind(1, id);
    std::string out;
    bool inner = true;
    while (q.step()) {
        std::string module(q.text(1));
        if (const size_t slash = module.rfind('/'); slash != std::string::npos)
            module.erase(0, slash + 1);
        // The innermost frames are the profiler's and the driver's own (libcupti, libcuda, often
        // unresolved addresses): the stack starts at the first frame outside them.
        if (inner && (module.rfind("libcupti", 0) == 0 || module.rfind("libcuda", 0) == 0 ||
                      module.rfind("libnvperf", 0) == 0))
            continue;
        inner = false;
        std::string function(q.text(0));
        for (char& c : function)
            if (c == ';')
                c = ','; // ';' separates frames
        if (!out.empty())
            out += ';';
        out += (module.empty() ? std::string("?") : module) + "(0): " + (function.empty() ? std::string("??") : function);
    }
    return out;
}

} // namespace

int64_t NsysEventText::backtraceOf(SqliteDatabase& db, int64_t globalTid, int64_t correlationId) const {
    if (!m_backtraces) {
        m_backtraces.emplace();
        const std::vector<std::string> columns = db.columns("CUPTI_ACTIVITY_KIND_RUNTIME");
        const bool has = std::find(columns.begin(), columns.end(), "callchainId") != columns.end() &&
                         std::find(columns.begin(), columns.end(), "eventClass") != columns.end();
        if (has && db.tableExists("CUDA_CALLCHAINS")) {
            SqliteStatement q(db, "SELECT globalTid, correlationId, callchainId FROM CUPTI_ACTIVITY_KIND_RUNTIME "
                                  "WHERE eventClass = 67 AND callchainId IS NOT NULL");
            while (q.step())
                m_backtraces->emplace(std::make_pair(q.int64(0), q.int64(1)), q.int64(2));
        }
    }
    auto it = m_backtraces->find({globalTid, correlationId});
    return it == m_backtraces->end() ? -1 : it->second;
}

std::string NsysEventText::argsJson(SqliteDatabase& db, uint64_t argRef) const {
    const NsysTableId table = nsysArgTable(argRef);
    const char* name = tableName(table);
    if (!name) return {};
    auto resolve = [&db](std::string_view column, int64_t value, nlohmann::ordered_json& out) {
        if (column == "nameId" || column == "demangledName" || column == "shortName" ||
            column == "mangledName" || column == "textId" || column == "jsonTextId") {
            out = nsysLookupString(db, "StringIds", "id", value);
            return true;
        }
        return false;
    };
    nlohmann::ordered_json row = nlohmann::ordered_json::object();
    if (!nsysRowJson(db, name, nsysArgRow(argRef), resolve, row)) return {};
    nlohmann::ordered_json args = nlohmann::ordered_json::object();
    const int64_t dur = nsysRowInt(row, "end") - nsysRowInt(row, "start");
    switch (table) {
    case NsysTableId::Kernel:
        addCuptiKernelArgs(row, args);
        break;
    case NsysTableId::Memcpy:
        args["device"] = nsysRowInt(row, "deviceId");
        args["stream"] = nsysRowInt(row, "streamId");
        args["correlation"] = nsysRowInt(row, "correlationId");
        args["bytes"] = nsysRowInt(row, "bytes");
        if (dur > 0)
            args["memory bandwidth (GB/s)"] =
                static_cast<double>(nsysRowInt(row, "bytes")) / static_cast<double>(dur);
        args["copy kind"] = std::string(memcpyKindShort(nsysRowInt(row, "copyKind")));
        args["src kind"] = std::string(memoryKindName(nsysRowInt(row, "srcKind", 7), CudaEnumNumbering::Nsys));
        args["dst kind"] = std::string(memoryKindName(nsysRowInt(row, "dstKind", 7), CudaEnumNumbering::Nsys));
        break;
    case NsysTableId::Memset:
        args["device"] = nsysRowInt(row, "deviceId");
        args["stream"] = nsysRowInt(row, "streamId");
        args["correlation"] = nsysRowInt(row, "correlationId");
        args["bytes"] = nsysRowInt(row, "bytes");
        if (dur > 0)
            args["memory bandwidth (GB/s)"] =
                static_cast<double>(nsysRowInt(row, "bytes")) / static_cast<double>(dur);
        args["memory kind"] = std::string(memoryKindName(nsysRowInt(row, "memKind", 7), CudaEnumNumbering::Nsys));
        break;
    case NsysTableId::Sync:
        args["device"] = nsysRowInt(row, "deviceId");
        args["stream"] = nsysRowInt(row, "streamId");
        args["correlation"] = nsysRowInt(row, "correlationId");
        args["sync type"] = std::string(syncTypeName(nsysRowInt(row, "syncType")));
        break;
    case NsysTableId::Runtime:
    case NsysTableId::Osrt: {
        const int64_t g = nsysRowInt(row, "globalTid");
        args["pid"] = (g >> 24) & 0xFFFFFF;
        args["tid"] = g & 0xFFFFFF;
        if (row.contains("correlationId")) args["correlation"] = nsysRowInt(row, "correlationId");
        int64_t callchain = -1;
        if (row.contains("callchainId") && row["callchainId"].is_number_integer())
            callchain = nsysRowInt(row, "callchainId");
        else if (table == NsysTableId::Runtime && row.contains("correlationId"))
            callchain = backtraceOf(db, g, nsysRowInt(row, "correlationId"));
        if (callchain >= 0) {
            const std::string stack =
                callchainText(db, table == NsysTableId::Runtime ? "CUDA_CALLCHAINS" : "OSRT_CALLCHAINS", callchain);
            if (!stack.empty()) args["Call stack"] = stack;
        }
        break;
    }
    case NsysTableId::Nvtx: {
        const int64_t g = nsysRowInt(row, "globalTid");
        const int64_t domain = nsysRowInt(row, "domainId");
        if (domain != 0) {
            // The domain is named by the eventType-75 row of the same process.
            SqliteStatement q(db, "SELECT text FROM NVTX_EVENTS WHERE eventType = 75 AND domainId = ?1 "
                                    "AND (globalTid / 16777216) % 16777216 = ?2 LIMIT 1");
            q.bind(1, domain);
            q.bind(2, (g >> 24) & 0xFFFFFF);
            if (q.step()) args["domain"] = std::string(q.text(0));
        }
        if (row.contains("color")) {
            char buf[16];
            std::snprintf(buf, sizeof buf, "#%08llx",
                          static_cast<unsigned long long>(nsysRowInt(row, "color")) & 0xFFFFFFFFull);
            args["color"] = buf;
        }
        break;
    }
    default:
        break;
    }
    for (auto& [key, value] : row.items())
        if (!args.contains(key)) args[key] = value;
    nlohmann::ordered_json event = nlohmann::ordered_json::object();
    event["args"] = std::move(args);
    return event.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

} // namespace ws
