#include "model/json_trailing_commas.h"

#include "model/json_string_scan.h"

namespace ws {

size_t blankTrailingCommas(char* text, size_t length) {
    size_t blanked = 0;
    size_t comma = length; // index of a comma not yet followed by a value; length: none
    JsonStringScan scan;
    for (size_t i = 0; i < length; ++i) {
        const char c = text[i];
        if (!scan.outside(c)) {
            comma = length; // a string is a value
            continue;
        }
        switch (c) {
        case ' ':
        case '\t':
        case '\n':
        case '\r': break;
        case ',': comma = i; break;
        case '}':
        case ']':
            if (comma < length) {
                text[comma] = ' ';
                ++blanked;
            }
            comma = length;
            break;
        default: comma = length; break;
        }
    }
    return blanked;
}

} // namespace ws
