#pragma once

#include "model/string_table.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

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

/* One frame of a `Call stack` argument (legacy TorchScript/with_stack ops), decoded on demand. */
struct StackFrameText {
    std::string file;
    int32_t line = 0;
    std::string function; // or the whole entry when it is not "<file>(<line>): <func>"
};

// Frames of a `Call stack` argument ("file(line): func;file(line): func", innermost first); an
// entry that is not of that form keeps its whole text as the function.
std::vector<StackFrameText> parseCallStackText(std::string_view stack);

} // namespace ws
