#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>

namespace ws {

/*
 * Argument columns (issue #29): the few event arguments that the kernel table and the operator tree
 * need for every kernel and operator, decoded once by the import's own pass (the JSON parser; a
 * capture's stream converter) instead of being read back from the source. Each is one interned string per slice (Track::launchArgs,
 * Track::opArgs; kEmptyString when the event had none of the keys): the values of a fixed list of
 * keys, each as the event text gave it (a string's unescaped text; an array, number or other value
 * as raw JSON), joined by kArgColumnSeparator. Distinct values are few (launch geometries, operator
 * input shapes), so a slice costs 4 bytes and the text is held once.
 *
 * argColumnValue() turns a field back into exactly what Session::forEachArgValues gives for that
 * key (strings unescaped, other values compact JSON), so analyses read either source alike.
 * A value holding the separator byte cannot be kept: the importer then leaves the session without
 * argument columns (Session::argColumns() false) and the analyses read the source as before.
 */
inline constexpr char kArgColumnSeparator = '\x1f';

// Keys of Track::launchArgs, in order.
inline constexpr std::array<std::string_view, 4> kLaunchArgKeys = {"grid", "block", "registers per thread",
                                                                   "shared memory"};
// Keys of Track::opArgs, in order.
inline constexpr std::array<std::string_view, 4> kOpArgKeys = {"Input Dims", "Input type", "Concrete Inputs",
                                                               "Call stack"};

// A field of a joined value: whether it was a JSON string (then `text` is unescaped) and its text.
struct ArgColumnField {
    bool present = false;
    bool isString = false;
    std::string_view text;
};

// Joins fields into one column value; "" when none is present; false if a text holds the separator.
// Each present field is written as 's' or 'r' (string / raw JSON) followed by its text.
template <size_t N>
bool joinArgColumn(const std::array<ArgColumnField, N>& fields, std::string& out) {
    out.clear();
    bool any = false;
    for (size_t i = 0; i < N; ++i) {
        if (i)
            out.push_back(kArgColumnSeparator);
        if (!fields[i].present)
            continue;
        if (fields[i].text.find(kArgColumnSeparator) != std::string_view::npos)
            return false;
        any = true;
        out.push_back(fields[i].isString ? 's' : 'r');
        out.append(fields[i].text);
    }
    if (!any)
        out.clear();
    return true;
}

// Splits a joined value into N raw fields (empty view: absent).
template <size_t N>
std::array<std::string_view, N> splitArgColumn(std::string_view joined) {
    std::array<std::string_view, N> out{};
    for (size_t i = 0; i < N && !joined.empty(); ++i) {
        const size_t end = joined.find(kArgColumnSeparator);
        out[i] = joined.substr(0, end);
        if (end == std::string_view::npos)
            break;
        joined.remove_prefix(end + 1);
    }
    return out;
}

// A split field as forEachArgValues gives it (strings unescaped, other values compact JSON); `buf`
// holds the text when it had to be compacted. Empty when absent.
std::string_view argColumnValue(std::string_view field, std::string& buf);

// Compact JSON text of a raw value: whitespace outside strings removed (nlohmann's compact dump of
// arrays such as Input Dims).
void compactJson(std::string_view raw, std::string& out);

} // namespace ws
