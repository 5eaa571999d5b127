#include "analysis/distributed.h"
#include "analysis/distributed_json.h"
#include "analysis/overview.h"
#include "analysis/session_analyses.h"
#include "analysis/session_diff.h"
#include "analysis/session_diff_text.h"
#include "analysis/session_results.h"
#include "import/trace_import.h"
#include "model/session.h"
#include "library/job_loading.h"
#include "store/session_store.h"
#include "io/sqlite_database.h"
#include "store/stored_results.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <filesystem>

using namespace ws;
using test::dataPath;

/*
 * The analyses' results a session file carries (session_results.h, stored_results.h): they must be
 * what computing them on the reopened model gives, be used where they answer the question, and be
 * ignored where they cannot (a file stored without them, another version, another model).
 */

namespace {

const char kH100[] = "h100_gaunernst_bert-small-uncased__1016001.json.gz";
const char kMi300[] = "mi300_gaunernst_bert-small-uncased__1016001.json.gz";

std::string storeTrace(const std::string& trace, const std::string& name, bool cacheResults = true) {
    const ImportResult imported = importTraceFile(dataPath(trace));
    EXPECT_NE(imported.session, nullptr) << imported.error;
    const std::string file = (test::tempDir() / name).string();
    SessionWriteOptions options;
    options.cacheResults = cacheResults;
    std::string error;
    EXPECT_TRUE(SessionStore::write(*imported.session, file, options, &error)) << error;
    return file;
}

std::shared_ptr<const Session> reopen(const std::string& file) {
    std::string error;
    auto s = SessionStore::read(file, &error);
    EXPECT_NE(s, nullptr) << error;
    return s;
}

std::string diffJson(const Session& a, const Session& b, OperatorGrouping grouping) {
    SessionDiffOptions options;
    options.operatorGrouping = grouping;
    return sessionDiffJson(computeSessionDiff(a, b, options));
}

} // namespace

TEST(SessionResults, StoredResultsEqualThoseComputedOnTheReopenedModel) {
    const auto session = reopen(storeTrace(kH100, "h100.warpscope"));
    SessionAnalyses analyses(session);
    const std::shared_ptr<const SessionResults> stored = analyses.storedResults();
    ASSERT_NE(stored, nullptr);
    SessionResults fresh = computeSessionResults(*session);
    // The distributed block names where it was computed (the trace then, the session file now;
    // a job fills in its own file): the same apart from that.
    auto storedBlock = rankDistributedFromJson(stored->distributed, nullptr), freshBlock = rankDistributedFromJson(fresh.distributed, nullptr);
    ASSERT_TRUE(storedBlock && freshBlock);
    EXPECT_NE(storedBlock->path, freshBlock->path);
    storedBlock->path = freshBlock->path;
    storedBlock->worker = freshBlock->worker;
    EXPECT_EQ(rankDistributedToJson(*storedBlock), rankDistributedToJson(*freshBlock));
    fresh.distributed = stored->distributed;
    // Byte for byte: every field of every cached analysis.
    EXPECT_EQ(encodeSessionResults(*stored), encodeSessionResults(fresh));
    // And readable pieces of it, so that a failure says what differs.
    EXPECT_EQ(overviewToJson(*session, stored->run.overview), overviewToJson(*session, computeOverview(*session)));
    ASSERT_FALSE(stored->run.operators[0].rows.empty());
    EXPECT_TRUE(stored->run.argsRead);
    EXPECT_FALSE(stored->kernelGroups.empty());
}

