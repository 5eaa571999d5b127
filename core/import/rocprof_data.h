#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace ws {

/*
 * RocprofData: what the rocprofiler-sdk importer keeps of a `rocprofv3 --output-format json` file,
 * in compact records (no text but names held once): enough to build the session's tracks and to
 * render each event's arguments later (RocprofEventText), so the JSON is read only once.
 * Records of every `rocprofiler-sdk-tool` element (a process) are kept together; `process`
 * indexes `processes`.
 */
struct RocprofAgent {
    uint64_t handle = 0;
    int type = 0;      // 1 CPU, 2 GPU
    int gpuIndex = -1; // the GPU's number (HIP device order) for GPUs
    std::string name;  // product name ("AMD Instinct MI350X")
    std::string arch;  // gfx target ("gfx950")
    uint32_t cuCount = 0;
    uint32_t simdPerCu = 0;
    uint32_t maxWavesPerSimd = 0;
    uint32_t maxWavesPerCu = 0;
    uint32_t waveSize = 0;
    uint32_t ldsKb = 0;
    uint32_t gfxVersion = 0; // 90500 for gfx950
    uint64_t memoryBytes = 0;
};

struct RocprofSymbol {
    std::string name; // demangled, without the ".kd" clone suffix
    std::string mangled;
    uint32_t sgprs = 0;
    uint32_t archVgprs = 0;
    uint32_t accumVgprs = 0;
    uint32_t groupSegment = 0;   // static LDS bytes
    uint32_t privateSegment = 0; // scratch bytes per work-item
};

struct RocprofProcess {
    int64_t pid = 0;
    std::string command;
    // strings.buffer_records: operation names by (kind, operation).
    std::vector<std::vector<std::string>> operationNames;
    std::vector<std::string> kindNames;
    std::unordered_map<uint64_t, RocprofSymbol> symbols; // by kernel_id
    std::unordered_map<uint64_t, std::string> markerMessages; // by correlation id
};

struct RocprofDispatch {
    int64_t start = 0;
    int64_t end = 0;
    uint64_t correlation = 0;
    uint64_t external = 0;
    uint64_t agent = 0;
    uint64_t queue = 0;
    uint64_t stream = 0;
    uint64_t kernelId = 0;
    uint64_t dispatchId = 0;
    uint32_t workgroup[3] = {0, 0, 0};
    uint32_t grid[3] = {0, 0, 0}; // work-items, as HSA counts them
    uint32_t groupSegment = 0;    // LDS bytes of this dispatch (static + dynamic)
    uint32_t privateSegment = 0;
    uint32_t thread = 0;
    uint32_t process = 0;
};

// An API call (HIP, HSA, RCCL, roctx) or a roctx range.
struct RocprofCall {
    enum Domain : uint8_t { Hip, Hsa, Marker, Rccl };
    int64_t start = 0;
    int64_t end = 0;
    uint64_t correlation = 0;
    uint64_t external = 0;
    uint32_t thread = 0;
    uint32_t process = 0;
    uint32_t kind = 0;
    uint32_t operation = 0;
    Domain domain = Hip;
};

struct RocprofCopy {
    int64_t start = 0;
    int64_t end = 0;
    uint64_t correlation = 0;
    uint64_t srcAgent = 0;
    uint64_t dstAgent = 0;
    uint64_t bytes = 0;
    uint64_t stream = 0;
    uint32_t thread = 0;
    uint32_t process = 0;
    uint32_t kind = 0;
    uint32_t operation = 0;
};

struct RocprofAllocation {
    int64_t start = 0;
    int64_t end = 0;
    uint64_t correlation = 0;
    uint64_t agent = 0;
    uint64_t address = 0;
    uint64_t bytes = 0;
    uint32_t thread = 0;
    uint32_t process = 0;
    uint32_t kind = 0;
    uint32_t operation = 0;
    bool scratch = false;
};

struct RocprofData {
    std::vector<RocprofProcess> processes;
    std::map<uint64_t, RocprofAgent> agents; // by handle
    std::vector<RocprofDispatch> dispatches;
    std::vector<RocprofCall> calls;
    std::vector<RocprofCopy> copies;
    std::vector<RocprofAllocation> allocations;

    RocprofProcess& process(uint32_t index) {
        if (index >= processes.size())
            processes.resize(index + 1);
        return processes[index];
    }
    const RocprofAgent* agent(uint64_t handle) const {
        const auto it = agents.find(handle);
        return it == agents.end() ? nullptr : &it->second;
    }
    std::string operationName(uint32_t process, uint32_t kind, uint32_t operation) const;
    std::string kindName(uint32_t process, uint32_t kind) const;
};

// argRef of a rocprofiler-sdk event: record table in the top byte, index below.
enum class RocprofTable : uint8_t { Dispatch = 1, Call = 2, Copy = 3, Allocation = 4 };
inline uint64_t rocprofArgRef(RocprofTable table, uint64_t index) {
    return (uint64_t(table) << 56) | index;
}

} // namespace ws
