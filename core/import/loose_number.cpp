#include "import/loose_number.h"

#include <charconv>
#include <cmath>

namespace ws {

namespace {
bool isDigit(char c) { return c >= '0' && c <= '9'; }
} // namespace

bool parseLooseNumber(std::string_view text, double& value) {
    const size_t n = text.size();
    size_t i = 0;
    if (i < n && (text[i] == '+' || text[i] == '-'))
        ++i;
    size_t digits = 0;
    for (; i < n && isDigit(text[i]); ++i)
        ++digits;
    if (i < n && text[i] == '.')
        for (++i; i < n && isDigit(text[i]); ++i)
            ++digits;
    if (digits == 0)
        return false;
    if (i < n && (text[i] == 'e' || text[i] == 'E')) {
        ++i;
        if (i < n && (text[i] == '+' || text[i] == '-'))
            ++i;
        size_t exponent = 0;
        for (; i < n && isDigit(text[i]); ++i)
            ++exponent;
        if (exponent == 0)
            return false;
    }
    if (i != n)
        return false;
    // from_chars reads the same grammar except a leading '+'.
    const char* first = text.data() + (text[0] == '+' ? 1 : 0);
    const char* last = text.data() + n;
    double v = 0;
    const auto [end, error] = std::from_chars(first, last, v);
    if (error != std::errc() || end != last || !std::isfinite(v))
        return false;
    value = v;
    return true;
}

} // namespace ws
