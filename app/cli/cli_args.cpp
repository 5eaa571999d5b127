#include "cli_args.h"

#include "library/open_trace.h"
#include "remote/remote_url.h"

#include <algorithm>
#include <cstdio>

namespace ws::cli {

CliArgs::CliArgs(std::vector<std::string> args, std::vector<std::string> valueOptions) {
    auto takesValue = [&](const std::string& name) {
        return std::find(valueOptions.begin(), valueOptions.end(), name) != valueOptions.end();
    };
    bool optionsEnded = false;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (optionsEnded || a.size() < 2 || a[0] != '-') {
            m_positional.push_back(a);
            continue;
        }
        if (a == "--") {
            optionsEnded = true;
            continue;
        }
        std::string name = a[1] == '-' ? a.substr(2) : a.substr(1);
        std::optional<std::string> val;
        if (auto eq = name.find('='); eq != std::string::npos) {
            val = name.substr(eq + 1);
            name.resize(eq);
        } else if (takesValue(name)) {
            if (i + 1 >= args.size()) {
                m_error = "option --" + name + " needs a value";
                return;
            }
            val = args[++i];
        }
        m_options.emplace_back(name, val);
    }
}

bool CliArgs::flag(const std::string& name) const {
    return std::any_of(m_options.begin(), m_options.end(), [&](const auto& o) { return o.first == name; });
}

std::optional<std::string> CliArgs::value(const std::string& name) const {
    for (auto it = m_options.rbegin(); it != m_options.rend(); ++it)
        if (it->first == name)
            return it->second;
    return std::nullopt;
}

std::vector<std::string> CliArgs::unknown(const std::vector<std::string>& known) const {
    std::vector<std::string> out;
    for (const auto& o : m_options)
        if (std::find(known.begin(), known.end(), o.first) == known.end())
            out.push_back(o.first);
    return out;
}

void reportImportError(const std::string& path, const std::string& error) {
    // A remote object's error names its URL itself, with any token redacted; the raw text may hold one.
    if (isRemoteUrl(path))
        std::fprintf(stderr, "warpscope-cli: %s\n", error.c_str());
    else
        std::fprintf(stderr, "warpscope-cli: %s: %s\n", path.c_str(), error.c_str());
}

bool importForCli(const std::string& path, ImportResult& result, const ImportControl& control) {
    result = openTraceFile(path, control);
    if (result.session)
        return true;
    reportImportError(path, result.error);
    return false;
}

} // namespace ws::cli
