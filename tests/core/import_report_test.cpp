#include "model/import_report.h"

#include <gtest/gtest.h>

using ws::ImportReport;

TEST(ImportReport, CountsPerKindAndKeepsFirstExamples) {
    ImportReport r;
    EXPECT_TRUE(r.empty());
    for (int i = 0; i < 10; ++i)
        r.add("unknown phase", "offset " + std::to_string(i));
    r.add("E without B");
    ASSERT_EQ(r.problems().size(), 2u);
    EXPECT_EQ(r.count("unknown phase"), 10u);
    EXPECT_EQ(r.count("E without B"), 1u);
    EXPECT_EQ(r.problems()[0].examples.size(), ImportReport::kMaxExamples);
    EXPECT_EQ(r.problems()[0].examples[0], "offset 0");
    EXPECT_FALSE(r.truncated());
}

TEST(ImportReport, MergeAddsCountsAndTruncation) {
    ImportReport a, b;
    a.add("x", "a1");
    b.add("x", "b1", 4);
    b.add("y");
    b.setTruncated("byte 100");
    a.merge(b);
    EXPECT_EQ(a.count("x"), 5u);
    EXPECT_EQ(a.count("y"), 1u);
    EXPECT_TRUE(a.truncated());
    EXPECT_EQ(a.problems()[0].examples, (std::vector<std::string>{"a1", "b1"}));
    EXPECT_NE(a.toText().find("input truncated: 1 (e.g. byte 100)"), std::string::npos);
}

TEST(ImportReport, NotesAreReportedButNotWarnings) {
    ImportReport r;
    r.addNote("flow ends without a matching start (dropped)", {}, 46);
    r.add("E without B (dropped)");
    EXPECT_EQ(r.warningCount(), 1u);
    EXPECT_TRUE(r.problems()[0].note);
    EXPECT_NE(r.toText().find("(note): 46"), std::string::npos);
    ImportReport merged;
    merged.merge(r);
    EXPECT_EQ(merged.warningCount(), 1u);
    EXPECT_TRUE(merged.problems()[0].note);
}
