#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace ws {

class Session;
struct CounterSeries;

/*
 * A capture's PM sampling series (the `pm` activity: CUPTI PM sampling, category "pm_sampling"),
 * each in % of the hardware's peak, one series per quantity and device.
 */
enum class PmCounter : uint8_t { SmActive, TensorActive, DramBandwidth };
inline constexpr size_t kPmCounterCount = 3;
inline constexpr std::array<std::string_view, kPmCounterCount> kPmCounterNames = {"sm_active", "tensor_active",
                                                                                  "dram_bandwidth"};

// Index into Session::counters() of a device's series; -1 when the capture has none.
int32_t pmCounterIndex(const Session& session, int device, PmCounter counter);

// Time-weighted mean of a sampled counter over [lo, hi): sample i holds over [ts[i], ts[i+1]), the
// last one for as long as the one before it; nullopt when no sample covers any of the window.
std::optional<double> sampledMean(const CounterSeries& c, int64_t lo, int64_t hi);

} // namespace ws
