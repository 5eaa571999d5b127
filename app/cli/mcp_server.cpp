#include "mcp_server.h"

#include "analysis/flame_graph.h"
#include "analysis/overview_document.h"
#include "analysis/session_diff.h"
#include "analysis/session_diff_text.h"
#include "analysis/trace_summary.h"
#include "library/open_trace.h"
#include "model/session.h"
#include "query/query_engine.h"
#include "query/query_output.h"
#include "warpscope_version.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <sstream>
#include <stdexcept>

namespace ws::cli {

namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

// A tool's failure the caller can act on (a bad path, a statement SQLite refused): the tool's
// result says it (isError), the connection goes on.
struct ToolError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

const char* const kProtocolVersions[] = {"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"};

json stringProperty(const char* description) { return {{"type", "string"}, {"description", description}}; }
json integerProperty(const char* description) { return {{"type", "integer"}, {"description", description}}; }

const char* const kTarget = "a session id from `open`, or a path under the server's roots (opened on first use)";

json toolList() {
    auto tool = [](const char* name, const char* description, json properties, std::vector<std::string> required) {
        return json{{"name", name},
                    {"description", description},
                    {"inputSchema", {{"type", "object"}, {"properties", std::move(properties)}, {"required", std::move(required)}}}};
    };
    return json::array({
        tool("files", "List the trace, capture and session files under the server's roots (or one folder of them).",
             {{"directory", stringProperty("a folder under the roots; default: every root")},
              {"contains", stringProperty("only names containing this text")}},
             {}),
        tool("open",
             "Open a trace (PyTorch/Kineto or Chrome JSON, Nsight Systems SQLite, nvprof, rocprofiler-sdk, XLA XSpace, "
             "PyTorch memory files), a Warpscope capture or a stored session. Returns its id and headline numbers.",
             {{"path", stringProperty("a file under the server's roots (relative paths are under the first root)")}}, {"path"}),
        tool("summary", "Headline numbers: duration, events, GPUs, kernel and operator counts, top kernels (summary --json).",
             {{"session", stringProperty(kTarget)}}, {"session"}),
        tool("overview",
             "The Overview: GPU utilization, step time breakdown, recommendations, inference phases and roofline "
             "(overview --json).",
             {{"session", stringProperty(kTarget)}}, {"session"}),
        tool("query",
             "SQL (SQLite) over the session, read-only. Tables: slices, kernels, operators, memcpy, python_frames, counters, "
             "flows, memory_events, steps, gaps, tracks, processes, threads, args; views kernel_summary, operator_summary "
             "and *_per_step. kernels.op_id = operators.id. Times are ns. Run `SELECT * FROM pragma_table_info('kernels')` "
             "for a table's columns.",
             {{"session", stringProperty(kTarget)},
              {"sql", stringProperty("one SELECT statement")},
              {"max_rows", integerProperty("rows to return (default 200, at most 10000)")}},
             {"session", "sql"}),
        tool("kernels", "The kernels that take the GPU time, grouped by name: calls, total, mean, max, share of GPU time.",
             {{"session", stringProperty(kTarget)}, {"top", integerProperty("rows (default 20)")}}, {"session"}),
        tool("gaps",
             "Why the GPU waits: idle time within steps by cause (host sync, collectives, data loading, CPU work, "
             "nothing recorded) and the longest gaps with what the host did.",
             {{"session", stringProperty(kTarget)}, {"top", integerProperty("longest gaps to list (default 10)")}}, {"session"}),
        tool("diff", "Compare two runs (baseline a, compared b): step time, operators and kernels that changed (diff --json).",
             {{"a", stringProperty(kTarget)}, {"b", stringProperty(kTarget)}}, {"a", "b"}),
        tool("flame",
             "The flame graph as folded stacks ('outer;...;inner weight'), heaviest first: gpu = kernel time by the "
             "Python stack that launched it, cpu = Python self time, alloc = bytes allocated. nn.Module dispatch and "
             "decorator frames are folded into their callers unless all_frames is true.",
             {{"session", stringProperty(kTarget)},
              {"weight", json{{"type", "string"}, {"enum", {"gpu", "cpu", "alloc"}}}},
              {"top", integerProperty("stacks (default 40)")},
              {"all_frames", json{{"type", "boolean"}, {"description", "keep dispatch and decorator frames (default false)"}}}},
             {"session"}),
    });
}

int64_t intArg(const json& args, const char* key, int64_t fallback, int64_t lo, int64_t hi) {
    if (!args.contains(key))
        return fallback;
    if (!args[key].is_number_integer())
        throw ToolError(std::string(key) + " must be an integer");
    return std::clamp(args[key].get<int64_t>(), lo, hi);
}

std::string stringArg(const json& args, const char* key) {
    if (!args.contains(key) || !args[key].is_string())
        throw ToolError(std::string("missing string argument '") + key + "'");
    return args[key].get<std::string>();
}

// JSON text that never throws on a trace's invalid UTF-8 (a name cut mid-character): replaced by U+FFFD.
std::string dumped(const json& j, int indent = -1) { return j.dump(indent, ' ', false, json::error_handler_t::replace); }

json valueJson(const QueryValue& v) {
    switch (v.type) {
    case QueryValue::Type::Null: return nullptr;
    case QueryValue::Type::Integer: return v.integer;
    case QueryValue::Type::Real: return v.real;
    case QueryValue::Type::Text: return v.text;
    }
    return nullptr;
}

} // namespace

