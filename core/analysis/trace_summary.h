#pragma once

#include "model/import_report.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ws {

class Session;

/*
 * TraceSummary: the headline numbers of a session, the same for every input format. It is what
 * `warpscope-cli summary --json` prints and what the app's session page shows. Values the input
 * cannot give are empty optionals (printed as null), never invented zeros.
 */
struct DeviceSummary {
    int id = 0;
    std::string name;
    bool amd = false; // its "SM" efficiency is over compute units (DeviceInfo::Vendor)
    std::optional<double> gpuUtilization;        // fraction 0..1 (FORMATS.md 3.5)
    std::optional<double> estSmEfficiency;       // fraction 0..1 (FORMATS.md 3.6)
    std::optional<double> estAchievedOccupancy;  // percent 0..100 (FORMATS.md 3.7)
    std::optional<int64_t> peakAllocatedBytes;
    std::optional<int64_t> peakReservedBytes;
    std::optional<int64_t> totalMemoryBytes;
};

struct TrackSummary {
    std::string group; // process or device, e.g. "python3 (pid 1234)" or "GPU 0"
    std::string name;  // thread or stream, e.g. "thread 1234 (python3)" or "stream 7"
    bool gpu = false;
    uint64_t events = 0;
    int64_t startNs = 0;
    int64_t endNs = 0;
};

struct TraceSummary {
    std::string format;
    uint64_t events = 0;
    uint64_t kernelCount = 0;
    int64_t kernelTotalNs = 0;
    uint64_t memcpyCount = 0;
    int64_t memcpyTotalNs = 0;
    std::optional<uint64_t> memcpyBytes;
    uint64_t memsetCount = 0;
    int64_t memsetTotalNs = 0;
    uint64_t runtimeCalls = 0;
    uint64_t flows = 0;
    uint64_t steps = 0;
    int64_t startNs = 0; // session clock
    int64_t endNs = 0;
    std::vector<DeviceSummary> devices;
    std::vector<TrackSummary> tracks;
    ImportReport report;
};

TraceSummary summarizeSession(const Session& session);

// One JSON object with the fields issue #3 fixes: format, events, kernels{count,total_ns},
// memcpy{count,total_ns,bytes}, memset{count,total_ns}, runtime_calls, flows, steps, devices[...],
// import_report. Tracks are included as "tracks" only when withTracks is set.
std::string summaryToJson(const TraceSummary& summary, bool withTracks = false);

} // namespace ws
