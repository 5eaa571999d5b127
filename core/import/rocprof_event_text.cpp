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
        const RocprofDispatchArgs& d = data.dispatches[index];
        if (d.shape >= data.shapes.size())
            return {};
        const RocprofLaunchShape& k = data.shapes[d.shape];
        uint32_t groups[3];
        for (int i = 0; i < 3; ++i) {
            const uint32_t w = k.workgroup[i] ? k.workgroup[i] : 1;
            groups[i] = static_cast<uint32_t>((uint64_t(k.grid[i]) + w - 1) / w);
        }
        const RocprofAgent* a = data.agent(k.agent);
        if (a && a->gpuIndex >= 0)
            args["device"] = a->gpuIndex;
        args["queue"] = k.queue;
        args["stream"] = d.stream;
        args["correlation"] = d.correlation;
        args["grid"] = triple(groups);
        args["block"] = triple(k.workgroup);
        args["grid size (work-items)"] = triple(k.grid);
        args["kernel id"] = k.kernelId;
        args["shared memory"] = k.groupSegment; // LDS bytes per workgroup, Kineto's key
        args["scratch per work-item (bytes)"] = k.privateSegment;
        if (k.process < data.processes.size()) {
            const auto& symbols = data.processes[k.process].symbols;
            const auto s = symbols.find(k.kernelId);
            if (s != symbols.end()) {
                args["registers per thread"] = s->second.archVgprs + s->second.accumVgprs;
                args["arch VGPRs"] = s->second.archVgprs;
                args["accum VGPRs"] = s->second.accumVgprs;
                args["SGPRs"] = s->second.sgprs;
                args["kernel symbol"] = s->second.mangled;
            }
        }
        break;
    }
    case RocprofTable::Call: {
        if (index >= data.calls.size())
            return {};
        const RocprofCallArgs& c = data.calls[index];
        args["correlation"] = c.correlation;
        args["domain"] = data.kindName(c.process, c.kind);
        args["operation"] = data.operationName(c.process, c.kind, c.operation);
        break;
    }
    case RocprofTable::Copy: {
        if (index >= data.copies.size())
            return {};
        const RocprofCopyArgs& c = data.copies[index];
        args["correlation"] = c.correlation;
        args["bytes"] = c.bytes;
        args["copy kind"] = data.operationName(c.process, c.kind, c.operation);
        addAgent(args, "source", data, c.source);
        addAgent(args, "destination", data, c.destination);
        if (c.stream)
            args["stream"] = c.stream;
        args["thread"] = c.thread;
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
