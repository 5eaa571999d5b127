#pragma once

#include "model/string_table.h"

#include <cstdint>
#include <vector>

namespace ws {

/*
 * CounterSeries: one series of a Chrome `C` counter: counter `name` (or `name[id]`) of a process,
 * one arg key (`series`). Samples are sorted by time (stable in file order); values are doubles.
 * Decimation for drawing (min/max per pixel column) is done by the view on top of these columns.
 */
struct CounterSeries {
    uint32_t process = 0;
    StringId name = kEmptyString;
    StringId series = kEmptyString;
    StringId category = kEmptyString;
    std::vector<int64_t> ts;
    std::vector<double> value;
};

} // namespace ws
