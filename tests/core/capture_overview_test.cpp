// A capture's Overview (issue #25): the measured GPU counters of the `pm` activity beside the
// estimates, and the occupancy computed from the recorded launch geometry, on a synthetic capture
// whose numbers are known by construction (wscapfixtures.h: pmSamplingStream).
#include "analysis/kernel_table.h"
#include "analysis/overview.h"
#include "analysis/step_ranges.h"
#include "analysis/trace_summary.h"
#include "test_util.h"
#include "wscapfixtures.h"

#include <cmath>
#include <map>

using namespace ws;
using namespace ws::test;

namespace {

constexpr auto T0 = static_cast<int64_t>(wstest::kPmT0);
constexpr auto Ms = static_cast<int64_t>(wstest::kPmMs);

std::shared_ptr<const Session> pmCapture() {
    ImportResult r = importTraceFile(writeTemp("pm.wscap", wstest::pmSamplingStream()));
    EXPECT_TRUE(r.session) << r.error;
    return r.session;
}

} // namespace

TEST(CaptureOverview, MeasuredCountersAreTimeWeightedOverTheSteps) {
    const auto s = pmCapture();
    ASSERT_TRUE(s);
    const OverviewData data = prepareOverview(*s);
    // 4 iterations from the launch pattern, all alike (none is start-up): [T0 + 4k ms, ...), the
    // last one to its last kernel's end, T0 + 14.6 ms.
    ASSERT_EQ(data.steps.steps.size(), 4u);
    EXPECT_TRUE(data.steps.patternSteps);
    EXPECT_FALSE(data.steps.startup);
    const OverviewReport whole = computeOverview(*s, data);
    ASSERT_EQ(whole.windowStart, T0);
    ASSERT_EQ(whole.windowEnd, T0 + 14 * Ms + 600'000);
    ASSERT_EQ(whole.devices.size(), 1u);
    const DeviceOverview& d = whole.devices[0];
    // Sample j holds over [T0 + j ms, T0 + (j+1) ms): 14 whole samples and 0.6 ms of sample 14.
    // sm_active: 7 x 20 % + 7 x 60 % + 0.6 x 20 %; dram_bandwidth: sum of (10 + j) + 0.6 x 24.
    ASSERT_TRUE(d.measuredValue(MeasuredCounter::SmActive));
    EXPECT_NEAR(*d.measuredValue(MeasuredCounter::SmActive), (7 * 20.0 + 7 * 60.0 + 0.6 * 20.0) / 14.6, 1e-9);
    ASSERT_TRUE(d.measuredValue(MeasuredCounter::TensorActive));
    EXPECT_NEAR(*d.measuredValue(MeasuredCounter::TensorActive), 25.0, 1e-9);
    ASSERT_TRUE(d.measuredValue(MeasuredCounter::DramBandwidth));
    EXPECT_NEAR(*d.measuredValue(MeasuredCounter::DramBandwidth), (231.0 + 0.6 * 24.0) / 14.6, 1e-9);
    // The estimate stays beside them.
    EXPECT_TRUE(d.smEfficiency);

    // A selected range inside the steps: [T0 + 2 ms, T0 + 10 ms) is 4 samples of 20 % and 4 of 60 %.
    const OverviewReport range = computeOverview(*s, data, OverviewRange{T0 + 2 * Ms, T0 + 10 * Ms});
    ASSERT_EQ(range.windowStart, T0 + 2 * Ms);
    ASSERT_EQ(range.windowEnd, T0 + 10 * Ms);
    const DeviceOverview& r = range.devices.at(0);
    EXPECT_NEAR(*r.measuredValue(MeasuredCounter::SmActive), 40.0, 1e-9);
    EXPECT_NEAR(*r.measuredValue(MeasuredCounter::TensorActive), 25.0, 1e-9);
    EXPECT_NEAR(*r.measuredValue(MeasuredCounter::DramBandwidth), (12 + 13 + 14 + 15 + 16 + 17 + 18 + 19) / 8.0, 1e-9);

    // Outside the samples (they end at T0 + 21 ms): not measured there.
    const OverviewReport after = computeOverview(*s, data, OverviewRange{T0 + 25 * Ms, T0 + 28 * Ms});
    ASSERT_TRUE(after.valid);
    EXPECT_FALSE(after.devices.at(0).measuredValue(MeasuredCounter::SmActive));

    // In the JSON of warpscope-cli overview.
    const std::string json = overviewToJson(*s, range);
    EXPECT_NE(json.find("\"measured_sm_active_pct\": 40.0"), std::string::npos) << json;
}

TEST(CaptureOverview, NoPmSamplingNoMeasuredCounters) {
    ImportResult r = importTraceFile(dataPath("captures/resnet18_plain.wscap.gz"));
    ASSERT_TRUE(r.session);
    const OverviewReport o = computeOverview(*r.session);
    ASSERT_EQ(o.devices.size(), 1u);
    for (const auto& m : o.devices[0].measured)
        EXPECT_FALSE(m); // NVML's utilization is not a PM counter
}

TEST(CaptureOverview, OccupancyFromTheRecordedGeometry) {
    const auto s = pmCapture();
    ASSERT_TRUE(s);
    // Per kernel, from its grid, block, registers and shared memory and the device (see the fixture).
    std::map<std::string, float> expected = {{"gemm", 25.0f}, {"attn", 12.5f}, {"add", 50.0f}};
    const KernelTable table = KernelTable::build(*s);
    ASSERT_EQ(table.size(), 12u);
    for (const KernelRow& row : table.rows())
        EXPECT_FLOAT_EQ(row.occupancy, expected.at(std::string(s->str(row.name)))) << s->str(row.name);
    const OverviewReport o = computeOverview(*s);
    const DeviceOverview& d = o.devices.at(0);
    ASSERT_TRUE(d.achievedOccupancy);
    EXPECT_TRUE(d.occupancyComputed);
    // Kernel-time weighted over the window: every kernel lasts 500 µs, all inside it.
    EXPECT_NEAR(*d.achievedOccupancy, (25.0 + 12.5 + 50.0) / 3, 1e-4);
}

TEST(CaptureOverview, ARealCaptureHasOccupancy) {
    // Before issue #25: "not in this trace" although the capture records the geometry.
    for (const char* file : {"captures/resnet18_plain.wscap.gz", "captures/transformer_plain.wscap.gz"}) {
        ImportResult r = importTraceFile(dataPath(file));
        ASSERT_TRUE(r.session);
        const OverviewReport o = computeOverview(*r.session);
        ASSERT_TRUE(o.devices.at(0).achievedOccupancy) << file;
        EXPECT_GT(*o.devices.at(0).achievedOccupancy, 10.0) << file;
        EXPECT_LT(*o.devices.at(0).achievedOccupancy, 80.0) << file;
        // The Summary tab's device table says the same (it said n/a).
        const TraceSummary summary = summarizeSession(*r.session);
        ASSERT_EQ(summary.devices.size(), 1u) << file;
        ASSERT_TRUE(summary.devices[0].estAchievedOccupancy) << file;
        EXPECT_NEAR(*summary.devices[0].estAchievedOccupancy, *o.devices.at(0).achievedOccupancy, 1e-6) << file;
        const KernelTable table = KernelTable::build(*r.session);
        size_t with = 0;
        for (const KernelRow& row : table.rows())
            with += !std::isnan(row.occupancy);
        EXPECT_EQ(with, table.size()) << file;
    }
}
