#pragma once

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <optional>

namespace ws {

// An integer member of a JSON object (deviceProperties, distributedInfo, a stored session's devices)
// within [lo, hi]: an integer, or a finite number with a fraction (truncated). Anything else, and a
// number out of range, is absent: converting it would be undefined (a damaged file, a fuzzer's
// 1.7e85 bytes of GPU memory).
inline std::optional<int64_t> jsonInteger(const nlohmann::json& object, const char* key, int64_t lo, int64_t hi) {
    if (!object.is_object())
        return std::nullopt;
    const auto it = object.find(key);
    if (it == object.end() || !it->is_number())
        return std::nullopt;
    if (it->is_number_unsigned()) {
        const uint64_t v = it->get<uint64_t>();
        return hi >= 0 && v <= static_cast<uint64_t>(hi) ? std::optional<int64_t>(static_cast<int64_t>(v)) : std::nullopt;
    }
    if (it->is_number_integer()) {
        const int64_t v = it->get<int64_t>();
        return v >= lo && v <= hi ? std::optional<int64_t>(v) : std::nullopt;
    }
    const double v = it->get<double>();
    // 2^63 as a double: at or above it nothing fits an int64.
    if (!std::isfinite(v) || v < static_cast<double>(lo) || v >= 9223372036854775808.0 || v > static_cast<double>(hi))
        return std::nullopt;
    return static_cast<int64_t>(v);
}

} // namespace ws
