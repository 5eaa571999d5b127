#include "inject/injectconfig.h"

#include "format/activitylist.h"

#include <cstdlib>
#include <string_view>

namespace ws {

namespace {

uint64_t number(const char* var, uint64_t fallback, uint64_t min, uint64_t max, std::vector<std::string>* warnings) {
    const char* text = std::getenv(var);
    if (!text || !*text)
        return fallback;
    char* end = nullptr;
    const unsigned long long v = std::strtoull(text, &end, 10);
    if (*end != '\0' || v < min || v > max) {
        warnings->push_back(std::string("ignoring ") + var + "=" + text + " (expected a number from " +
                            std::to_string(min) + " to " + std::to_string(max) + ")");
        return fallback;
    }
    return v;
}

} // namespace

bool InjectConfig::profilerApiRangeFromEnvironment() {
    const char* range = std::getenv("WARPSCOPE_CAPTURE_RANGE");
    return range && std::string_view(range) == "cudaProfilerApi";
}

InjectConfig InjectConfig::fromEnvironment(std::vector<std::string>* warnings) {
    InjectConfig c;
    if (const char* out = std::getenv("WARPSCOPE_OUTPUT"); out && *out)
        c.outputDir = out;
    c.activities = wscap::kDefaultActivities;
    if (const char* list = std::getenv("WARPSCOPE_ACTIVITIES"); list && *list) {
        std::string bad;
        uint32_t bits = 0;
        if (wscap::parseActivities(list, &bits, &bad))
            c.activities = bits;
        else
            warnings->push_back("unknown activity '" + bad + "' in WARPSCOPE_ACTIVITIES; recording the default set");
    }
    c.sampleHz = static_cast<uint32_t>(number("WARPSCOPE_SAMPLE_HZ", c.sampleHz, 0, 10000, warnings));
    c.flushMs = static_cast<uint32_t>(number("WARPSCOPE_FLUSH_MS", c.flushMs, 10, 3600000, warnings));
    c.delayMs = static_cast<uint32_t>(number("WARPSCOPE_DELAY_MS", 0, 0, 1u << 31, warnings));
    c.durationMs = static_cast<uint32_t>(number("WARPSCOPE_DURATION_MS", 0, 0, 1u << 31, warnings));
    if (const char* range = std::getenv("WARPSCOPE_CAPTURE_RANGE"); range && *range) {
        c.profilerApiRange = profilerApiRangeFromEnvironment();
        if (!c.profilerApiRange)
            warnings->push_back(std::string("ignoring WARPSCOPE_CAPTURE_RANGE=") + range +
                                " (expected cudaProfilerApi); recording from the start");
    }
    c.bufferBytes = static_cast<uint32_t>(number("WARPSCOPE_BUFFER_KB", c.bufferBytes >> 10, 64, 1u << 20, warnings) << 10);
    c.maxBufferBytes = number("WARPSCOPE_MAX_BUFFER_MB", c.maxBufferBytes >> 20, 16, 1u << 20, warnings) << 20;
    c.pmIntervalUs = static_cast<uint32_t>(number("WARPSCOPE_PM_INTERVAL_US", c.pmIntervalUs, 10, 1000000, warnings));
    c.stackDepth = static_cast<uint32_t>(number("WARPSCOPE_STACK_DEPTH", c.stackDepth, 1, 32, warnings));
    c.pythonStackDepth =
        static_cast<uint32_t>(number("WARPSCOPE_PY_STACK_DEPTH", c.pythonStackDepth, 1, 64, warnings));
    c.pySampleHz = static_cast<uint32_t>(number("WARPSCOPE_PY_SAMPLE_HZ", c.pySampleHz, 1, 10000, warnings));
    c.benchCallbacks =
        static_cast<uint32_t>(number("WARPSCOPE_BENCH_CALLBACKS", 0, 0, 100'000'000, warnings));
    c.timeCallbacks = number("WARPSCOPE_TIME_CALLBACKS", 0, 0, 1, warnings) != 0;
    if (const char* name = std::getenv("WARPSCOPE_NAME"))
        c.name = name;
    if (c.sampleHz == 0)
        c.activities &= ~wscap::ActNvml;
    return c;
}

} // namespace ws
