#pragma once

// The few NVML entry points the sampler uses, declared from NVML's documented C ABI (nvml.h is not
// installed on every build machine). Loaded with dlopen("libnvidia-ml.so.1"); versioned names are
// the ones the header's macros resolve to.

#include <cstdint>

namespace ws::nvml {

using Return = int; // nvmlReturn_t; 0 = NVML_SUCCESS
using Device = struct DeviceOpaque*;

struct Utilization {
    unsigned int gpu;
    unsigned int memory;
};
struct Memory {
    unsigned long long total;
    unsigned long long free;
    unsigned long long used;
};

inline constexpr unsigned int kClockSm = 1;
inline constexpr unsigned int kClockMem = 2;
inline constexpr unsigned int kTemperatureGpu = 0;

struct Api {
    Return (*init)() = nullptr;
    Return (*shutdown)() = nullptr;
    const char* (*errorString)(Return) = nullptr;
    Return (*deviceGetCount)(unsigned int*) = nullptr;
    Return (*deviceGetHandleByIndex)(unsigned int, Device*) = nullptr;
    Return (*deviceGetName)(Device, char*, unsigned int) = nullptr;
    Return (*deviceGetUuid)(Device, char*, unsigned int) = nullptr;
    Return (*deviceGetPowerUsage)(Device, unsigned int*) = nullptr;
    Return (*deviceGetClockInfo)(Device, unsigned int, unsigned int*) = nullptr;
    Return (*deviceGetUtilizationRates)(Device, Utilization*) = nullptr;
    Return (*deviceGetMemoryInfo)(Device, Memory*) = nullptr;
    Return (*deviceGetTemperature)(Device, unsigned int, unsigned int*) = nullptr;
    Return (*systemGetDriverVersion)(char*, unsigned int) = nullptr;
};

} // namespace ws::nvml
