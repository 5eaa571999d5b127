#include "store/session_store.h"
#include "test_util.h"

#include <map>

namespace ws {
namespace {

// forEachArgValues must give, for every event, what the per-event args() gives: same keys, same
// text (strings unquoted, other values compact JSON), whatever the source (plain, gzip, stored).
void expectBulkMatchesPerEvent(const Session& s, const std::vector<std::string>& keys) {
    std::vector<uint64_t> refs;
    std::vector<std::pair<uint32_t, uint32_t>> where;
    for (uint32_t t = 0; t < s.tracks().size(); ++t) {
        const Track& track = s.tracks()[t];
        for (uint32_t i = 0; i < track.sliceCount(); i += 3) { // every third slice keeps it quick
            refs.push_back(track.argRef[i]);
            where.emplace_back(t, i);
        }
    }
    // Reverse order: the bulk reader must sort by itself.
    std::reverse(refs.begin(), refs.end());
    std::reverse(where.begin(), where.end());
    size_t calls = 0, values = 0;
    std::vector<char> seen(refs.size());
    s.forEachArgValues(refs, keys, [&](size_t i, const std::vector<std::string_view>& v) {
        ASSERT_LT(i, refs.size());
        EXPECT_FALSE(seen[i]) << "called twice for " << i;
        seen[i] = 1;
        ++calls;
        const auto [t, slice] = where[i];
        std::map<std::string, std::string> expected;
        for (auto& [k, value] : s.args(s.tracks()[t], slice))
            expected[k] = value;
        for (size_t k = 0; k < keys.size(); ++k) {
            auto it = expected.find(keys[k]);
            EXPECT_EQ(std::string(v[k]), it == expected.end() ? std::string() : it->second)
                << keys[k] << " of track " << t << " slice " << slice;
            values += !v[k].empty();
        }
    });
    size_t withArgs = 0;
    for (uint64_t r : refs)
        withArgs += r != Track::kNoArgs;
    EXPECT_EQ(calls, withArgs);
    EXPECT_GT(values, 0u);
}

const std::vector<std::string> kKeys = {"grid", "block", "External id", "Input Dims", "Input type", "name", "device"};

TEST(SessionArgs, BulkMatchesPerEventOnGzipJson) {
    auto r = importTraceFile(test::dataPath("h100_gaunernst_bert-small-uncased__1016001.json.gz"));
    ASSERT_NE(r.session, nullptr);
    expectBulkMatchesPerEvent(*r.session, kKeys);
}

TEST(SessionArgs, BulkMatchesPerEventOnPlainJsonAndStoredSession) {
    auto r = importTraceFile(test::dataPath("gpu_metrics_input.json"));
    ASSERT_NE(r.session, nullptr);
    expectBulkMatchesPerEvent(*r.session, kKeys);
    const std::string file = (test::tempDir() / "args_bulk.wsession").string();
    std::string error;
    ASSERT_TRUE(SessionStore::write(*r.session, file, {}, &error)) << error;
    auto stored = SessionStore::read(file, &error);
    ASSERT_NE(stored, nullptr) << error;
    expectBulkMatchesPerEvent(*stored, kKeys);
}

TEST(SessionArgs, BulkOnSqliteSources) {
    auto r = importTraceFile(test::dataPath("captures/vector_add.wscap"));
    ASSERT_NE(r.session, nullptr);
    expectBulkMatchesPerEvent(*r.session, {"grid", "block", "registers per thread", "shared memory", "kind"});
}

} // namespace
} // namespace ws
