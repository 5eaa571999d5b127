#include "import/rocprof_event_text.h"

#include "import/rocprof_data.h"

#include <nlohmann/json.hpp>

namespace ws {

namespace {

using Json = nlohmann::ordered_json;

Json triple(const uint32_t v[3]) {
    return Json::array({v[0], v[1], v[2]});
}

void addAgent(Json& args, const char* key, const RocprofData& data, uint64_t handle) {
    const RocprofAgent* a = data.agent(handle);
    if (!a)
        args[key] = handle;
    else if (a->type == 2)
        args[key] = "GPU " + std::to_string(a->gpuIndex) + " (" + a->name + ")";
    else
        args[key] = "CPU (" + a->name + ")";
}

} // namespace

std::string RocprofEventText::eventJson(uint64_t argRef) const {
    const auto table = static_cast<RocprofTable>(argRef >> 56);
    const uint64_t index = argRef & ((uint64_t(1) << 56) - 1);
    const RocprofData& data = *m_data;
    Json args = Json::object();
    switch (table) {
    case RocprofTable::Dispatch: {
        if (index >= data.dispatches.size())
            return {};
        const RocprofDispatch& d = data.dispatches[index];
        uint32_t groups[3];
        for (int k = 0; k < 3; ++k) {
            const uint32_t w = d.workgroup[k] ? d.workgroup[k] : 1;
            groups[k] = (d.grid[k] + w - 1) / w;
        }
        const RocprofAgent* a = data.agent(d.agent);
        if (a && a->gpuIndex >= 0)
            args["device"] = a->gpuIndex;
        args["queue"] = d.queue;
        args["stream"] = d.stream;
        args["correlation"] = d.correlation;
        if (d.external)
            args["external id"] = d.external;
        args["grid"] = triple(groups);
        args["block"] = triple(d.workgroup);
        args["grid size (work-items)"] = triple(d.grid);
        args["dispatch id"] = d.dispatchId;
        args["kernel id"] = d.kernelId;
        args["shared memory"] = d.groupSegment; // LDS bytes per workgroup, Kineto's key
        args["scratch per work-item (bytes)"] = d.privateSegment;
        if (d.process < data.processes.size()) {
            const auto& symbols = data.processes[d.process].symbols;
            const auto s = symbols.find(d.kernelId);
            if (s != symbols.end()) {
                args["registers per thread"] = s->second.archVgprs + s->second.accumVgprs;
                args["arch VGPRs"] = s->second.archVgprs;
                args["accum VGPRs"] = s->second.accumVgprs;
                args["SGPRs"] = s->second.sgprs;
                args["kernel symbol"] = s->second.mangled;
            }
        }
        args["thread"] = d.thread;
        break;
    }
    case RocprofTable::Call: {
        if (index >= data.calls.size())
            return {};
        const RocprofCall& c = data.calls[index];
        args["correlation"] = c.correlation;
        if (c.external)
            args["external id"] = c.external;
        args["domain"] = data.kindName(c.process, c.kind);
        args["operation"] = data.operationName(c.process, c.kind, c.operation);
        args["thread"] = c.thread;
        break;
    }
    case RocprofTable::Copy: {
        if (index >= data.copies.size())
            return {};
        const RocprofCopy& c = data.copies[index];
        args["correlation"] = c.correlation;
        args["bytes"] = c.bytes;
        if (c.end > c.start)
            args["memory bandwidth (GB/s)"] = static_cast<double>(c.bytes) / static_cast<double>(c.end - c.start);
        args["copy kind"] = data.operationName(c.process, c.kind, c.operation);
        addAgent(args, "source", data, c.srcAgent);
        addAgent(args, "destination", data, c.dstAgent);
        if (c.stream)
            args["stream"] = c.stream;
        args["thread"] = c.thread;
        break;
    }
    case RocprofTable::Allocation: {
        if (index >= data.allocations.size())
            return {};
        const RocprofAllocation& a = data.allocations[index];
        args["operation"] = data.operationName(a.process, a.kind, a.operation);
        args["bytes"] = a.bytes;
        char address[24];
        std::snprintf(address, sizeof address, "0x%llx", static_cast<unsigned long long>(a.address));
        args["address"] = address;
        addAgent(args, "agent", data, a.agent);
        args["correlation"] = a.correlation;
        break;
    }
    default:
        return {};
    }
    Json event = Json::object();
    event["args"] = std::move(args);
    return event.dump(-1, ' ', false, Json::error_handler_t::replace);
}

} // namespace ws