// The app stores a session while its views compute: the store's results come through the views'
// analyses (SessionWriteOptions::analyses), so what either computed first the other takes, and the
// results are those computed on their own.
TEST(SessionResults, AStoreThroughTheViewsAnalysesSharesTheirWorkAndStoresTheSameResults) {
    const ImportResult imported = importTraceFile(dataPath(kH100));
    ASSERT_NE(imported.session, nullptr) << imported.error;
    auto analyses = std::make_shared<SessionAnalyses>(imported.session);
    const std::shared_ptr<const OverviewData> shown = analyses->overviewData(); // the Overview tab first
    ASSERT_EQ(analyses->operatorTreeIfReady(true), nullptr);
    const std::string alone = (test::tempDir() / "alone.warpscope").string();
    const std::string shared = (test::tempDir() / "shared.warpscope").string();
    std::string error;
    ASSERT_TRUE(SessionStore::write(*imported.session, alone, {}, &error)) << error;
    EXPECT_EQ(analyses->operatorTreeIfReady(true), nullptr) << "a store without them left the views' analyses alone";
    SessionWriteOptions options;
    options.analyses = analyses;
    ASSERT_TRUE(SessionStore::write(*imported.session, shared, options, &error)) << error;
    // The tree the results needed is the Operators tab's now, and the Overview's data was taken, not made again.
    EXPECT_NE(analyses->operatorTreeIfReady(true), nullptr) << "the store computed the operator tree for itself only";
    EXPECT_EQ(analyses->overviewDataIfReady(), shown);
    // The same results either way.
    const auto a = reopen(alone), b = reopen(shared);
    ASSERT_TRUE(a && b);
    EXPECT_EQ(a->storedResults(), b->storedResults());
    EXPECT_FALSE(b->storedResults().empty());
}

TEST(SessionResults, ComparingStoredSessionsGivesWhatComparingTheTracesGives) {
    const ImportResult h100 = importTraceFile(dataPath(kH100)), mi300 = importTraceFile(dataPath(kMi300));
    ASSERT_NE(h100.session, nullptr);
    ASSERT_NE(mi300.session, nullptr);
    const auto a = reopen(storeTrace(kH100, "a.warpscope")), b = reopen(storeTrace(kMi300, "b.warpscope"));
    for (OperatorGrouping g : {OperatorGrouping::Name, OperatorGrouping::NameAndInputShape, OperatorGrouping::NameAndCallStack}) {
        const std::string expected = diffJson(*h100.session, *mi300.session, g);
        EXPECT_EQ(diffJson(*a, *b, g), expected) << static_cast<int>(g);
        // From the files' results alone, the models unread.
        const auto ra = readStoredResultsOnly(a->sourcePath()), rb = readStoredResultsOnly(b->sourcePath());
        ASSERT_TRUE(ra && rb);
        SessionDiffOptions options;
        options.operatorGrouping = g;
        const auto da = storedDigestFor(*ra, options, 0), db = storedDigestFor(*rb, options, 1);
        ASSERT_TRUE(da && db);
        EXPECT_EQ(sessionDiffJson(diffRunDigests(*da, *db, options)), expected) << static_cast<int>(g);
    }
}

TEST(SessionResults, AFileWithoutResultsOpensAndIsAnalysedAsBefore) {
    // A file stored without the results table, as every file before them was.
    const std::string file = storeTrace(kH100, "old.warpscope", false);
    {
        SqliteDatabase db;
        ASSERT_TRUE(db.open(file, SqliteDatabase::Mode::ReadOnly));
        EXPECT_FALSE(db.tableExists("results"));
    }
    const auto old = reopen(file);
    EXPECT_TRUE(old->storedResults().empty());
    SessionAnalyses analyses(old);
    EXPECT_EQ(analyses.storedResults(), nullptr);
    EXPECT_FALSE(readStoredResultsOnly(file).has_value());
    const auto cached = reopen(storeTrace(kH100, "new.warpscope"));
    EXPECT_EQ(diffJson(*old, *old, OperatorGrouping::NameAndInputShape), diffJson(*cached, *cached, OperatorGrouping::NameAndInputShape));
    // Storing the old session again adds its results.
    const std::string again = (test::tempDir() / "again.warpscope").string();
    std::string error;
    ASSERT_TRUE(SessionStore::write(*old, again, {}, &error)) << error;
    EXPECT_NE(SessionAnalyses(reopen(again)).storedResults(), nullptr);
}

