// warpscope-cli query: SQL over a session (core/query), over every session of a library, or the
// merge of per-trace outputs that a job array wrote.
#include "cli_args.h"
#include "commands.h"
#include "library/library_query.h"
#include "library/session_library.h"
#include "model/session.h"
#include "query/query_bench.h"
#include "query/query_engine.h"
#include "query/query_output.h"
#include "query/query_schema.h"
#include "remote/remote_url.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

namespace ws::cli {

namespace {

namespace fs = std::filesystem;

const char* const kUsage =
    "Usage: warpscope-cli query FILE|URL|SESSION \"SQL\" [--csv|--json] [--max-rows N] [--with-session] [--bench]\n"
    "       warpscope-cli query --library [DIR] \"SQL\" [--csv|--json] [--jobs N]\n"
    "       warpscope-cli query --merge DIR [--csv|--json]\n"
    "       warpscope-cli query --schema [--markdown]\n";

QueryOutputFormat formatOf(const CliArgs& args) {
    return args.flag("json") ? QueryOutputFormat::Json : args.flag("csv") ? QueryOutputFormat::Csv : QueryOutputFormat::Text;
}

int printSchema(bool markdown) {
    if (markdown) {
        std::cout << querySchemaMarkdown();
        return kExitOk;
    }
    for (const QuerySchemaTable& t : querySchema()) {
        std::printf("%s%s: %s\n", t.name.c_str(), t.view ? " (view)" : "", t.doc.c_str());
        for (const QuerySchemaColumn& c : t.columns)
            std::printf("    %-28s %-8s %s\n", c.name.c_str(), c.type.c_str(), c.doc.c_str());
    }
    return kExitOk;
}

// A stored session named on the command line: its file in the default library by display name
// or file name; empty when none is.
std::string librarySessionNamed(const std::string& name) {
    for (const SessionLibrary::Entry& e : SessionLibrary(defaultSessionLibraryDirectory()).list())
        if (e.name == name || fs::path(e.path).filename() == name || fs::path(e.path).stem() == name)
            return e.path;
    return {};
}

int reportQueryError(const QueryResult& r) {
    if (r.cancelled) {
        std::fprintf(stderr, "warpscope-cli: query cancelled\n");
        return kExitFailure;
    }
    std::fprintf(stderr, "warpscope-cli: query: %s\n", r.error.c_str());
    return kExitUsage; // the statement is the user's input: a syntax error is a usage error
}

int runOne(const CliArgs& args, const std::string& target, const std::string& sql) {
    std::string path = target;
    if (!isRemoteUrl(path) && !fs::exists(path)) {
        path = librarySessionNamed(target);
        if (path.empty()) {
            std::fprintf(stderr, "warpscope-cli: %s: no such file, and no stored session of that name in %s\n",
                         target.c_str(), defaultSessionLibraryDirectory().c_str());
            return kExitFailure;
        }
    }
    const auto t0 = std::chrono::steady_clock::now();
    ImportResult imported;
    if (!importForCli(path, imported))
        return kExitFailure;
    const double openS = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (args.flag("bench")) {
        std::printf("open_s: %.3f\n", openS);
        std::cout << queryBenchReport(imported.session, sql);
        return kExitOk;
    }
    QueryEngine engine(imported.session);
    QueryOptions options;
    if (const auto m = args.value("max-rows"))
        options.maxRows = std::stoull(*m);
    QueryResultWriter writer(std::cout, formatOf(args));
    const bool withSession = args.flag("with-session");
    const QueryValue session{QueryValue::Type::Text, 0, 0, fs::path(target).filename().string()};
    size_t rows = 0;
    bool truncated = false;
    std::vector<QueryValue> prefixed;
    const QueryResult r = engine.stream(
        sql,
        [&](const std::vector<std::string>& names) {
            std::vector<std::string> all;
            if (withSession)
                all.push_back("session");
            all.insert(all.end(), names.begin(), names.end());
            writer.columns(all);
        },
        [&](const std::vector<QueryValue>& row) {
            if (rows >= options.maxRows) {
                truncated = true;
                return false;
            }
            ++rows;
            if (!withSession) {
                writer.row(row);
                return true;
            }
            prefixed.assign(1, session);
            prefixed.insert(prefixed.end(), row.begin(), row.end());
            writer.row(prefixed);
            return true;
        },
        options);
    if (!r.ok()) {
        std::cout.flush();
        return reportQueryError(r);
    }
    writer.finish(truncated);
    return kExitOk;
}

int runLibrary(const CliArgs& args, const std::string& directory, const std::string& sql) {
    if (!fs::is_directory(directory)) {
        std::fprintf(stderr, "warpscope-cli: %s: not a session library directory\n", directory.c_str());
        return kExitFailure;
    }
    LibraryQueryOptions options;
    if (const auto j = args.value("jobs"))
        options.threads = unsigned(std::stoul(*j));
    const auto t0 = std::chrono::steady_clock::now();
    const LibraryQueryResult r = queryLibrary(directory, sql, options);
    if (!r.error.empty()) {
        std::fprintf(stderr, "warpscope-cli: query: %s\n", r.error.c_str());
        return kExitUsage;
    }
    QueryResultWriter writer(std::cout, formatOf(args));
    bool headed = false;
    size_t failed = 0;
    std::vector<QueryValue> row;
    for (const LibrarySessionResult& s : r.sessions) {
        if (!s.result.ok()) {
            ++failed;
            std::fprintf(stderr, "warpscope-cli: %s: %s\n", s.path.c_str(),
                         s.result.cancelled ? "cancelled" : s.result.error.c_str());
            continue;
        }
        if (!headed) {
            std::vector<std::string> names{"session"};
            names.insert(names.end(), s.result.columns.begin(), s.result.columns.end());
            writer.columns(names);
            headed = true;
        }
        for (const std::vector<QueryValue>& values : s.result.rows) {
            row.assign(1, QueryValue{QueryValue::Type::Text, 0, 0, s.name});
            row.insert(row.end(), values.begin(), values.end());
            writer.row(row);
        }
    }
    if (!headed)
        writer.columns({"session"});
    writer.finish();
    std::fprintf(stderr, "%zu session(s) queried in %.2f s%s\n", r.sessions.size() - failed,
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
                 failed ? (", " + std::to_string(failed) + " failed").c_str() : "");
    return failed && failed == r.sessions.size() ? kExitFailure : kExitOk;
}

// The CSV outputs of `query ... --csv` that a job array wrote (one file per trace, any order of
// completion) as one table, in the order of their file names' numbers (task indices) or names.
int runMerge(const CliArgs& args, const std::string& directory) {
    std::vector<fs::path> files;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(directory, ec))
        if (e.is_regular_file() && e.path().extension() == ".csv")
            files.push_back(e.path());
    if (ec) {
        std::fprintf(stderr, "warpscope-cli: %s: %s\n", directory.c_str(), ec.message().c_str());
        return kExitFailure;
    }
    auto key = [](const fs::path& p) {
        const std::string stem = p.stem().string();
        const bool numeric = !stem.empty() && std::all_of(stem.begin(), stem.end(), [](char c) { return c >= '0' && c <= '9'; });
        return std::make_pair(numeric ? std::stoll(stem) : INT64_MAX, stem);
    };
    std::sort(files.begin(), files.end(), [&](const fs::path& a, const fs::path& b) { return key(a) < key(b); });
    QueryResultWriter writer(std::cout, formatOf(args));
    std::vector<std::string> header, fields;
    std::vector<QueryValue> row;
    for (const fs::path& f : files) {
        std::ifstream in(f, std::ios::binary);
        std::vector<std::string> h;
        if (!readCsvRecord(in, h))
            continue; // an empty output: a trace whose query wrote nothing
        if (header.empty()) {
            header = h;
            writer.columns(header);
        } else if (h != header) {
            std::fprintf(stderr, "warpscope-cli: %s: its columns differ from the first file's; not merged\n", f.string().c_str());
            return kExitFailure;
        }
        while (readCsvRecord(in, fields)) {
            row.clear();
            for (const std::string& v : fields)
                row.push_back(queryValueFromText(v));
            row.resize(header.size());
            writer.row(row);
        }
    }
    if (header.empty()) {
        std::fprintf(stderr, "warpscope-cli: %s: no CSV output to merge\n", directory.c_str());
        return kExitFailure;
    }
    writer.finish();
    return kExitOk;
}

} // namespace

