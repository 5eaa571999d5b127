#include "import/nvprof_event_text.h"

#include "import/nsys_enums.h"
#include "import/nsys_row_json.h"
#include "import/nsys_table_id.h"
#include "import/nvprof_cbid_names.h"

#include <cstdio>

namespace ws {

namespace {

const char* tableName(NsysTableId id) {
    switch (id) {
    case NsysTableId::NvprofKernel:
        return "CUPTI_ACTIVITY_KIND_KERNEL";
    case NsysTableId::NvprofConcurrentKernel:
        return "CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL";
    case NsysTableId::NvprofRuntime:
        return "CUPTI_ACTIVITY_KIND_RUNTIME";
    case NsysTableId::NvprofDriver:
        return "CUPTI_ACTIVITY_KIND_DRIVER";
    case NsysTableId::NvprofMemcpy:
        return "CUPTI_ACTIVITY_KIND_MEMCPY";
    case NsysTableId::NvprofMemcpy2:
        return "CUPTI_ACTIVITY_KIND_MEMCPY2";
    case NsysTableId::NvprofMemset:
        return "CUPTI_ACTIVITY_KIND_MEMSET";
    case NsysTableId::NvprofSync:
        return "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION";
    case NsysTableId::NvprofMarker:
        return "CUPTI_ACTIVITY_KIND_MARKER";
    default:
        return nullptr;
    }
}


} // namespace

std::string NvprofEventText::argsJson(SqliteDatabase& db, uint64_t argRef) const {
    const NsysTableId table = nsysArgTable(argRef);
    const char* name = tableName(table);
    if (!name) return {};
    auto resolve = [&db, table](std::string_view column, int64_t value, nlohmann::ordered_json& out) {
        if (column == "name" || column == "domain") {
            out = nsysLookupString(db, "StringTable", "_id_", value);
            return true;
        }
        if (column == "cbid" && (table == NsysTableId::NvprofRuntime || table == NsysTableId::NvprofDriver)) {
            out = std::string(table == NsysTableId::NvprofRuntime ? nvprofRuntimeApiName(value)
                                                                  : nvprofDriverApiName(value));
            return true;
        }
        return false;
    };
    nlohmann::ordered_json row = nlohmann::ordered_json::object();
    if (!nsysRowJson(db, name, nsysArgRow(argRef), resolve, row)) return {};
    nlohmann::ordered_json args = nlohmann::ordered_json::object();
    const int64_t dur = nsysRowInt(row, "end") - nsysRowInt(row, "start");
    switch (table) {
    case NsysTableId::NvprofKernel:
    case NsysTableId::NvprofConcurrentKernel:
        addCuptiKernelArgs(row, args);
        break;
    case NsysTableId::NvprofMemcpy:
    case NsysTableId::NvprofMemcpy2:
    case NsysTableId::NvprofMemset:
        args["device"] = nsysRowInt(row, "deviceId");
        args["stream"] = nsysRowInt(row, "streamId");
        args["correlation"] = nsysRowInt(row, "correlationId");
        args["bytes"] = nsysRowInt(row, "bytes");
        if (dur > 0)
            args["memory bandwidth (GB/s)"] =
                static_cast<double>(nsysRowInt(row, "bytes")) / static_cast<double>(dur);
        if (table == NsysTableId::NvprofMemset) {
            args["memory kind"] =
                std::string(memoryKindName(nsysRowInt(row, "memoryKind"), CudaEnumNumbering::Cupti));
        } else {
            args["copy kind"] = std::string(memcpyKindShort(nsysRowInt(row, "copyKind")));
            args["src kind"] = std::string(memoryKindName(nsysRowInt(row, "srcKind"), CudaEnumNumbering::Cupti));
            args["dst kind"] = std::string(memoryKindName(nsysRowInt(row, "dstKind"), CudaEnumNumbering::Cupti));
        }
        break;
    case NsysTableId::NvprofSync:
        args["stream"] = nsysRowInt(row, "streamId");
        args["correlation"] = nsysRowInt(row, "correlationId");
        args["sync type"] = std::string(syncTypeName(nsysRowInt(row, "type")));
        break;
    case NsysTableId::NvprofRuntime:
    case NsysTableId::NvprofDriver:
        args["correlation"] = nsysRowInt(row, "correlationId");
        break;
    case NsysTableId::NvprofMarker: {
        SqliteStatement q(
            db,
            "SELECT color, category, payloadKind FROM CUPTI_ACTIVITY_KIND_MARKER_DATA WHERE id = ?1 LIMIT 1");
        q.bind(1, nsysRowInt(row, "id"));
        if (q.ok() && q.step()) {
            char buf[16];
            std::snprintf(buf, sizeof buf, "#%08llx",
                          static_cast<unsigned long long>(q.int64(0)) & 0xFFFFFFFFull);
            args["color"] = buf;
            args["category"] = q.int64(1);
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
