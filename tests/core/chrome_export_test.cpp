// Chrome trace export (issue #17): export then import gives the same model (the text dump's
// tracks, slices, flows, memory and counters) for every importer's output, ranges keep what they
// should, and the nsys-like summaries add up.
#include "analysis/memory_categories.h"
#include "analysis/session_dump.h"
#include "analysis/trace_summary.h"
#include "export/chrome_export.h"
#include "export/summary_csv.h"
#include "test_util.h"

#include <algorithm>
#include <sstream>

using namespace ws;
using namespace ws::test;

namespace {

// The dump without what an export changes by design: the format line and event count (the source's
// records are not the export's events), the report (notes of the source's importer) and the order
// of the tracks (by first appearance in the file). Each track is a block of lines.
std::vector<std::string> comparable(const Session& s) {
    std::istringstream in(dumpSession(s, 1000000));
    std::vector<std::string> blocks;
    std::string line;
    bool inReport = false;
    while (std::getline(in, line)) {
        if (line.rfind("format ", 0) == 0 || line.rfind("events ", 0) == 0)
            continue;
        if (line == "report:")
            inReport = true;
        if (inReport)
            continue;
        if (line.rfind("track ", 0) == 0) {
            // "track N [...]": the number is the order of appearance.
            blocks.push_back(line.substr(line.find(' ', 6)));
        } else if (line.rfind("  ", 0) == 0 && !blocks.empty()) {
            blocks.back() += "\n" + line;
        } else {
            blocks.push_back(line);
        }
    }
    std::sort(blocks.begin(), blocks.end());
    return blocks;
}

std::shared_ptr<const Session> roundTrip(const Session& s, const std::string& name, ChromeExportOptions o = {}) {
    std::ostringstream out;
    const ChromeExportResult r = exportChromeTrace(s, out, o);
    EXPECT_TRUE(r.ok) << r.error;
    const ImportResult back = importTraceFile(writeTemp(name, out.str()));
    EXPECT_TRUE(back.session) << back.error;
    if (back.session) {
        EXPECT_EQ(back.session->format(), TraceFormat::ChromeJson);
    }
    return back.session;
}

} // namespace

class ChromeExportRoundTrip : public testing::TestWithParam<const char*> {};

TEST_P(ChromeExportRoundTrip, ExportThenImportGivesTheSameModel) {
    const ImportResult r = importTraceFile(dataPath(GetParam()));
    ASSERT_TRUE(r.session) << r.error;
    const auto back = roundTrip(*r.session, "roundtrip.json");
    ASSERT_TRUE(back);
    const std::vector<std::string> a = comparable(*r.session), b = comparable(*back);
    EXPECT_EQ(a.size(), b.size());
    for (size_t i = 0; i < std::min(a.size(), b.size()); ++i)
        EXPECT_EQ(a[i], b[i]) << "block " << i;
    EXPECT_EQ(r.session->flows().size(), back->flows().size());
    EXPECT_EQ(r.session->memoryEvents().size(), back->memoryEvents().size());
    EXPECT_EQ(r.session->counters().size(), back->counters().size());
    EXPECT_EQ(r.session->devices().size(), back->devices().size());
}

INSTANTIATE_TEST_SUITE_P(EveryImporter, ChromeExportRoundTrip,
                         testing::Values("h100_gaunernst_bert-small-uncased__1016001.json.gz",
                                         "dlrm_8ranks/worker0_step_12.1694128201545.pt.trace.json.gz",
                                         "mi300_gaunernst_bert-small-uncased__1016001.json.gz",
                                         "rocprof/rocprofiler-sdk_908_results.json.gz",
                                         "nsys/nvfuser_report2_h200_nsys2024.6.sqlite",
                                         "memory_timeline/pytorch_memory_timeline.raw.gz",
                                         "xplane/jax_0.8_conv_minimal_tw003.xplane.pb"));

