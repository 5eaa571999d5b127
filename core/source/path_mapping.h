#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ws {

/*
 * PathMappingRule: "a file recorded under `from` is found under `to`", e.g. /workspace/proj ->
 * ~/src/proj. Both are directory prefixes matched on whole path components (/workspace/proj
 * matches /workspace/proj/a.py, not /workspace/project/a.py); a leading `~` or `~/` in `to` is the
 * home directory.
 */
struct PathMappingRule {
    std::string from;
    std::string to;
};

// "~" and "~/x" -> home and home + "/x"; anything else unchanged.
std::string expandHome(std::string_view path, std::string_view home);
// $HOME, or "" when unset.
std::string homeDirectory();

// Every rule that matches `file`, applied, in rule order, followed by `file` itself. No disk access.
std::vector<std::string>
candidateSourcePaths(std::string_view file, const std::vector<PathMappingRule>& rules, std::string_view home);

// The first candidate (candidateSourcePaths) that is an existing regular file, or nullopt.
std::optional<std::string> resolveSourcePath(std::string_view file, const std::vector<PathMappingRule>& rules,
                                             std::string_view home);

/*
 * The rule learned from the user locating `recorded` at `located`: the longest common trailing
 * path components are dropped from both, so /workspace/proj/src/a.py located at
 * /home/u/src/proj/src/a.py gives /workspace -> /home/u/src (it then maps every file of
 * that tree). When nothing but the file name is shared, maps the directories; when the whole paths
 * are the same, nullopt.
 */
std::optional<PathMappingRule> learnPathMapping(std::string_view recorded, std::string_view located);

} // namespace ws
