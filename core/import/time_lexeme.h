#pragma once

#include <cstdint>
#include <string_view>

namespace ws {

/*
 * Converts a JSON number lexeme in microseconds ("1700000000123456.789", "12", "-3.5", "1e3") to
 * int64 nanoseconds exactly: integer and fraction digits are combined as integers (the fourth
 * fraction digit rounds half up), so epoch-microsecond times keep ns precision that a double would
 * lose (FORMATS.md 1.3). Exponent forms go through long double. Returns false when the text is
 * not a finite number that fits in int64 ns.
 */
bool parseMicrosToNs(std::string_view lexeme, int64_t& ns);

// Parses a decimal or "0x" hex integer lexeme/string (ids). Returns false if it is not one.
bool parseIntegerId(std::string_view text, uint64_t& value);

} // namespace ws
