#include "analysis/range_summary.h"
#include "analysis/slice_search.h"
#include "import/trace_import.h"
#include "model/session.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <map>

using namespace ws;

namespace {

// A small Chrome trace with known nesting: outer [0,100) us with children a [10,30) and b [40,90),
// b has a child c [50,60); a second thread has "a" [20,25).
std::shared_ptr<const Session> nestedSession() {
    return test::importText(R"({"traceEvents":[
        {"ph":"X","name":"outer","pid":1,"tid":1,"ts":0,"dur":100},
        {"ph":"X","name":"a","pid":1,"tid":1,"ts":10,"dur":20},
        {"ph":"X","name":"b","pid":1,"tid":1,"ts":40,"dur":50},
        {"ph":"X","name":"c","pid":1,"tid":1,"ts":50,"dur":10},
        {"ph":"X","name":"a","pid":1,"tid":2,"ts":20,"dur":5},
        {"ph":"X","name":"Kernel_ABC","pid":1,"tid":2,"ts":70,"dur":5}]})",
                            {}, "range.json")
        .session;
}

std::map<std::string, RangeSummaryRow> byName(const Session& s, const std::vector<RangeSummaryRow>& rows) {
    std::map<std::string, RangeSummaryRow> m;
    for (const auto& r : rows)
        m[std::string(s.str(r.name))] = r;
    return m;
}

} // namespace

TEST(RangeSummary, WholeRangeTotalsAndSelfTimes) {
    auto s = nestedSession();
    ASSERT_NE(s, nullptr);
    auto m = byName(*s, summarizeRange(*s, s->startNs(), s->startNs() + 1'000'000));
    EXPECT_EQ(m["outer"].count, 1u);
    EXPECT_EQ(m["outer"].totalNs, 100'000);
    EXPECT_EQ(m["outer"].selfNs, 100'000 - 20'000 - 50'000);
    EXPECT_EQ(m["b"].selfNs, 50'000 - 10'000);
    EXPECT_EQ(m["a"].count, 2u);
    EXPECT_EQ(m["a"].totalNs, 25'000);
    EXPECT_EQ(m["c"].selfNs, 10'000);
}

TEST(RangeSummary, TimesAreClippedToTheRange) {
    auto s = nestedSession();
    const int64_t t0 = s->startNs();
    auto m = byName(*s, summarizeRange(*s, t0 + 45'000, t0 + 55'000));
    EXPECT_EQ(m.count("a"), 0u);
    EXPECT_EQ(m["outer"].totalNs, 10'000);
    EXPECT_EQ(m["outer"].selfNs, 0);       // b covers all of it
    EXPECT_EQ(m["b"].totalNs, 10'000);
    EXPECT_EQ(m["b"].selfNs, 5'000);       // c covers [50, 55)
    EXPECT_EQ(m["c"].totalNs, 5'000);
}

TEST(SliceSearch, SubstringIsCaseInsensitiveAndSortedByTime) {
    auto s = nestedSession();
    auto r = searchSlices(*s, "A", false);
    ASSERT_TRUE(r.error.empty());
    // "a" twice and "Kernel_ABC"; not "outer"/"b"/"c".
    ASSERT_EQ(r.matches.size(), 3u);
    for (size_t i = 1; i < r.matches.size(); ++i)
        EXPECT_LE(r.matches[i - 1].start, r.matches[i].start);
    EXPECT_EQ(s->str(s->tracks()[r.matches.back().track].names[r.matches.back().slice]), "Kernel_ABC");
    EXPECT_TRUE(searchSlices(*s, "", false).matches.empty());
}

TEST(SliceSearch, RegexAndInvalidRegex) {
    auto s = nestedSession();
    EXPECT_EQ(searchSlices(*s, "^(b|c)$", true).matches.size(), 2u);
    auto bad = searchSlices(*s, "(unclosed", true);
    EXPECT_FALSE(bad.error.empty());
    EXPECT_TRUE(bad.matches.empty());
}
