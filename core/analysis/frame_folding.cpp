#include "analysis/frame_folding.h"

namespace ws {

namespace {

// Iterative glob with '*' only: O(pattern * text) in the worst case, linear for the usual patterns.
bool globMatches(std::string_view p, std::string_view s) {
    size_t pi = 0, si = 0, star = std::string_view::npos, resume = 0;
    while (si < s.size()) {
        if (pi < p.size() && p[pi] == '*') {
            star = pi++;
            resume = si;
        } else if (pi < p.size() && p[pi] == s[si]) {
            ++pi;
            ++si;
        } else if (star != std::string_view::npos) {
            pi = star + 1;
            si = ++resume;
        } else {
            return false;
        }
    }
    while (pi < p.size() && p[pi] == '*')
        ++pi;
    return pi == p.size();
}

bool isSeparator(char c) { return c == ',' || c == ' ' || c == '\t' || c == '\n' || c == ';'; }

} // namespace

bool framePatternMatches(std::string_view pattern, std::string_view function) {
    if (pattern.empty() || function.empty())
        return false;
    if (pattern.find_first_of(".*") == std::string_view::npos) {
        const size_t dot = function.rfind('.');
        return (dot == std::string_view::npos ? function : function.substr(dot + 1)) == pattern;
    }
    return globMatches(pattern, function);
}

FrameFolding FrameFolding::defaults() {
    return {{"_call_impl", "_wrapped_call_impl", "wrapper", "wrapped_func", "decorate_context", "__call__"}};
}

FrameFolding FrameFolding::parse(std::string_view text) {
    FrameFolding f;
    size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && isSeparator(text[i]))
            ++i;
        size_t j = i;
        while (j < text.size() && !isSeparator(text[j]))
            ++j;
        if (j > i)
            f.patterns.emplace_back(text.substr(i, j - i));
        i = j;
    }
    return f;
}

std::string FrameFolding::text() const {
    std::string out;
    for (const std::string& p : patterns) {
        if (!out.empty())
            out += ", ";
        out += p;
    }
    return out;
}

bool FrameFolding::folds(std::string_view function) const {
    for (const std::string& p : patterns)
        if (framePatternMatches(p, function))
            return true;
    return false;
}

} // namespace ws
