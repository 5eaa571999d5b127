#pragma once

#include <cstdarg>
#include <cstdio>
#include <string>

namespace ws {

// printf onto the end of a string, for reports built line by line (lines longer than 1 KiB are cut).
__attribute__((format(printf, 2, 3))) inline void appendFormat(std::string& out, const char* format, ...) {
    char line[1024];
    va_list args;
    va_start(args, format);
    std::vsnprintf(line, sizeof line, format, args);
    va_end(args);
    out += line;
}

} // namespace ws
