#pragma once

#include "model/string_table.h"

#include <cstdint>
#include <functional>

namespace ws {

/*
 * IdValue: a Chrome-trace pid or tid, which is a number or a string (Kineto writes "Spans",
 * "Traces", "" and "GPU 0 Counters"). Compared by value; 16 bytes.
 */
struct IdValue {
    int64_t number = 0;
    StringId string = kEmptyString;
    bool isString = false;

    bool operator==(const IdValue&) const = default;
};

struct IdValueHash {
    size_t operator()(const IdValue& v) const noexcept {
        // Mixed as unsigned: a pid or tid may be any 64-bit value, and signed overflow is UB.
        return std::hash<uint64_t>()(static_cast<uint64_t>(v.number) * 31u + v.string) ^ (v.isString ? 0x9e3779b9u : 0u);
    }
};

} // namespace ws
