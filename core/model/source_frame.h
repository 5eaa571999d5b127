#pragma once

#include "model/string_table.h"

#include <cstdint>

namespace ws {

/*
 * SourceFrame: a source location parsed from a python_function name `<file>(<line>): <func>` or
 * from a `Call stack` entry. One per distinct name (Session::frameForName), so a stack is the chain
 * of python_function slices enclosing an op (their rows above it) mapped through this table.
 */
struct SourceFrame {
    StringId file = kEmptyString;
    int32_t line = 0;
    StringId function = kEmptyString;
};

} // namespace ws
