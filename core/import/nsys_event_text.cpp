#include "import/nsys_event_text.h"

#include "import/nsys_enums.h"
#include "import/nsys_row_json.h"
#include "import/nsys_table_id.h"

#include <cstdio>

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


} // namespace

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