TEST(ChromeExport, ArgumentsAndMetadataSurvive) {
    const ImportResult r = importTraceFile(dataPath("h100_gaunernst_bert-small-uncased__1016001.json.gz"));
    ASSERT_TRUE(r.session);
    const auto back = roundTrip(*r.session, "args.json");
    ASSERT_TRUE(back);
    // The first kernel's arguments (grid, block, ...) read back the same.
    auto firstKernel = [](const Session& s) -> std::vector<std::pair<std::string, std::string>> {
        for (const Track& t : s.tracks())
            for (uint32_t i = 0; i < t.sliceCount(); ++i)
                if (s.kindOf(t, i) == EventKind::Kernel)
                    return s.args(t, i);
        return {};
    };
    const auto a = firstKernel(*r.session);
    ASSERT_FALSE(a.empty());
    EXPECT_EQ(a, firstKernel(*back));
    EXPECT_EQ(r.session->baseTimeNs(), back->baseTimeNs());
    EXPECT_EQ(back->metadata().count("schemaVersion"), 1u);
    EXPECT_EQ(summarizeSession(*r.session).devices.size(), summarizeSession(*back).devices.size());
}

TEST(ChromeExport, ARangeKeepsWhatOverlapsIt) {
    const ImportResult r = importTraceFile(dataPath("h100_gaunernst_bert-small-uncased__1016001.json.gz"));
    ASSERT_TRUE(r.session);
    const Session& s = *r.session;
    ChromeExportOptions o;
    o.from = s.startNs() + (s.endNs() - s.startNs()) / 4;
    o.to = s.startNs() + (s.endNs() - s.startNs()) / 2;
    uint64_t expected = 0;
    for (const Track& t : s.tracks())
        for (size_t i = 0; i < t.sliceCount(); ++i)
            expected += t.start[i] < *o.to && t.start[i] + t.dur[i] > *o.from;
    const auto back = roundTrip(s, "range.json", o);
    ASSERT_TRUE(back);
    EXPECT_EQ(back->sliceCount(), expected);
    EXPECT_LT(back->sliceCount(), s.sliceCount());
    for (const MemoryEvent& m : back->memoryEvents()) {
        EXPECT_GE(m.ts, *o.from);
        EXPECT_LT(m.ts, *o.to);
    }
}

TEST(ChromeExport, CancelStopsIt) {
    const ImportResult r = importTraceFile(dataPath("nccl_data_rank0.json.gz"));
    ASSERT_TRUE(r.session);
    std::atomic<bool> cancel{true};
    ChromeExportOptions o;
    o.cancel = &cancel;
    std::ostringstream out;
    const ChromeExportResult e = exportChromeTrace(*r.session, out, o);
    EXPECT_TRUE(e.cancelled);
    EXPECT_FALSE(e.ok);
}

TEST(SummaryCsv, KernelTableAddsUp) {
    const ImportResult r = importTraceFile(dataPath("h100_gaunernst_bert-small-uncased__1016001.json.gz"));
    ASSERT_TRUE(r.session);
    const auto files = summaryCsvFiles(*r.session);
    ASSERT_EQ(files.size(), 4u);
    EXPECT_EQ(files[0].name, "cuda_gpu_kern_sum.csv");
    std::istringstream in(files[0].text);
    std::string line;
    std::getline(in, line);
    EXPECT_EQ(line, "Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name");
    int64_t total = 0, instances = 0;
    double percent = 0;
    while (std::getline(in, line)) {
        std::istringstream row(line);
        std::string pct, tot, inst;
        std::getline(row, pct, ',');
        std::getline(row, tot, ',');
        std::getline(row, inst, ',');
        percent += std::stod(pct);
        total += std::stoll(tot);
        instances += std::stoll(inst);
    }
    const TraceSummary sum = summarizeSession(*r.session);
    EXPECT_EQ(instances, static_cast<int64_t>(sum.kernelCount));
    EXPECT_EQ(total, sum.kernelTotalNs);
    EXPECT_NEAR(percent, 100.0, 0.5);
}
