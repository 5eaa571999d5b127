#include "analysis/ncu_command.h"

#include "analysis/kernel_table.h"
#include "model/session.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace ws {

namespace {

// The capture's command line: the stream that recorded the most, as `warpscopeCapture` lists them.
std::vector<std::string> captureCommand(const Session& session) {
    const auto it = session.metadata().find("warpscopeCapture");
    if (it == session.metadata().end())
        return {};
    const nlohmann::json info = nlohmann::json::parse(it->second, nullptr, false);
    if (!info.is_object() || !info.contains("streams") || !info["streams"].is_array())
        return {};
    std::vector<std::string> best;
    int64_t bestRecords = -1;
    for (const auto& s : info["streams"]) {
        if (!s.is_object() || !s.contains("command") || !s["command"].is_array() || s["command"].empty())
            continue;
        const int64_t records = s.value("records", int64_t(0));
        if (records <= bestRecords)
            continue;
        bestRecords = records;
        best.clear();
        for (const auto& a : s["command"])
            if (a.is_string())
                best.push_back(a.get<std::string>());
    }
    return best;
}

// A name for the report: the function name's safe characters, at most 40.
std::string reportNameOf(std::string_view function) {
    std::string out = "warpscope_";
    for (char c : function) {
        if (out.size() >= 50)
            break;
        const bool safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
        out.push_back(safe ? c : '_');
    }
    return out;
}

// The regex matching exactly this name (ncu's regex: is ECMAScript-like; escape its specials).
std::string exactRegex(std::string_view name) {
    std::string out = "regex:^";
    for (char c : name) {
        if (std::string_view("\\^$.|?*+()[]{}").find(c) != std::string_view::npos)
            out.push_back('\\');
        out.push_back(c);
    }
    out.push_back('$');
    return out;
}

} // namespace

std::string shellQuote(std::string_view word) {
    const bool safe = !word.empty() && std::all_of(word.begin(), word.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               std::string_view("_-./=:,+@%").find(c) != std::string_view::npos;
    });
    if (safe)
        return std::string(word);
    std::string out = "'";
    for (char c : word) {
        if (c == '\'')
            out += "'\\''";
        else
            out.push_back(c);
    }
    out.push_back('\'');
    return out;
}

std::string kernelFunctionName(std::string_view name) {
    // Up to the parameter list or template arguments at depth 0, after the return type, and the
    // last component of the qualified name.
    size_t end = name.size();
    int angle = 0;
    size_t lastSpace = std::string_view::npos;
    for (size_t i = 0; i < name.size(); ++i) {
        const char c = name[i];
        if (c == '<') {
            if (angle == 0) {
                end = i;
                break;
            }
            ++angle;
        } else if (c == '(') {
            // "(anonymous namespace)::" is part of a qualified name, not a parameter list.
            if (name.substr(i, 21) == "(anonymous namespace)") {
                i += 20;
                continue;
            }
            end = i;
            break;
        } else if (c == ' ') {
            lastSpace = i;
        }
    }
    std::string_view head = name.substr(0, end);
    if (lastSpace != std::string_view::npos && lastSpace < end)
        head = head.substr(lastSpace + 1); // "void " and other return types
    const size_t colons = head.rfind("::");
    if (colons != std::string_view::npos)
        head = head.substr(colons + 2);
    return std::string(head.empty() ? name : head);
}

NcuCommand ncuCommandFor(const Session& session, const KernelTable& table, uint32_t row, uint32_t count) {
    NcuCommand c;
    c.count = std::max<uint32_t>(1, count);
    if (row >= table.size())
        return c;
    // Function names once per distinct kernel name.
    std::vector<std::string> functions(table.names().size());
    for (size_t i = 0; i < functions.size(); ++i)
        functions[i] = kernelFunctionName(session.str(table.names()[i]));
    c.function = functions[table.row(row).nameIndex];
    std::vector<char> same(functions.size());
    for (size_t i = 0; i < functions.size(); ++i)
        same[i] = functions[i] == c.function;
    for (uint32_t r = 0; r < table.size(); ++r)
        if (same[table.row(r).nameIndex]) {
            c.skip += r < row;
            ++c.launches;
        }
    c.program = captureCommand(session);
    c.reportName = reportNameOf(c.function);
    return c;
}

std::vector<std::string> NcuCommand::arguments() const {
    std::vector<std::string> a = {"ncu",
                                  "--kernel-name-base", "function",
                                  "--kernel-name", exactRegex(function),
                                  "--launch-skip", std::to_string(skip),
                                  "--launch-count", std::to_string(count),
                                  "--section", "SpeedOfLight",
                                  "--section", "SpeedOfLight_RooflineChart",
                                  "--section", "Occupancy",
                                  "--section", "LaunchStats",
                                  "--section", "MemoryWorkloadAnalysis",
                                  "-f", "-o", reportName};
    if (program.empty()) {
        a.push_back("PROGRAM");
        a.push_back("[ARGS]");
    } else {
        a.insert(a.end(), program.begin(), program.end());
    }
    return a;
}

std::string NcuCommand::shellCommand() const {
    std::string out;
    const std::vector<std::string> args = arguments();
    for (size_t i = 0; i < args.size(); ++i) {
        if (i)
            out.push_back(' ');
        const bool placeholder = program.empty() && i + 2 >= args.size();
        out += placeholder ? args[i] : shellQuote(args[i]);
    }
    return out;
}

std::string NcuCommand::exportCommands() const {
    const std::string rep = shellQuote(reportName + ".ncu-rep");
    return "ncu --import " + rep + " --csv --page raw > " + shellQuote(reportName + "_raw.csv") + "\n" +
           "ncu --import " + rep + " --csv --page details > " + shellQuote(reportName + "_details.csv");
}

} // namespace ws
