#pragma once

#include <string_view>
#include <vector>

namespace ws {

/*
 * The top-level members of a JSON object's text, found without parsing it: each key as written
 * (escapes kept, quotes removed) and its value's text (a string with its quotes, a balanced object
 * or array, or a bare literal or number). For event texts read back from a trace, where one member
 * (args) matters and a DOM of the event would be waste. Lenient: text that is not an object gives
 * nothing, a cut object the members before the cut (the last value running to the end). O(length).
 */
struct JsonMember {
    std::string_view key;
    std::string_view value; // a view into the object text
};
std::vector<JsonMember> jsonMembers(std::string_view object);

// The value text of a top-level member of a JSON object text (e.g. "args"); empty when absent or
// when the text is not an object.
std::string_view topLevelMember(std::string_view object, std::string_view key);

} // namespace ws
