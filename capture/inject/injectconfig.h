#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ws {

/*
 * InjectConfig: what the injection library does, read once from WARPSCOPE_* environment variables
 * that warpscope-capture (or the GUI's launcher) sets. Bad values fall back to defaults and are
 * reported in warnings, never fatal: the host program must run regardless.
 *
 *   WARPSCOPE_OUTPUT        directory for <host>-<pid>.wscap (created if missing), default "."
 *   WARPSCOPE_ACTIVITIES    activity list (format/activitylist.h), default "default"
 *   WARPSCOPE_SAMPLE_HZ     NVML sampling rate, 0 = off, default 10
 *   WARPSCOPE_FLUSH_MS      period of CUPTI flushes and file writes, default 500
 *   WARPSCOPE_DELAY_MS      start recording this long after CUDA initialization, default 0
 *   WARPSCOPE_DURATION_MS   stop recording after this long, 0 = until exit
 *   WARPSCOPE_CAPTURE_RANGE "cudaProfilerApi": record only between the program's cudaProfilerStart
 *                           and cudaProfilerStop (torch.cuda.profiler.start/stop), as often as it
 *                           calls them; unset = from the start (or the delay)
 *   WARPSCOPE_BUFFER_KB     CUPTI activity buffer size, default 4096
 *   WARPSCOPE_MAX_BUFFER_MB cap on buffers CUPTI holds at once, default 1024 (beyond it records drop)
 *   WARPSCOPE_PM_INTERVAL_US PM sampling interval, default 1000
 *   WARPSCOPE_NAME          capture name stored in the stream header
 *   WARPSCOPE_STACK_DEPTH   frames per native launch stack ("stacks" activity), 1..32, default 32
 *   WARPSCOPE_PY_STACK_DEPTH Python frames per stack ("pystacks" activity), 1..64, default 48
 *   WARPSCOPE_PY_SAMPLE_HZ   Python stack samples per second ("pysample" activity), 1..10000, default 1000
 *   WARPSCOPE_BENCH_CALLBACKS diagnostics: when recording starts, time this many simulated launches
 *                           through the launch callbacks (into a recorder of their own, not the
 *                           capture) and as many clock reads; reported on stderr and as an Info
 *                           record. 0 (default) = off
 */
struct InjectConfig {
    std::string outputDir = ".";
    uint32_t activities = 0;
    uint32_t sampleHz = 10;
    uint32_t flushMs = 500;
    uint32_t delayMs = 0;
    uint32_t durationMs = 0;
    bool profilerApiRange = false; // WARPSCOPE_CAPTURE_RANGE=cudaProfilerApi
    uint32_t bufferBytes = 4u << 20;
    uint64_t maxBufferBytes = 1024ull << 20;
    uint32_t pmIntervalUs = 1000;
    std::string name;
    uint32_t stackDepth = 32;
    uint32_t pythonStackDepth = 48;
    uint32_t pySampleHz = 1000;
    uint32_t benchCallbacks = 0;
    bool timeCallbacks = false; // WARPSCOPE_TIME_CALLBACKS=1: report the callbacks' own time at exit

    static InjectConfig fromEnvironment(std::vector<std::string>* warnings);
    // WARPSCOPE_CAPTURE_RANGE=cudaProfilerApi alone, for what must know it before the tracer starts.
    static bool profilerApiRangeFromEnvironment();
};

} // namespace ws
