#include "analysis/call_stack.h"
#include "analysis/idle_gaps.h"
#include "analysis/kernel_groups.h"
#include "analysis/kernel_table.h"
#include "analysis/operator_table.h"
#include "analysis/operator_tree.h"
#include "analysis/step_ranges.h"
#include "library/library_query.h"
#include "library/open_trace.h"
#include "model/session.h"
#include "query/query_engine.h"
#include "query/query_output.h"
#include "query/query_schema.h"
#include "store/session_store.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <thread>

namespace ws {
namespace {

std::shared_ptr<const Session> bert() {
    static std::shared_ptr<const Session> s =
        openTraceFile(test::dataPath("h100_gaunernst_bert-small-uncased__1016001.json.gz")).session;
    return s;
}

int64_t scalar(QueryEngine& e, const std::string& sql) {
    const QueryResult r = e.run(sql);
    EXPECT_TRUE(r.ok()) << sql << ": " << r.error;
    if (!r.ok() || r.rows.empty() || r.rows[0].empty())
        return -1;
    return r.rows[0][0].integer;
}

TEST(Query, KernelsTableIsTheKernelTable) {
    ASSERT_TRUE(bert());
    QueryEngine e(bert());
    const KernelTable table = KernelTable::build(*bert());
    ASSERT_GT(table.size(), 50u);
    const QueryResult r = e.run("SELECT * FROM kernels");
    ASSERT_TRUE(r.ok()) << r.error;
    ASSERT_EQ(r.rows.size(), table.size());
    // Every CSV column's text as the CLI prints it, in the same order of rows.
    std::map<std::string, size_t> at;
    for (size_t c = 0; c < r.columns.size(); ++c)
        at[r.columns[c]] = c;
    for (size_t c = 0; c < kKernelColumnCount; ++c) {
        const auto column = static_cast<KernelColumn>(c);
        ASSERT_TRUE(at.count(kernelColumnName(column))) << kernelColumnName(column);
        const size_t q = at[kernelColumnName(column)];
        for (size_t i = 0; i < table.size(); ++i) {
            const std::string want = table.text(*bert(), i, column);
            const QueryValue& got = r.rows[i][q];
            if (got.type == QueryValue::Type::Real)
                EXPECT_NEAR(got.real, std::stod(want), 1e-9) << kernelColumnName(column) << " row " << i;
            else
                EXPECT_EQ(got.toText(), want) << kernelColumnName(column) << " row " << i;
        }
    }
}

TEST(Query, KernelSummaryMatchesTheGroups) {
    QueryEngine e(bert());
    const KernelTable table = KernelTable::build(*bert());
    const std::vector<KernelGroup> groups = groupKernels(table, KernelGrouping::Name);
    const QueryResult r = e.run("SELECT kernel, calls, total_ns, min_ns, max_ns, pct_gpu_time FROM kernel_summary");
    ASSERT_TRUE(r.ok()) << r.error;
    ASSERT_EQ(r.rows.size(), groups.size());
    std::map<std::string, const KernelGroup*> byName;
    for (const KernelGroup& g : groups)
        byName[std::string(bert()->str(g.name))] = &g;
    for (const auto& row : r.rows) {
        const KernelGroup* g = byName[row[0].text];
        ASSERT_TRUE(g) << row[0].text;
        EXPECT_EQ(row[1].integer, int64_t(g->calls));
        EXPECT_EQ(row[2].integer, g->totalNs);
        EXPECT_EQ(row[3].integer, g->minNs);
        EXPECT_EQ(row[4].integer, g->maxNs);
        EXPECT_NEAR(row[5].real, g->percentOfGpu, 1e-9);
    }
}

TEST(Query, OperatorSummaryMatchesTheOperatorTable) {
    QueryEngine e(bert());
    const OperatorTree tree = OperatorTree::build(*bert());
    const OperatorTable table = OperatorTable::build(*bert(), tree, OperatorGrouping::Name);
    const QueryResult r = e.run("SELECT name, calls, host_total_ns, host_self_ns, device_total_ns, device_self_ns FROM operator_summary");
    ASSERT_TRUE(r.ok()) << r.error;
    ASSERT_EQ(r.rows.size(), table.size());
    std::map<std::string, const OperatorRow*> byName;
    for (const OperatorRow& o : table.rows())
        byName[std::string(bert()->str(o.name))] = &o;
    for (const auto& row : r.rows) {
        const OperatorRow* o = byName[row[0].text];
        ASSERT_TRUE(o) << row[0].text;
        EXPECT_EQ(row[1].integer, int64_t(o->calls)) << row[0].text;
        EXPECT_EQ(row[2].integer, o->hostTotalNs) << row[0].text;
        EXPECT_EQ(row[3].integer, o->hostSelfNs) << row[0].text;
        EXPECT_EQ(row[4].integer, o->deviceTotalNs) << row[0].text;
        EXPECT_EQ(row[5].integer, o->deviceSelfNs) << row[0].text;
    }
}

TEST(Query, KernelsJoinTheirOperatorsById) {
    QueryEngine e(bert());
    const int64_t withOp = scalar(e, "SELECT COUNT(*) FROM kernels WHERE op_id IS NOT NULL");
    ASSERT_GT(withOp, 50);
    EXPECT_EQ(scalar(e, "SELECT COUNT(*) FROM kernels k JOIN operators o ON k.op_id = o.id"), withOp);
    // The kernel table's `operator` is the innermost cpu_op; the joined row is that slice.
    EXPECT_EQ(scalar(e, "SELECT COUNT(*) FROM kernels k JOIN slices s ON k.op_id = s.id WHERE s.name != k.operator"), 0);
    EXPECT_EQ(scalar(e, "SELECT COUNT(*) FROM kernels k JOIN slices s ON k.id = s.id WHERE s.kind != 'kernel' OR s.dur != k.duration_ns"), 0);
    // The launch is the flow's start.
    EXPECT_EQ(scalar(e, "SELECT COUNT(*) FROM kernels k JOIN slices l ON k.launch_id = l.id WHERE l.kind NOT IN ('runtime', 'driver')"), 0);
}

// A capture with --py-stacks: every kernel's launch_stack is the Python part of the Stack tab's
// frames for it (callStackFor), innermost first.
TEST(Query, LaunchStacksAreTheStackTabsPythonFrames) {
    const auto s = openTraceFile(test::dataPath("captures/zoo/gpt.wscap.gz")).session;
    ASSERT_TRUE(s);
    QueryEngine e(s);
    const QueryResult r = e.run("SELECT id, launch_stack FROM kernels");
    ASSERT_TRUE(r.ok()) << r.error;
    size_t withStack = 0, checked = 0;
    for (const auto& row : r.rows) {
        const std::optional<SliceOfId> k = sliceOfId(*s, row[0].integer);
        ASSERT_TRUE(k);
        std::string want;
        for (const StackFrame& f : callStackFor(*s, k->track, k->slice).frames)
            if (f.kind == StackFrameKind::Python) {
                if (!want.empty())
                    want += ';';
                want += f.file + "(" + std::to_string(f.line) + "): " + f.function;
            }
        if (row[1].type == QueryValue::Type::Null) {
            EXPECT_TRUE(want.empty()) << "kernel " << row[0].integer;
            continue;
        }
        ++withStack;
        if (checked++ < 200) {
            EXPECT_EQ(row[1].text, want) << "kernel " << row[0].integer;
        }
    }
    EXPECT_GT(withStack, r.rows.size() / 3);
}

TEST(Query, StepsAndGapsAreTheAnalyses) {
    QueryEngine e(bert());
    EXPECT_EQ(scalar(e, "SELECT COUNT(*) FROM steps"), int64_t(computeStepRanges(*bert()).steps.size()));
    const IdleGapReport gaps = computeIdleGaps(*bert());
    EXPECT_EQ(scalar(e, "SELECT COUNT(*) FROM gaps"), int64_t(gaps.gaps.size()));
    if (!gaps.gaps.empty()) {
        EXPECT_EQ(scalar(e, "SELECT SUM(dur) FROM gaps"), gaps.gapNs);
    }
    // Every kernel in a step has that step's range around its start.
    EXPECT_EQ(scalar(e, "SELECT COUNT(*) FROM kernels k JOIN steps s ON k.step = s.step WHERE k.start_ns < s.ts OR k.start_ns >= s.end"), 0);
}

TEST(Query, SliceLookupsAndArgs) {
    QueryEngine e(bert());
    const Session& s = *bert();
    // The id of slice 3 of the first track with four slices.
    size_t base = 0, track = 0;
    while (s.tracks()[track].sliceCount() < 4)
        base += s.tracks()[track++].sliceCount();
    const QueryResult r = e.run("SELECT name, ts, dur, track_id FROM slices WHERE id = " + std::to_string(base + 3));
    ASSERT_TRUE(r.ok()) << r.error;
    ASSERT_EQ(r.rows.size(), 1u);
    EXPECT_EQ(r.rows[0][0].text, s.str(s.tracks()[track].names[3]));
    EXPECT_EQ(r.rows[0][1].integer, s.tracks()[track].start[3]);
    EXPECT_EQ(r.rows[0][3].integer, int64_t(track));
    EXPECT_EQ(scalar(e, "SELECT COUNT(*) FROM slices"), int64_t(s.sliceCount()));

    const QueryResult args = e.run("SELECT key, value FROM args WHERE slice_id = (SELECT id FROM kernels ORDER BY start_ns LIMIT 1)");
    ASSERT_TRUE(args.ok()) << args.error;
    bool grid = false;
    for (const auto& row : args.rows)
        grid = grid || row[0].text == "grid";
    EXPECT_TRUE(grid);
    const QueryResult viaFunction = e.run("SELECT arg(id, 'grid') FROM kernels ORDER BY start_ns LIMIT 1");
    ASSERT_TRUE(viaFunction.ok()) << viaFunction.error;
    EXPECT_EQ(viaFunction.rows[0][0].text.front(), '[');
    // Without the key there are no rows to scan.
    EXPECT_FALSE(e.run("SELECT * FROM args").ok());
}

TEST(Query, ReadOnlyAndErrorsAreSQLites) {
    QueryEngine e(bert());
    for (const char* write : {"CREATE TABLE t(x)", "INSERT INTO kernels(kernel) VALUES('x')", "DROP VIEW kernel_summary",
                              "ATTACH DATABASE '/tmp/x.db' AS x", "PRAGMA writable_schema = 1", "CREATE TEMP VIEW v AS SELECT 1",
                              "BEGIN", "SELECT 1; DELETE FROM slices"}) {
        const QueryResult r = e.run(write);
        EXPECT_FALSE(r.error.empty()) << write;
    }
    EXPECT_NE(e.run("SELEC 1").error.find("syntax error"), std::string::npos);
    EXPECT_NE(e.run("SELECT no_such_column FROM kernels").error.find("no such column"), std::string::npos);
    EXPECT_NE(e.run("SELECT * FROM no_such_table").error.find("no such table"), std::string::npos);
    // The engine still works after errors, and PRAGMA table_info answers schema questions.
    EXPECT_GT(scalar(e, "SELECT COUNT(*) FROM kernels"), 0);
    EXPECT_TRUE(e.run("PRAGMA table_info(kernels)").ok());
}

TEST(Query, CancelStopsALongStatement) {
    QueryEngine e(bert());
    std::thread stopper([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        e.cancel();
    });
    // Ten billion rows: hours unless cancelled.
    const QueryResult r = e.run("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 10000000000) "
                                "SELECT COUNT(*) FROM c JOIN steps ON steps.step = c.x % 2");
    stopper.join();
    EXPECT_TRUE(r.cancelled);
    EXPECT_GT(scalar(e, "SELECT COUNT(*) FROM steps"), 0); // and it runs the next one
}

TEST(Query, TablesReadSeesThroughViews) {
    QueryEngine e(std::make_shared<const Session>());
    std::string error;
    EXPECT_EQ(e.tablesRead("SELECT * FROM kernel_summary", &error), std::vector<std::string>{"kernels"});
    EXPECT_TRUE(error.empty());
    const auto both = e.tablesRead("SELECT * FROM kernels k JOIN operators o ON k.op_id = o.id", &error);
    EXPECT_EQ(both, (std::vector<std::string>{"kernels", "operators"}));
    e.tablesRead("SELECT FROM", &error);
    EXPECT_FALSE(error.empty());
}

TEST(Query, EmptySessionHasEveryTableEmpty) {
    QueryEngine e(std::make_shared<const Session>());
    for (const QuerySchemaTable& t : querySchema()) {
        if (t.name == "args")
            continue;
        const QueryResult r = e.run("SELECT * FROM " + t.name);
        EXPECT_TRUE(r.ok()) << t.name << ": " << r.error;
        EXPECT_TRUE(r.rows.empty()) << t.name;
        EXPECT_EQ(r.columns.size(), t.columns.size()) << t.name;
    }
}

// A library query reads only the parts of each session file its tables need; its answers are those
// of the whole session.
TEST(Query, LibraryQueryEqualsTheWholeSessions) {
    const auto dir = test::tempDir() / "query_library";
    std::filesystem::create_directories(dir);
    std::vector<std::shared_ptr<const Session>> sessions;
    for (const char* f : {"idle_gaps/sync_ops.wscap.gz", "memory_snapshots/train_trace.json.gz", "captures/zoo/gpt_pm.wscap.gz"}) {
        sessions.push_back(openTraceFile(test::dataPath(f)).session);
        ASSERT_TRUE(sessions.back()) << f;
        std::string error;
        ASSERT_TRUE(SessionStore::write(*sessions.back(), (dir / (std::string("s") + std::to_string(sessions.size()) + ".warpscope")).string(),
                                        {}, &error))
            << error;
    }
    const std::string sql = "SELECT (SELECT COUNT(*) FROM gaps), (SELECT SUM(dur) FROM gaps), (SELECT COUNT(*) FROM counters), "
                            "(SELECT SUM(value) FROM counters), (SELECT SUM(bytes) FROM memory_events), (SELECT COUNT(*) FROM kernels)";
    const LibraryQueryResult r = queryLibrary(dir.string(), sql);
    ASSERT_TRUE(r.error.empty()) << r.error;
    ASSERT_EQ(r.sessions.size(), sessions.size());
    auto text = [](const std::vector<QueryValue>& row) {
        std::string t;
        for (const QueryValue& v : row)
            t += v.toText() + "|";
        return t;
    };
    std::multiset<std::string> got, want;
    for (const LibrarySessionResult& s : r.sessions) {
        ASSERT_TRUE(s.result.ok()) << s.result.error;
        got.insert(text(s.result.rows.at(0)));
    }
    for (const auto& s : sessions)
        want.insert(text(QueryEngine(s).run(sql).rows.at(0)));
    EXPECT_EQ(got, want);
    // Kernels only: counters and memory events are left out of the read, and nothing else changes.
    const LibraryQueryResult k = queryLibrary(dir.string(), "SELECT COUNT(*), SUM(duration_ns) FROM kernels");
    EXPECT_EQ(k.tablesRead, std::vector<std::string>{"kernels"});
    EXPECT_EQ(queryLibrary(dir.string(), "SELEC").error.find("syntax error") != std::string::npos, true);
}

// docs/QUERY.md carries the schema as the engine defines it: a column added without its doc fails here.
TEST(Query, DocumentedSchemaIsTheEngines) {
    const std::string doc = test::readFile(std::string(WARPSCOPE_SOURCE_DIR) + "/docs/QUERY.md");
    ASSERT_FALSE(doc.empty());
    EXPECT_NE(doc.find(querySchemaMarkdown()), std::string::npos)
        << "regenerate the schema section: warpscope-cli query --schema --markdown";
}

TEST(QueryOutput, CsvReadsBackAndJsonTypesValues) {
    std::ostringstream csv;
    QueryResultWriter w(csv, QueryOutputFormat::Csv);
    w.columns({"a", "b,c"});
    w.row({QueryValue{QueryValue::Type::Text, 0, 0, "x,\"y\"\nz"}, QueryValue{QueryValue::Type::Real, 0, 0.5, {}}});
    w.row({QueryValue{}, QueryValue{QueryValue::Type::Integer, -7, 0, {}}});
    w.finish();
    std::istringstream in(csv.str());
    std::vector<std::string> f;
    ASSERT_TRUE(readCsvRecord(in, f));
    EXPECT_EQ(f, (std::vector<std::string>{"a", "b,c"}));
    ASSERT_TRUE(readCsvRecord(in, f));
    EXPECT_EQ(f, (std::vector<std::string>{"x,\"y\"\nz", "0.5"}));
    ASSERT_TRUE(readCsvRecord(in, f));
    EXPECT_EQ(queryValueFromText(f[1]).integer, -7);
    EXPECT_EQ(queryValueFromText(f[0]).type, QueryValue::Type::Null);
    EXPECT_FALSE(readCsvRecord(in, f));

    std::ostringstream json;
    QueryResultWriter j(json, QueryOutputFormat::Json);
    j.columns({"n", "t"});
    j.row({QueryValue{QueryValue::Type::Integer, 3, 0, {}}, QueryValue{}});
    j.finish(true);
    EXPECT_EQ(json.str(), "{\"columns\":[\"n\",\"t\"],\"rows\":[\n[3,null]\n],\"row_count\":1,\"truncated\":true}\n");
}

} // namespace
} // namespace ws
