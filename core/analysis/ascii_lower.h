#pragma once

#include <string>
#include <string_view>

namespace ws {

// A lower-case copy of ASCII text (kernel and operator names); other bytes are kept as they are,
// whatever the C locale says.
inline std::string asciiLower(std::string_view s) {
    std::string out(s);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
    return out;
}

} // namespace ws