struct McpServer::State {
    McpOptions options;
    struct Open {
        std::string path;
        std::shared_ptr<const Session> session;
        std::unique_ptr<QueryEngine> engine;
    };
    std::map<std::string, Open> sessions; // by id
    std::map<std::string, std::string> idOfPath;

    // The canonical path of a file under the roots; refuses anything else (URLs, escapes, missing).
    std::string allowedPath(const std::string& raw) const {
        if (raw.find("://") != std::string::npos)
            throw ToolError("only files under the server's roots can be opened, not URLs");
        fs::path p(raw);
        if (p.is_relative()) {
            if (options.roots.empty())
                throw ToolError("the server has no roots");
            p = fs::path(options.roots.front()) / p;
        }
        std::error_code ec;
        const fs::path canonical = fs::canonical(p, ec);
        if (ec)
            throw ToolError(raw + ": " + ec.message());
        const std::string c = canonical.string();
        for (const std::string& root : options.roots)
            if (c == root || (c.size() > root.size() && c.compare(0, root.size(), root) == 0 && c[root.size()] == '/'))
                return c;
        throw ToolError(raw + ": outside the directories this server was started with");
    }

    Open& open(const std::string& raw) {
        const std::string path = allowedPath(raw);
        if (const auto it = idOfPath.find(path); it != idOfPath.end())
            return sessions.at(it->second);
        if (fs::is_directory(path))
            throw ToolError(raw + ": a directory (the files tool lists what is in it)");
        ImportResult r = openTraceFile(path);
        if (!r.session)
            throw ToolError(raw + ": " + r.error);
        const std::string id = "s" + std::to_string(sessions.size() + 1);
        Open& o = sessions[id];
        o.path = path;
        o.session = r.session;
        o.engine = std::make_unique<QueryEngine>(r.session);
        idOfPath[path] = id;
        return o;
    }

    Open& target(const json& args, const char* key = "session") {
        const std::string s = stringArg(args, key);
        if (const auto it = sessions.find(s); it != sessions.end())
            return it->second;
        return open(s);
    }

    // The text bounded: cut at a line end under the limit, with the cut said.
    std::string bounded(std::string text) const {
        if (text.size() <= options.maxResultBytes)
            return text;
        const size_t total = text.size();
        size_t cut = text.rfind('\n', options.maxResultBytes);
        if (cut == std::string::npos || cut < options.maxResultBytes / 2)
            cut = options.maxResultBytes;
        text.resize(cut);
        text += "\n[truncated: the first " + std::to_string(cut) + " of " + std::to_string(total) +
                " bytes; ask for less (a query with LIMIT or fewer columns, a smaller top)]";
        return text;
    }

    // A query's rows as JSON, as many as fit the bound.
    std::string queryJson(Open& o, const std::string& sql, size_t maxRows) {
        QueryOptions q;
        q.maxRows = maxRows;
        const QueryResult r = o.engine->run(sql, q);
        if (!r.ok())
            throw ToolError(r.cancelled ? "query cancelled" : "SQLite: " + r.error);
        json out{{"columns", r.columns}, {"rows", json::array()}};
        size_t bytes = 0, kept = 0;
        bool cut = r.truncated;
        for (const auto& row : r.rows) {
            json values = json::array();
            for (const QueryValue& v : row)
                values.push_back(valueJson(v));
            const size_t size = dumped(values).size() + 1;
            if (bytes + size > options.maxResultBytes * 9 / 10) {
                cut = true;
                break;
            }
            bytes += size;
            out["rows"].push_back(std::move(values));
            ++kept;
        }
        out["row_count"] = kept;
        out["truncated"] = cut;
        if (cut)
            out["note"] = "more rows than shown (max_rows or the size bound): add LIMIT, WHERE or aggregate";
        return dumped(out);
    }

