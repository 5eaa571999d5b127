#pragma once

namespace ws {

/*
 * JsonStringScan: while walking JSON text byte by byte, says which bytes are outside string
 * literals (escapes included), so scanners can count braces or drop whitespace without being fooled
 * by `{`, `"` or spaces inside strings. One place for the rule that the object cutters and the
 * argument compactor share.
 */
struct JsonStringScan {
    bool inString = false;
    bool escape = false;

    // Feeds one byte; true when it is structural text (outside every string, quotes excluded).
    bool outside(char c) {
        if (inString) {
            if (escape)
                escape = false;
            else if (c == '\\')
                escape = true;
            else if (c == '"')
                inString = false;
            return false;
        }
        if (c == '"') {
            inString = true;
            return false;
        }
        return true;
    }
};

} // namespace ws