int runQuery(const std::vector<std::string>& argv) {
    CliArgs args(argv, {"max-rows", "jobs", "merge"});
    const std::vector<std::string> known = {"csv", "json", "max-rows", "jobs", "library", "merge", "schema", "markdown",
                                            "with-session", "bench"};
    if (args.flag("help") || args.flag("h")) {
        std::printf("%sSQL (SQLite's dialect) over a trace, capture or stored session, read-only. Tables: slices, kernels,\n"
                    "operators, memcpy, python_frames, counters, flows, memory_events, steps, gaps, tracks, processes,\n"
                    "threads, args; views kernel_summary, operator_summary and their _per_step forms (--schema lists\n"
                    "the columns; docs/QUERY.md explains them). Ids are slice ids: kernels.op_id = operators.id.\n"
                    "SESSION: a stored session's name in the app's library. --library [DIR] runs the statement over every\n"
                    "stored session (default: the app's library), in parallel, with a `session` column first.\n"
                    "--merge DIR concatenates the --csv outputs of a job array (scripts/warpscope-slurm-array.sh).\n"
                    "--with-session adds that column to one trace's output. A statement that does not compile or\n"
                    "writes exits with status 2 and SQLite's message. --bench times the statement (cold, warm) against\n"
                    "the same tables copied into SQLite.\n",
                    kUsage);
        return kExitOk;
    }
    if (!args.ok() || !args.unknown(known).empty()) {
        std::fprintf(stderr, "%s", kUsage);
        return kExitUsage;
    }
    const auto& pos = args.positional();
    try {
        if (args.flag("schema"))
            return pos.empty() ? printSchema(args.flag("markdown")) : (std::fprintf(stderr, "%s", kUsage), kExitUsage);
        if (const auto merge = args.value("merge"))
            return pos.empty() ? runMerge(args, *merge) : (std::fprintf(stderr, "%s", kUsage), kExitUsage);
        if (args.flag("library")) {
            if (pos.size() == 1)
                return runLibrary(args, defaultSessionLibraryDirectory(), pos[0]);
            if (pos.size() == 2)
                return runLibrary(args, pos[0], pos[1]);
        } else if (pos.size() == 2) {
            return runOne(args, pos[0], pos[1]);
        }
    } catch (const std::exception&) {
        // a number option that is not one (--max-rows x)
    }
    std::fprintf(stderr, "%s", kUsage);
    return kExitUsage;
}

} // namespace ws::cli
