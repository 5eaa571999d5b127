#include "import/time_lexeme.h"

#include <cmath>
#include <cstdlib>
#include <string>

namespace ws {

namespace {

bool parseWithExponent(std::string_view lexeme, int64_t& ns) {
    const std::string s(lexeme);
    char* end = nullptr;
    const long double v = std::strtold(s.c_str(), &end);
    if (end == s.c_str() || *end != '\0' || !std::isfinite(v))
        return false;
    const long double scaled = v * 1000.0L;
    if (scaled > 9.2e18L || scaled < -9.2e18L)
        return false;
    ns = static_cast<int64_t>(std::llround(scaled));
    return true;
}

} // namespace

bool parseMicrosToNs(std::string_view lex, int64_t& ns) {
    while (!lex.empty() && (lex.back() == ' ' || lex.back() == '\n' || lex.back() == '\r' || lex.back() == '\t'))
        lex.remove_suffix(1);
    size_t i = 0;
    const size_t n = lex.size();
    bool negative = false;
    if (i < n && (lex[i] == '-' || lex[i] == '+')) {
        negative = lex[i] == '-';
        ++i;
    }
    if (i == n)
        return false;
    uint64_t whole = 0;
    size_t digits = 0;
    while (i < n && lex[i] >= '0' && lex[i] <= '9') {
        if (whole > 920'000'000'000'000ull)
            return false; // would overflow int64 ns
        whole = whole * 10 + static_cast<uint64_t>(lex[i] - '0');
        ++i;
        ++digits;
    }
    uint64_t frac = 0;
    int fracDigits = 0;
    bool roundUp = false;
    if (i < n && lex[i] == '.') {
        ++i;
        while (i < n && lex[i] >= '0' && lex[i] <= '9') {
            if (fracDigits < 3)
                frac = frac * 10 + static_cast<uint64_t>(lex[i] - '0');
            else if (fracDigits == 3)
                roundUp = lex[i] >= '5';
            ++fracDigits;
            ++i;
            ++digits;
        }
    }
    if (digits == 0)
        return false;
    if (i < n) {
        if (lex[i] == 'e' || lex[i] == 'E')
            return parseWithExponent(lex, ns);
        return false;
    }
    for (int k = fracDigits; k < 3; ++k)
        frac *= 10;
    uint64_t total = whole * 1000 + frac + (roundUp ? 1 : 0);
    if (total > static_cast<uint64_t>(INT64_MAX))
        return false;
    ns = negative ? -static_cast<int64_t>(total) : static_cast<int64_t>(total);
    return true;
}

bool parseIntegerId(std::string_view t, uint64_t& value) {
    while (!t.empty() && (t.back() == ' ' || t.back() == '\n' || t.back() == '\r' || t.back() == '\t'))
        t.remove_suffix(1);
    if (t.empty())
        return false;
    int base = 10;
    bool negative = false;
    if (t[0] == '-') {
        negative = true;
        t.remove_prefix(1);
    }
    if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
        base = 16;
        t.remove_prefix(2);
    }
    if (t.empty())
        return false;
    uint64_t v = 0;
    for (char c : t) {
        int d;
        if (c >= '0' && c <= '9')
            d = c - '0';
        else if (base == 16 && c >= 'a' && c <= 'f')
            d = c - 'a' + 10;
        else if (base == 16 && c >= 'A' && c <= 'F')
            d = c - 'A' + 10;
        else
            return false;
        v = v * static_cast<uint64_t>(base) + static_cast<uint64_t>(d);
    }
    value = negative ? static_cast<uint64_t>(-static_cast<int64_t>(v)) : v;
    return true;
}

} // namespace ws
