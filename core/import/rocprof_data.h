#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace ws {

/*
 * RocprofData: what the rocprofiler-sdk importer keeps of a `rocprofv3 --output-format json` file
 * once the events are in the session: the small tables (agents, kernel symbols, operation names,
 * roctx messages) and, per event, the few fields its arguments need beyond what the session's
 * columns hold (RocprofEventText renders them), so the JSON is read only once. Launch shapes
 * repeat (a kernel runs with the same grid over and over), so dispatches share them by index. `process` indexes `processes` (one per
 * `rocprofiler-sdk-tool` element).
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
    std::string name; // demangled, without the ".kd" suffix
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
    // strings.buffer_records: names of the record kinds and of their operations, by number.
    std::vector<std::string> kindNames;
    std::vector<std::vector<std::string>> operationNames;
    std::unordered_map<uint64_t, RocprofSymbol> symbols;      // by kernel_id
    std::unordered_map<uint64_t, std::string> markerMessages; // by correlation id
};

// How a kernel was launched: shared by the dispatches that launched it the same way.
struct RocprofLaunchShape {
    uint64_t agent = 0;
    uint64_t queue = 0;
    uint64_t kernelId = 0;
    uint32_t workgroup[3] = {0, 0, 0};
    uint32_t grid[3] = {0, 0, 0}; // work-items, as HSA counts them
    uint32_t groupSegment = 0;    // LDS bytes of the dispatch (static + dynamic)
    uint32_t privateSegment = 0;
    uint32_t process = 0;
    bool operator==(const RocprofLaunchShape&) const = default;
};

// Per dispatch and per call, only what the session's columns lack (the row gives the queue or
// thread, the name the kernel or API): 16 bytes each.
struct RocprofDispatchArgs {
    uint64_t correlation = 0;
    uint32_t shape = 0; // index into RocprofData::shapes
    uint32_t stream = 0;
};

// An API call (HIP, HSA, RCCL) or a roctx range.
struct RocprofCallArgs {
    uint64_t correlation = 0;
    uint32_t operation = 0;
    uint16_t process = 0;
    uint16_t kind = 0;
};

struct RocprofCopyArgs {
    uint64_t correlation = 0;
    uint64_t bytes = 0;
    uint64_t source = 0; // agent handles
    uint64_t destination = 0;
    uint32_t thread = 0;
    uint32_t stream = 0;
    uint32_t operation = 0;
    uint16_t process = 0;
    uint16_t kind = 0;
};

struct RocprofData {
    std::vector<RocprofProcess> processes;
    std::map<uint64_t, RocprofAgent> agents; // by handle
    std::vector<RocprofLaunchShape> shapes;
    // Deques: they grow without copying what they hold (a vector's doubling would briefly need
    // twice the memory on a large file).
    std::deque<RocprofDispatchArgs> dispatches;
    std::deque<RocprofCallArgs> calls;
    std::deque<RocprofCopyArgs> copies;

    RocprofProcess& process(uint32_t index) {
        if (index >= processes.size())
            processes.resize(index + 1);
        return processes[index];
    }
    const RocprofAgent* agent(uint64_t handle) const {
        const auto it = agents.find(handle);
        return it == agents.end() ? nullptr : &it->second;
    }
    // The tables alone (what a second pass over a file needs when they came after its events).
    std::shared_ptr<RocprofData> tablesOnly() const;
    std::string operationName(uint32_t process, uint32_t kind, uint32_t operation) const;
    std::string kindName(uint32_t process, uint32_t kind) const;
};

// argRef of a rocprofiler-sdk event: record table in the top byte, index below.
enum class RocprofTable : uint8_t { Dispatch = 1, Call = 2, Copy = 3 };
inline uint64_t rocprofArgRef(RocprofTable table, uint64_t index) {
    return (uint64_t(table) << 56) | index;
}

} // namespace ws
