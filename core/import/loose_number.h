#pragma once

#include <string_view>

namespace ws {

/*
 * parseLooseNumber: a decimal number written as text, for counter values that writers put in
 * quotes ({"ph": "C", "args": {"v": "25.7"}}). Read as JavaScript's Number() and C's strtod read
 * decimals, which is what Chrome trace readers do with such values (Perfetto: strtod of the whole
 * string): an optional sign (+ or -), digits with at most one '.', at least one digit, an optional
 * exponent. So "050", ".75", "246." and "+10.5" are numbers. Not accepted: empty text, whitespace,
 * hexadecimal, "inf", "nan", and values that overflow a double (a counter sample must be finite).
 * True, with the value, when the whole text is such a number. O(length).
 */
bool parseLooseNumber(std::string_view text, double& value);

} // namespace ws
