#pragma once

#include <cstddef>

namespace ws {

/*
 * blankTrailingCommas: overwrites with a space, in place, every comma that ends the member list of
 * an object or array (`{"a": 1,}`, `[1, 2, ]`), outside strings, and returns how many there were.
 * JSON forbids such commas and simdjson and nlohmann reject them, but Chrome trace writers other
 * than Kineto emit them and Perfetto's JSON reader accepts them (jsoncpp's default
 * allowTrailingCommas), so event texts are repaired where they are read: by the importer's parser
 * when an event does not parse, and by the readers that bring event text back for arguments
 * (EventObjectReader, EventTextReader). Blanking rather than removing keeps every byte offset
 * (argRef) valid. One pass, O(length); text that is not JSON is left as it is apart from such commas.
 */
size_t blankTrailingCommas(char* text, size_t length);

} // namespace ws