    std::string call(const std::string& name, const json& args) {
        if (name == "files")
            return files(args);
        if (name == "open") {
            Open& o = open(stringArg(args, "path"));
            const std::string id = idOfPath.at(o.path);
            const TraceSummary s = summarizeSession(*o.session);
            json out{{"session", id}, {"path", o.path}, {"format", formatName(o.session->sourceFormat())}};
            out["summary"] = json::parse(summaryToJson(s));
            return dumped(out, 1);
        }
        if (name == "summary") {
            Open& o = target(args);
            return summaryToJson(summarizeSession(*o.session));
        }
        if (name == "overview") {
            Open& o = target(args);
            return overviewDocumentJson(*o.session, buildOverviewDocument(*o.session));
        }
        if (name == "query") {
            Open& o = target(args);
            return queryJson(o, stringArg(args, "sql"), size_t(intArg(args, "max_rows", 200, 1, 10000)));
        }
        if (name == "kernels") {
            Open& o = target(args);
            const int64_t top = intArg(args, "top", 20, 1, 1000);
            return queryJson(o, "SELECT * FROM kernel_summary LIMIT " + std::to_string(top), size_t(top));
        }
        if (name == "gaps") {
            Open& o = target(args);
            const int64_t top = intArg(args, "top", 10, 1, 1000);
            json out;
            out["by_cause"] = json::parse(queryJson(
                o, "SELECT category, COUNT(*) AS gaps, SUM(dur) AS idle_ns, "
                   "ROUND(100.0 * SUM(dur) / (SELECT SUM(dur) FROM steps), 2) AS pct_of_step_time "
                   "FROM gaps GROUP BY category ORDER BY idle_ns DESC", 100));
            out["longest"] = json::parse(queryJson(
                o, "SELECT step, device, ts, dur, category, cause FROM gaps ORDER BY dur DESC LIMIT " + std::to_string(top),
                size_t(top)));
            return dumped(out, 1);
        }
        if (name == "diff") {
            Open& a = target(args, "a");
            Open& b = target(args, "b");
            return sessionDiffJson(computeSessionDiff(*a.session, *b.session));
        }
        if (name == "flame") {
            Open& o = target(args);
            FlameOptions f;
            if (args.contains("weight")) {
                const auto w = flameWeightFromName(stringArg(args, "weight"));
                if (!w)
                    throw ToolError("weight is gpu, cpu or alloc");
                f.weight = *w;
            }
            const int64_t top = intArg(args, "top", 40, 1, 10000);
            if (args.contains("all_frames") && !args["all_frames"].is_boolean())
                throw ToolError("all_frames must be true or false");
            if (!args.value("all_frames", false))
                f.fold = FrameFolding::defaults();
            // Folded lines, heaviest first ("a;b;c 123").
            std::istringstream folded(FlameGraph::build(*o.session, f).folded());
            std::vector<std::pair<int64_t, std::string>> lines;
            for (std::string line; std::getline(folded, line);) {
                const size_t space = line.rfind(' ');
                if (space != std::string::npos)
                    lines.emplace_back(std::atoll(line.c_str() + space + 1), std::move(line));
            }
            std::stable_sort(lines.begin(), lines.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
            std::string out = std::string("weight: ") + flameWeightName(f.weight) + " (" + flameWeightUnit(f.weight) + "), " +
                              std::to_string(lines.size()) + " stacks\n";
            for (size_t i = 0; i < lines.size() && i < size_t(top); ++i)
                out += lines[i].second + "\n";
            if (lines.size() > size_t(top))
                out += "[" + std::to_string(lines.size() - size_t(top)) + " lighter stacks not shown; raise top]\n";
            return out;
        }
        throw std::invalid_argument("unknown tool: " + name);
    }

    std::string files(const json& args) {
        std::vector<std::string> dirs;
        if (args.contains("directory"))
            dirs.push_back(allowedPath(stringArg(args, "directory")));
        else
            dirs = options.roots;
        const std::string contains = args.contains("contains") ? stringArg(args, "contains") : std::string();
        static const char* const kSuffixes[] = {".json", ".json.gz", ".json.zst", ".wscap", ".wscap.gz", ".warpscope",
                                                ".sqlite", ".nsys-rep", ".xplane.pb", ".pickle", ".pickle.gz", ".raw.gz"};
        json list = json::array();
        size_t more = 0;
        for (const std::string& d : dirs) {
            std::error_code ec;
            for (auto it = fs::recursive_directory_iterator(d, fs::directory_options::skip_permission_denied, ec);
                 it != fs::recursive_directory_iterator(); it.increment(ec)) {
                if (ec || !it->is_regular_file(ec))
                    continue;
                const std::string name = it->path().filename().string();
                const bool trace = std::any_of(std::begin(kSuffixes), std::end(kSuffixes), [&](const char* s) {
                    const std::string_view sv(s);
                    return name.size() > sv.size() && name.compare(name.size() - sv.size(), sv.size(), sv) == 0;
                });
                if (!trace || (!contains.empty() && name.find(contains) == std::string::npos))
                    continue;
                if (list.size() >= 500) {
                    ++more;
                    continue;
                }
                list.push_back({{"path", it->path().string()}, {"bytes", it->file_size(ec)}});
            }
        }
        json out{{"files", list}};
        if (more)
            out["not_listed"] = more;
        return dumped(out, 1);
    }
};

McpServer::McpServer(McpOptions options) : m_state(std::make_unique<State>()) { m_state->options = std::move(options); }
McpServer::~McpServer() = default;

int McpServer::serve(std::istream& in, std::ostream& out) {
    auto send = [&](const json& message) { out << dumped(message) << '\n' << std::flush; };
    auto error = [&](const json& id, int code, const std::string& message) {
        send({{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}});
    };
    for (std::string line; std::getline(in, line);) {
        if (line.find_first_not_of(" \t\r") == std::string::npos)
            continue;
        json request;
        try {
            request = json::parse(line);
        } catch (const json::exception&) {
            error(nullptr, -32700, "parse error");
            continue;
        }
        if (!request.is_object() || !request.contains("method")) {
            if (request.is_object() && request.contains("id") && request.contains("result"))
                continue; // a response to a request of ours: we send none
            error(request.is_object() && request.contains("id") ? request["id"] : json(nullptr), -32600, "invalid request");
            continue;
        }
        const std::string method = request["method"].is_string() ? request["method"].get<std::string>() : "";
        const bool notification = !request.contains("id");
        const json id = notification ? json(nullptr) : request["id"];
        const json params = request.contains("params") && request["params"].is_object() ? request["params"] : json::object();
        if (notification)
            continue; // notifications/initialized, notifications/cancelled: nothing to answer
        if (method == "initialize") {
            std::string version = kProtocolVersions[0];
            if (params.contains("protocolVersion") && params["protocolVersion"].is_string())
                for (const char* v : kProtocolVersions)
                    if (params["protocolVersion"] == v)
                        version = v;
            send({{"jsonrpc", "2.0"},
                  {"id", id},
                  {"result",
                   {{"protocolVersion", version},
                    {"capabilities", {{"tools", {{"listChanged", false}}}}},
                    {"serverInfo", {{"name", "warpscope"}, {"version", WARPSCOPE_VERSION}}},
                    {"instructions",
                     "Warpscope answers questions about GPU and deep-learning profiles. Start with `files` and `open`, then "
                     "`overview` or `summary`; `query` takes SQL over the session's tables. Results are bounded in size."}}}});
        } else if (method == "ping") {
            send({{"jsonrpc", "2.0"}, {"id", id}, {"result", json::object()}});
        } else if (method == "tools/list") {
            send({{"jsonrpc", "2.0"}, {"id", id}, {"result", {{"tools", toolList()}}}});
        } else if (method == "tools/call") {
            const std::string name = params.contains("name") && params["name"].is_string() ? params["name"].get<std::string>() : "";
            const json args = params.contains("arguments") && params["arguments"].is_object() ? params["arguments"] : json::object();
            try {
                const std::string text = m_state->bounded(m_state->call(name, args));
                send({{"jsonrpc", "2.0"},
                      {"id", id},
                      {"result", {{"content", json::array({{{"type", "text"}, {"text", text}}})}, {"isError", false}}}});
            } catch (const ToolError& e) {
                send({{"jsonrpc", "2.0"},
                      {"id", id},
                      {"result", {{"content", json::array({{{"type", "text"}, {"text", e.what()}}})}, {"isError", true}}}});
            } catch (const std::invalid_argument& e) {
                error(id, -32602, e.what());
            } catch (const std::exception& e) {
                error(id, -32603, std::string("internal error: ") + e.what());
            }
        } else {
            error(id, -32601, "method not found: " + method);
        }
    }
    return 0;
}

} // namespace ws::cli
