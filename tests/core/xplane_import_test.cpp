// XLA/JAX XSpace import (issue #17): the real JAX 0.8 profile in tests/data/xplane (kernel table
// cross-checked by tests/core/reference_xplane.py in cli.xplane_matches_reference), launch flows,
// arguments read back by offset, and damaged files.
#include "analysis/overview.h"
#include "analysis/step_ranges.h"
#include "analysis/trace_summary.h"
#include "import/xplane_importer.h"
#include "test_util.h"

using namespace ws;
using namespace ws::test;

namespace {
const char* kFile = "xplane/jax_0.8_conv_minimal_tw003.xplane.pb";
}

TEST(XplaneImport, RealJaxProfile) {
    const std::string path = dataPath(kFile);
    EXPECT_EQ(detectFormat(path), TraceFormat::Xplane);
    const ImportResult r = importTraceFile(path);
    ASSERT_TRUE(r.session) << r.error;
    const Session& s = *r.session;
    EXPECT_EQ(s.report().warningCount(), 0u) << s.report().toText();
    const TraceSummary sum = summarizeSession(s);
    EXPECT_EQ(sum.kernelCount, 235u); // reference_xplane.py: 60 on GPU 0, 25 on each of the 7 others
    ASSERT_EQ(s.devices().size(), 8u);
    EXPECT_EQ(deviceVendor(s.devices()[0]), DeviceInfo::Vendor::Amd);
    EXPECT_EQ(s.devices()[0].numSms, 304);
    // Every kernel was launched by a host API call (hipModuleLaunchKernel, ...): one flow each.
    EXPECT_EQ(s.flows().size(), 235u);
    const Flow& f = s.flows().front();
    EXPECT_EQ(s.kindOf(s.tracks()[f.fromTrack], f.fromSlice), EventKind::Runtime);
    EXPECT_EQ(s.kindOf(s.tracks()[f.toTrack], f.toSlice), EventKind::Kernel);
    // Arguments: the stats, with kernel_details' grid and block in Kineto's keys.
    const auto args = s.args(s.tracks()[f.toTrack], f.toSlice);
    std::map<std::string, std::string> a(args.begin(), args.end());
    EXPECT_FALSE(a["grid"].empty());
    EXPECT_FALSE(a["block"].empty());
    EXPECT_FALSE(a["correlation_id"].empty());
}

TEST(XplaneImport, ACutFileKeepsTheWholePlanesAndLines) {
    const std::string bytes = readFile(dataPath(kFile));
    ASSERT_GT(bytes.size(), 100000u);
    const ImportResult r = importTraceFile(writeTemp("cut.xplane.pb", bytes.substr(0, bytes.size() * 2 / 3)));
    ASSERT_TRUE(r.session) << r.error;
    EXPECT_TRUE(r.session->report().truncated()) << r.session->report().toText();
    EXPECT_GT(summarizeSession(*r.session).kernelCount, 0u);
}

TEST(XplaneImport, WhatIsNotAnXspace) {
    EXPECT_FALSE(looksLikeXplane(std::string("\x0a\x05hello", 7)));
    EXPECT_TRUE(looksLikeXplane(std::string("\x0a\x10\x08\x01\x12\x09/host:CPU", 15)));
    const ImportResult r = importTraceFile(writeTemp("junk.pb", std::string("\x0a\x20\x12\x0b/device:GPU\xff\xff\xff\xff", 20)));
    EXPECT_TRUE(!r.session || r.session->report().truncated() || summarizeSession(*r.session).kernelCount == 0);
}

TEST(XplaneImport, StepMarkersBecomeProfilerSteps) {
    // tests/data/xplane/make_steps_xplane.py: three "train" events with step_num 100..102, each
    // around a launch whose kernel runs 5 ms of the 9 ms step.
    const ImportResult r = importTraceFile(dataPath("xplane/steps.xplane.pb"));
    ASSERT_TRUE(r.session) << r.error;
    const Session& s = *r.session;
    const Track* steps = findTrack(s, "Steps");
    ASSERT_NE(steps, nullptr);
    ASSERT_EQ(steps->sliceCount(), 3u);
    EXPECT_EQ(s.str(steps->names[0]), "ProfilerStep#100");
    EXPECT_EQ(s.kindOf(*steps, 0), EventKind::UserAnnotation);
    // The marker keeps its own event too, and the step's arguments are the marker's.
    EXPECT_NE(s.eventJson(*steps, 2).find("\"step_num\":102"), std::string::npos) << s.eventJson(*steps, 2);
    const StepRanges ranges = computeStepRanges(s);
    ASSERT_EQ(ranges.hostStepCount, 3u);
    const OverviewReport o = computeOverview(s);
    EXPECT_EQ(o.stepSource, OverviewReport::StepSource::Profiler);
    ASSERT_EQ(o.breakdown.steps.size(), 3u);
    EXPECT_EQ(o.breakdown.steps[1].label, "101");
    EXPECT_EQ(o.breakdown.steps[1].cost[static_cast<size_t>(StepRole::Kernel)], 5'000'000);
}
