#pragma once

#include "import/trace_import.h"

#include <optional>
#include <string>
#include <vector>

namespace ws::cli {

// Exit codes, GNU style: 0 success, 1 the work failed (bad input file), 2 usage error.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitUsage = 2;

/*
 * Minimal GNU-style argument reader for one subcommand: long options `--name`, `--name=value`,
 * `--name value` (for options declared as taking a value), short flags `-o value`, `--` ends options.
 * Everything else is a positional argument, in order.
 */
// Imports a trace or session for a command; on failure prints "warpscope-cli: PATH: why" to stderr
// and returns false (the command then exits with kExitFailure).
// Prints why a trace could not be opened; a URL is never printed as given (it may carry a token).
void reportImportError(const std::string& path, const std::string& error);
bool importForCli(const std::string& path, ImportResult& result, const ImportControl& control = {});

class CliArgs {
public:
    CliArgs(std::vector<std::string> args, std::vector<std::string> valueOptions);

    bool ok() const { return m_error.empty(); }
    const std::string& error() const { return m_error; }
    bool flag(const std::string& name) const;
    std::optional<std::string> value(const std::string& name) const;
    const std::vector<std::string>& positional() const { return m_positional; }
    // Options seen that are not in `known`; non-empty means a usage error.
    std::vector<std::string> unknown(const std::vector<std::string>& known) const;

private:
    std::vector<std::pair<std::string, std::optional<std::string>>> m_options;
    std::vector<std::string> m_positional;
    std::string m_error;
};

} // namespace ws::cli
