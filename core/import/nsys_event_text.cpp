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

int64_t num(const nlohmann::ordered_json& row, const char* key, int64_t absent = 0) {
    auto it = row.find(key);
    return it != row.end() && it->is_number_integer() ? it->get<int64_t>() : absent;
}

} // namespace

std::string NsysEventText::eventJson(uint64_t argRef) const {
    const NsysTableId table = nsysArgTable(argRef);
    const char* name = tableName(table);
    if (!name) return {};
    std::lock_guard<std::mutex> lock(m_mutex);
    if (!m_tried) {
        m_tried = true;
        m_db.open(m_path, SqliteDatabase::Mode::ReadOnly);
    }
    if (!m_db.isOpen()) return {};
    auto resolve = [this](std::string_view column, int64_t value, nlohmann::ordered_json& out) {
        if (column == "nameId" || column == "demangledName" || column == "shortName" ||
            column == "mangledName" || column == "textId" || column == "jsonTextId") {
            out = nsysLookupString(m_db, "StringIds", "id", value);
            return true;
        }
        return false;
    };
    nlohmann::ordered_json row = nlohmann::ordered_json::object();
    if (!nsysRowJson(m_db, name, nsysArgRow(argRef), resolve, row)) return {};
    nlohmann::ordered_json args = nlohmann::ordered_json::object();
    const int64_t dur = num(row, "end") - num(row, "start");
    switch (table) {
    case NsysTableId::Kernel:
        args["device"] = num(row, "deviceId");
        args["stream"] = num(row, "streamId");
        args["correlation"] = num(row, "correlationId");
        args["grid"] = {num(row, "gridX"), num(row, "gridY"), num(row, "gridZ")};
        args["block"] = {num(row, "blockX"), num(row, "blockY"), num(row, "blockZ")};
        args["registers per thread"] = num(row, "registersPerThread");
        args["shared memory"] = num(row, "staticSharedMemory") + num(row, "dynamicSharedMemory");
        break;
    case NsysTableId::Memcpy:
        args["device"] = num(row, "deviceId");
        args["stream"] = num(row, "streamId");
        args["correlation"] = num(row, "correlationId");
        args["bytes"] = num(row, "bytes");
        if (dur > 0)
            args["memory bandwidth (GB/s)"] =
                static_cast<double>(num(row, "bytes")) / static_cast<double>(dur);
        args["copy kind"] = std::string(memcpyKindShort(num(row, "copyKind")));
        args["src kind"] = std::string(memoryKindName(num(row, "srcKind", 7), CudaEnumNumbering::Nsys));
        args["dst kind"] = std::string(memoryKindName(num(row, "dstKind", 7), CudaEnumNumbering::Nsys));
        break;
    case NsysTableId::Memset:
        args["device"] = num(row, "deviceId");
        args["stream"] = num(row, "streamId");
        args["correlation"] = num(row, "correlationId");
        args["bytes"] = num(row, "bytes");
        if (dur > 0)
            args["memory bandwidth (GB/s)"] =
                static_cast<double>(num(row, "bytes")) / static_cast<double>(dur);
        args["memory kind"] = std::string(memoryKindName(num(row, "memKind", 7), CudaEnumNumbering::Nsys));
        break;
    case NsysTableId::Sync:
        args["device"] = num(row, "deviceId");
        args["stream"] = num(row, "streamId");
        args["correlation"] = num(row, "correlationId");
        args["sync type"] = std::string(syncTypeName(num(row, "syncType")));
        break;
    case NsysTableId::Runtime:
    case NsysTableId::Osrt: {
        const int64_t g = num(row, "globalTid");
        args["pid"] = (g >> 24) & 0xFFFFFF;
        args["tid"] = g & 0xFFFFFF;
        if (row.contains("correlationId")) args["correlation"] = num(row, "correlationId");
        break;
    }
    case NsysTableId::Nvtx: {
        const int64_t g = num(row, "globalTid");
        const int64_t domain = num(row, "domainId");
        if (domain != 0) {
            // The domain is named by the eventType-75 row of the same process.
            SqliteStatement q(m_db, "SELECT text FROM NVTX_EVENTS WHERE eventType = 75 AND domainId = ?1 "
                                    "AND (globalTid / 16777216) % 16777216 = ?2 LIMIT 1");
            q.bind(1, domain);
            q.bind(2, (g >> 24) & 0xFFFFFF);
            if (q.step()) args["domain"] = std::string(q.text(0));
        }
        if (row.contains("color")) {
            char buf[16];
            std::snprintf(buf, sizeof buf, "#%08llx",
                          static_cast<unsigned long long>(num(row, "color")) & 0xFFFFFFFFull);
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
