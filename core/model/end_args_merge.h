#pragma once

#include <string>
#include <string_view>

namespace ws {

/*
 * mergeEndArgs: the text of a duration slice's B event with the args of the E event that closed it
 * merged in. The Trace Event Format merges the args of B and E, E's value winning for a key both
 * give (Perfetto does the same); a Session keeps one argRef per slice, the B event's, and merges
 * E's args in when it reads the text back (Session::endArgRef).
 *
 * Result: the B text with its args replaced by B's keys in B's order, each with E's value where E
 * has the key, then E's other keys in E's order (compact, `"key":value`); when B has no args
 * object, E's. The B text is returned unchanged when E has no args members. O(length of both, plus
 * keys of B times keys of E).
 */
std::string mergeEndArgs(std::string_view beginObject, std::string_view endObject);

} // namespace ws
