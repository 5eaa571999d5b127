// Summary numbers checked against values computed independently by reference_summary.py (Python's
// json module + FORMATS.md formulas, no shared code): run it on tests/data/* to re-derive them.
#include "analysis/trace_summary.h"
#include "test_util.h"

#include <cmath>
#include <optional>

using namespace ws;
using namespace ws::test;

namespace {

struct Expected {
    const char* file;
    uint64_t events, kernels;
    int64_t kernelNs;
    uint64_t memcpy;
    int64_t memcpyNs;
    std::optional<uint64_t> memcpyBytes;
    uint64_t memset;
    int64_t memsetNs;
    uint64_t runtime, steps;
};

const Expected kExpected[] = {
    {"chrome69_devtools_simple_array_format.json", 1364, 0, 0, 0, 0, std::nullopt, 0, 0, 0, 0},
    {"gpu_metrics_input.json", 340, 30, 48000, 2, 2000, 768, 0, 0, 42, 1},
    {"cpu_only_rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz", 30, 0, 0, 0, 0, std::nullopt, 0, 0, 0, 1},
    {"cuda_event_sync_trace.json.gz", 92, 4, 49000, 1, 2000, 1, 0, 0, 12, 1},
    {"h100_gaunernst_bert-small-uncased__1016001.json.gz", 2551, 60, 307197, 1, 2240, 1, 0, 0, 110, 1},
    {"inference_rank_1_legacy_schema.json.gz", 54, 4, 30000, 0, 0, std::nullopt, 0, 0, 8, 0},
    {"mi250_minitoy_train_ROCm6_2_kineto.json.gz", 220, 14, 110881, 2, 38161, std::nullopt, 0, 0, 21, 2},
    {"step_based_trace_2543932_gpu_user_annotation.json.gz", 1344, 130, 290000, 10, 1000, 60, 0, 0, 180, 0},
    {"torch_compile_triton_mi300.json.gz", 246, 12, 12549021, 0, 0, std::nullopt, 0, 0, 59, 0},
    {"triton_example.json.gz", 71, 1, 1760, 0, 0, std::nullopt, 0, 0, 1, 1},
};

struct ExpectedDevice {
    const char* file;
    int id;
    const char* name;
    std::optional<double> util, sm, occ;
    std::optional<int64_t> peakAlloc, peakRes;
};

const ExpectedDevice kDevices[] = {
    {"h100_gaunernst_bert-small-uncased__1016001.json.gz", 0, "NVIDIA H100 80GB HBM3", 0.06940557789519204,
     0.044692437678288455, 4.080967587574097, 101305344, 121634816},
    {"gpu_metrics_input.json", 0, "", 0.0035794183445190158, 5.499627143922446e-05, std::nullopt, std::nullopt,
     std::nullopt},
    {"cuda_event_sync_trace.json.gz", 0, "NVIDIA A100-PG509-200", 0.015535827520608751, 0.0004579682942295498,
     0.14285714285714285, std::nullopt, std::nullopt},
    {"cuda_event_sync_trace.json.gz", 3, "NVIDIA A100-PG509-200", std::nullopt, std::nullopt, std::nullopt,
     std::nullopt, std::nullopt},
    {"inference_rank_1_legacy_schema.json.gz", 0, "", 2.867909809972296e-05, 1.8354622783822696e-05, 23.0,
     std::nullopt, std::nullopt},
    {"mi250_minitoy_train_ROCm6_2_kineto.json.gz", 2, "AMD Radeon Graphics", 0.011937718144274334, std::nullopt,
     std::nullopt, std::nullopt, std::nullopt},
    {"step_based_trace_2543932_gpu_user_annotation.json.gz", 0, "Quadro GP100", 0.02902902902902903,
     0.0005183755515515522, 0.0, std::nullopt, std::nullopt},
    {"torch_compile_triton_mi300.json.gz", 2, "AMD Instinct MI300X", 0.9806991938258177, std::nullopt, std::nullopt, std::nullopt,
     std::nullopt},
    {"triton_example.json.gz", 0, "NVIDIA A100-PG509-200", 1.3197048013366236e-07, 1.2219146755575797e-09, 0.0,
     std::nullopt, std::nullopt},
};

void expectNear(const std::optional<double>& got, const std::optional<double>& want, const std::string& what) {
    ASSERT_EQ(got.has_value(), want.has_value()) << what;
    if (want) { // blocks-per-SM is stored as float: 1e-6 relative
        EXPECT_NEAR(*got, *want, 1e-6 * std::max(1e-12, std::fabs(*want)) + 1e-15) << what;
    }
}

} // namespace

TEST(SummaryNumbers, CountsMatchIndependentReference) {
    for (const Expected& e : kExpected) {
        SCOPED_TRACE(e.file);
        ImportResult r = importTraceFile(dataPath(e.file));
        ASSERT_TRUE(r.session) << r.error;
        const TraceSummary s = summarizeSession(*r.session);
        EXPECT_EQ(s.format, "chrome-json");
        EXPECT_EQ(s.events, e.events);
        EXPECT_EQ(s.kernelCount, e.kernels);
        EXPECT_EQ(s.kernelTotalNs, e.kernelNs);
        EXPECT_EQ(s.memcpyCount, e.memcpy);
        EXPECT_EQ(s.memcpyTotalNs, e.memcpyNs);
        EXPECT_EQ(s.memcpyBytes, e.memcpyBytes);
        EXPECT_EQ(s.memsetCount, e.memset);
        EXPECT_EQ(s.memsetTotalNs, e.memsetNs);
        EXPECT_EQ(s.runtimeCalls, e.runtime);
        EXPECT_EQ(s.steps, e.steps);
    }
}

TEST(SummaryNumbers, DeviceMetricsFollowTbProfilerFormulas) {
    for (const ExpectedDevice& e : kDevices) {
        SCOPED_TRACE(std::string(e.file) + " device " + std::to_string(e.id));
        ImportResult r = importTraceFile(dataPath(e.file));
        ASSERT_TRUE(r.session) << r.error;
        const TraceSummary s = summarizeSession(*r.session);
        const DeviceSummary* d = nullptr;
        for (const DeviceSummary& x : s.devices)
            if (x.id == e.id)
                d = &x;
        ASSERT_TRUE(d);
        EXPECT_EQ(d->name, e.name);
        expectNear(d->gpuUtilization, e.util, "gpu_utilization");
        expectNear(d->estSmEfficiency, e.sm, "est_sm_efficiency");
        expectNear(d->estAchievedOccupancy, e.occ, "est_achieved_occupancy");
        EXPECT_EQ(d->peakAllocatedBytes, e.peakAlloc);
        EXPECT_EQ(d->peakReservedBytes, e.peakRes);
    }
}

TEST(SummaryNumbers, JsonHasTheIssueFieldsAndNulls) {
    ImportResult r = importTraceFile(dataPath("cpu_only_rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz"));
    ASSERT_TRUE(r.session);
    const std::string js = summaryToJson(summarizeSession(*r.session), true);
    for (const char* key : {"\"format\"", "\"events\"", "\"kernels\"", "\"total_ns\"", "\"memcpy\"", "\"bytes\": null",
                            "\"memset\"", "\"runtime_calls\"", "\"flows\"", "\"steps\": 1", "\"devices\"",
                            "\"import_report\"", "\"tracks\""})
        EXPECT_NE(js.find(key), std::string::npos) << key << "\n" << js;
}
