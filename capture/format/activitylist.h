#pragma once

// The --activities / WARPSCOPE_ACTIVITIES vocabulary, shared by the launcher side and the injection
// library so both agree on names. Header-only.

#include "format/wscapformat.h"

#include <string>
#include <string_view>

namespace ws::wscap {

struct ActivityName {
    const char* name;
    uint32_t bits;
};

inline constexpr ActivityName kActivityNames[] = {
    {"kernel", ActKernel},   {"memcpy", ActMemcpy},     {"memset", ActMemset},
    {"runtime", ActRuntime}, {"driver", ActDriver},     {"sync", ActSync},
    {"memory", ActMemory},   {"nvtx", ActNvtx},         {"overhead", ActOverhead},
    {"nvml", ActNvml},       {"pm", ActPmSampling},     {"extcorr", ActExternalCorrelation},
    {"allapi", ActChattyApi}, {"stacks", ActStacks}, {"host", ActHost}, {"pystacks", ActPyStacks},
    {"launches", ActLaunches}, {"collectives", ActCollectives}, {"pysample", ActPySample},
    {"graphs", ActGraphs},   {"graphtrace", ActGraphTrace},
    {"api", ActRuntime | ActDriver},
};

// What a capture records when nothing is said: everything but PM sampling (which needs profiling
// permission and adds its own overhead), external correlation (only frameworks push ids), the
// query-only API calls that frameworks make thousands of times per step ("allapi"), call stacks
// ("stacks": a backtrace per launch; "pystacks": a profile function on every Python call), and the
// driver API and synchronization records: with those two, CUPTI intercepts every driver call and
// every wait, which cost 1.16-1.45x the step time of PyTorch training steps where the rest costs
// 1.03-1.13x (capture/README.md, issue #13). Nor the runtime API: any interception of the runtime
// domain, CUPTI's records or a callback, added about 1 us to every runtime call, as much as the
// kernel activity itself (issue #25). "launches" instead records every launch where all of them
// meet, at the driver (the runtime's, and those of cuBLASLt, cuDNN, Triton and JAX, which call the
// driver directly), with the driver's copy, set, allocation and wait calls, intercepting those
// calls only; `runtime` adds the runtime's own calls (LaunchCallbacks). "collectives" makes
// the library NCCL's profiler plugin: a few hundred ns per NCCL call, so a job's collectives carry
// their sizes as in a torch.profiler trace. "graphs" watches CUDA graphs being built (once per graph,
// nothing per replay), so a replayed kernel gets the operator and line that captured it (issue #48).
// "graphtrace" (--graph-trace=graph) records each replay as one span instead of its nodes: not in
// "all", which records the nodes.
inline constexpr uint32_t kDefaultActivities = ActKernel | ActMemcpy | ActMemset | ActMemory | ActNvtx | ActOverhead |
                                               ActNvml | ActHost | ActLaunches | ActCollectives | ActGraphs;
inline constexpr uint32_t kAllActivities = kDefaultActivities | ActRuntime | ActDriver | ActSync | ActPmSampling |
                                           ActExternalCorrelation | ActChattyApi | ActStacks | ActPyStacks | ActPySample;

/* Parses "kernel,runtime,nvml" (also "default", "all", "none"; a leading '-' removes: "default,-driver").
 * Returns false and names the offending word in *bad for an unknown name. */
inline bool parseActivities(std::string_view text, uint32_t* bits, std::string* bad) {
    uint32_t result = 0;
    size_t pos = 0;
    while (pos <= text.size()) {
        size_t comma = text.find(',', pos);
        if (comma == std::string_view::npos)
            comma = text.size();
        std::string_view word = text.substr(pos, comma - pos);
        while (!word.empty() && word.front() == ' ')
            word.remove_prefix(1);
        while (!word.empty() && word.back() == ' ')
            word.remove_suffix(1);
        pos = comma + 1;
        if (word.empty())
            continue;
        const bool remove = word.front() == '-';
        if (remove)
            word.remove_prefix(1);
        uint32_t value = 0;
        bool found = true;
        if (word == "default")
            value = kDefaultActivities;
        else if (word == "all")
            value = kAllActivities;
        else if (word == "none")
            value = 0;
        else {
            found = false;
            for (const ActivityName& a : kActivityNames)
                if (word == a.name) {
                    value = a.bits;
                    found = true;
                }
        }
        if (!found) {
            *bad = std::string(word);
            return false;
        }
        result = remove ? (result & ~value) : (result | value);
    }
    *bits = result;
    return true;
}

inline std::string activitiesToString(uint32_t bits) {
    std::string out;
    for (const ActivityName& a : kActivityNames) {
        if (a.bits & (a.bits - 1))
            continue; // skip aliases such as "api"
        if (!(bits & a.bits))
            continue;
        if (!out.empty())
            out += ',';
        out += a.name;
    }
    return out.empty() ? "none" : out;
}

} // namespace ws::wscap