TEST(SessionResults, ResultsOfAnotherVersionModelOrDamagedAreIgnored) {
    const auto session = reopen(storeTrace(kH100, "v.warpscope"));
    const std::string& blob = session->storedResults();
    ASSERT_TRUE(decodeSessionResults(blob, *session).has_value());
    std::string otherVersion = blob;
    otherVersion[4] = static_cast<char>(otherVersion[4] + 1); // the version follows the 4-byte magic
    EXPECT_FALSE(decodeSessionResults(otherVersion, *session).has_value());
    EXPECT_FALSE(decodeSessionResults(blob.substr(0, blob.size() / 2), *session).has_value());
    EXPECT_FALSE(decodeSessionResults(blob + "x", *session).has_value());
    const auto other = reopen(storeTrace(kMi300, "w.warpscope"));
    EXPECT_FALSE(decodeSessionResults(blob, *other).has_value()) << "results of another model";
}

TEST(SessionResults, AJobReopensFromTheRanksStoredBlocksAndReadsTheModelsAfter) {
    const std::vector<std::string> files = {dataPath("nccl_job/traces/nccl_job_rank0.pt.trace.json.gz"),
                                            dataPath("nccl_job/traces/nccl_job_rank1.pt.trace.json.gz")};
    JobLoadOptions options;
    options.libraryDir = (test::tempDir() / "joblib").string();
    std::vector<JobRankLoad> first = loadJobRanks(files, options);
    storeJobRanks(first, options);
    options.deferSessions = true;
    std::vector<JobRankLoad> again = loadJobRanks(files, options);
    ASSERT_EQ(again.size(), first.size());
    for (size_t i = 0; i < again.size(); ++i) {
        ASSERT_NE(first[i].session, nullptr);
        EXPECT_TRUE(again[i].fromLibrary) << i;
        EXPECT_TRUE(again[i].blockCached) << i;
        EXPECT_EQ(again[i].session, nullptr) << "models wait for openJobRankSessions";
        EXPECT_EQ(rankDistributedToJson(again[i].block), rankDistributedToJson(first[i].block)) << i;
    }
    openJobRankSessions(again, options);
    for (size_t i = 0; i < again.size(); ++i) {
        ASSERT_NE(again[i].session, nullptr) << again[i].error;
        EXPECT_EQ(again[i].session->sliceCount(), first[i].session->sliceCount());
    }
}

TEST(SessionResults, ACallStackArgumentIsSeenOnlyWhereTheComparisonReadsArguments) {
    // Stored results read every operator argument; compared by name, a run's "Call stack" argument
    // is not read, so the stored side must not claim call stacks that computing would not see.
    const std::string trace = test::writeTemp(
        "stacks.json", R"({"traceEvents":[
        {"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":0,"dur":10,"args":{"Call stack":"a.py(1): f;b.py(2): g"}},
        {"ph":"X","cat":"cpu_op","name":"aten::add","pid":1,"tid":1,"ts":20,"dur":5,"args":{"Call stack":"a.py(3): h"}}]})");
    const ImportResult imported = importTraceFile(trace);
    ASSERT_NE(imported.session, nullptr) << imported.error;
    const std::string file = (test::tempDir() / "stacks.warpscope").string();
    std::string error;
    ASSERT_TRUE(SessionStore::write(*imported.session, file, {}, &error)) << error;
    const auto stored = reopen(file);
    ASSERT_NE(SessionAnalyses(stored).storedResults(), nullptr);
    for (OperatorGrouping g : {OperatorGrouping::Name, OperatorGrouping::NameAndCallStack})
        EXPECT_EQ(diffJson(*stored, *stored, g), diffJson(*imported.session, *imported.session, g)) << static_cast<int>(g);
}
