#include "source/path_mapping.h"

#include <cstdlib>
#include <filesystem>
#include <system_error>

namespace ws {

std::string expandHome(std::string_view path, std::string_view home) {
    if (path == "~") return std::string(home);
    if (path.size() >= 2 && path[0] == '~' && path[1] == '/')
        return std::string(home) + std::string(path.substr(1));
    return std::string(path);
}

std::string homeDirectory() {
    const char* h = std::getenv("HOME");
    return h ? std::string(h) : std::string();
}

namespace {

std::string_view trimTrailingSlashes(std::string_view s) {
    while (s.size() > 1 && s.back() == '/')
        s.remove_suffix(1);
    return s;
}

} // namespace

std::vector<std::string> candidateSourcePaths(std::string_view file,
                                              const std::vector<PathMappingRule>& rules,
                                              std::string_view home) {
    std::vector<std::string> out;
    for (const PathMappingRule& r : rules) {
        const std::string_view from = trimTrailingSlashes(r.from);
        if (from.empty() || r.to.empty() || file.size() < from.size() || file.substr(0, from.size()) != from)
            continue;
        // Whole components only: the prefix must end at a '/' of the file (or be "/").
        if (file.size() > from.size() && file[from.size()] != '/' && from != "/") continue;
        std::string to = expandHome(trimTrailingSlashes(r.to), home);
        std::string_view rest = file.substr(from.size());
        if (!rest.empty() && rest.front() != '/')
            to += '/';
        else if (!to.empty() && to.back() == '/' && !rest.empty())
            rest.remove_prefix(1);
        out.push_back(to + std::string(rest));
    }
    out.emplace_back(file);
    return out;
}

std::optional<std::string> resolveSourcePath(std::string_view file, const std::vector<PathMappingRule>& rules,
                                             std::string_view home) {
    for (const std::string& c : candidateSourcePaths(file, rules, home)) {
        std::error_code ec;
        if (std::filesystem::is_regular_file(c, ec)) return c;
    }
    return std::nullopt;
}

std::optional<PathMappingRule> learnPathMapping(std::string_view recorded, std::string_view located) {
    std::string_view a = trimTrailingSlashes(recorded);
    std::string_view b = trimTrailingSlashes(located);
    if (a == b) return std::nullopt;
    // Drop shared trailing components while both keep at least one leading component.
    for (;;) {
        const size_t sa = a.rfind('/');
        const size_t sb = b.rfind('/');
        if (sa == std::string_view::npos || sb == std::string_view::npos || sa == 0 || sb == 0) break;
        if (a.substr(sa) != b.substr(sb)) break;
        a = a.substr(0, sa);
        b = b.substr(0, sb);
    }
    if (a == b || a.empty() || b.empty()) return std::nullopt;
    return PathMappingRule{std::string(a), std::string(b)};
}

} // namespace ws
