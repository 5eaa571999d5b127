// PyTorch memory timeline import (issue #17): the real raw export in tests/data/memory_timeline
// (categories cross-checked by tests/core/reference_memory_timeline.py in
// cli.memory_timeline_matches_reference), the coalesced layout, and what is not a timeline.
#include "analysis/memory_categories.h"
#include "analysis/memory_curve.h"
#include "import/torch_memory_timeline_importer.h"
#include "test_util.h"

using namespace ws;
using namespace ws::test;

TEST(MemoryTimelineImport, RealRawExport) {
    const std::string path = dataPath("memory_timeline/pytorch_memory_timeline.raw.gz");
    EXPECT_EQ(detectFormat(path), TraceFormat::TorchMemoryTimeline);
    const ImportResult r = importTraceFile(path);
    ASSERT_TRUE(r.session) << r.error;
    const Session& s = *r.session;
    EXPECT_EQ(s.report().warningCount(), 0u) << s.report().toText();
    const MemoryCategories m = MemoryCategories::build(s);
    ASSERT_TRUE(m.present);
    ASSERT_EQ(m.categories.size(), 8u);
    EXPECT_EQ(m.peakTotalBytes, 3082832104); // reference_memory_timeline.py
    EXPECT_EQ(m.categories[4].name, "Activation");
    EXPECT_EQ(m.categories[4].atTotalPeakBytes, 2592465920);
    EXPECT_EQ(m.categories[0].finalBytes, 102440608);
    // The total is the Memory tab's curve, on GPU 0.
    const MemoryCurves curves = MemoryCurves::build(s);
    ASSERT_EQ(curves.devices().size(), 1u);
    EXPECT_EQ(curves.devices()[0].device.id, 0);
    EXPECT_EQ(*std::max_element(curves.devices()[0].allocated.begin(), curves.devices()[0].allocated.end()),
              3082832104);
}

TEST(MemoryTimelineImport, CoalescedLayout) {
    // [times µs, sizes]: 0, then parameter .. unknown.
    const std::string doc = R"([[1000, 2000, 3000],
        [[0, 100, 0, 0, 0, 0, 0, 0, 0], [0, 100, 0, 0, 0, 500, 0, 0, 0], [0, 100, 0, 0, 0, 20, 50, 0, 0]]])";
    const ImportResult r = importTraceFile(writeTemp("timeline.json", doc));
    ASSERT_TRUE(r.session) << r.error;
    EXPECT_EQ(r.session->format(), TraceFormat::TorchMemoryTimeline);
    const MemoryCategories m = MemoryCategories::build(*r.session);
    EXPECT_EQ(m.peakTotalBytes, 600);
    EXPECT_EQ(m.peakTs, 2000000);
    EXPECT_EQ(m.categories[4].peakBytes, 500);
    EXPECT_EQ(m.categories[5].finalBytes, 50);
}

TEST(MemoryTimelineImport, BadRowsAndCutFiles) {
    // A row that is not [ts, action, bytes, category] is counted; a cut file keeps the rows before the cut.
    const std::string doc = "[[-1, 1, 64, 0], [10, 2, 32, 4], [\"x\"], [20, 4, -32, 4], [30, 2, 8, 3]";
    const ImportResult r = importTraceFile(writeTemp("cut.raw.json", doc));
    ASSERT_TRUE(r.session) << r.error;
    EXPECT_TRUE(r.session->report().truncated());
    EXPECT_EQ(r.session->report().count("rows that are not memory timeline rows (skipped)"), 1u);
    const MemoryCategories m = MemoryCategories::build(*r.session);
    EXPECT_EQ(m.peakTotalBytes, 96); // the pre-existing 64 B join the first time
    EXPECT_EQ(m.categories[3].finalBytes, 8);
}

TEST(MemoryTimelineImport, WhatIsNotATimeline) {
    EXPECT_EQ(detectFormat(writeTemp("chrome_array.json", R"([{"ph": "X", "name": "a", "ts": 1, "dur": 1}])")),
              TraceFormat::ChromeJson);
    const ImportResult nested = importTraceFile(writeTemp("nested.json", R"([["a", "b"], {"c": 1}])"));
    EXPECT_FALSE(nested.session);
    EXPECT_NE(nested.error.find("not a PyTorch memory timeline"), std::string::npos) << nested.error;
    const ImportResult html = importTraceFile(
        writeTemp("timeline.html", "<html><body><img src='data:image/png;base64,iVBOR'></body></html>"));
    EXPECT_FALSE(html.session);
    EXPECT_NE(html.error.find("HTML"), std::string::npos) << html.error;
}
