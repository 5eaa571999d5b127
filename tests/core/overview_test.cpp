// Overview numbers (steps, step time breakdown, per-device metrics, recommendations) checked against
// values computed independently by reference_overview.py (Python json module + FORMATS.md 3.3-3.7, no
// shared code): `python3 reference_overview.py FILE [--from NS --to NS]` re-derives every number below.
// The nsys case is checked against the kernel table read straight from the SQLite export.
#include "analysis/idle_gaps.h"
#include "analysis/overview.h"
#include "analysis/step_breakdown.h"
#include "analysis/trace_summary.h"
#include "test_util.h"

#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <optional>
#include <random>

using namespace ws;
using namespace ws::test;

namespace {

struct Expected {
    const char* file;
    bool shared; // under ../shared/testdata (skipped when absent)
    int64_t windowStart, windowEnd;
    size_t steps;
    const char* step0Label;
    std::array<int64_t, kStepRoleCount> step0;
    std::array<double, kStepRoleCount> average;
    int device;
    const char* deviceName;
    uint64_t kernelCount;
    int64_t kernelNs;
    std::optional<double> util, sm, occ, tc;
    std::optional<int64_t> peakAllocated;
};

const Expected kExpected[] = {
    {"h100_gaunernst_bert-small-uncased__1016001.json.gz", false, 1752830083332972313LL, 1752830083337398427LL, 1, "6", {307197, 2240, 0, 0, 244354, 0, 1724372, 2147951}, {307197.0, 2240.0, 0.0, 0.0, 244354.0, 0.0, 1724372.0, 2147951.0},
     0, "NVIDIA H100 80GB HBM3", 60, 307197, 0.06940557789519204, 0.044692437678288455, 4.080967587574097, 0.6432289377825955, 101305344},
    {"step_based_trace_2543932_gpu_user_annotation.json.gz", false, 1672876799188721000LL, 1672876799198711000LL, 1, "", {290000, 1000, 0, 0, 1273000, 0, 6459000, 1967000}, {290000.0, 1000.0, 0.0, 0.0, 1273000.0, 0.0, 6459000.0, 1967000.0},
     0, "Quadro GP100", 130, 290000, 0.02902902902902903, 0.0005183755515515522, 0.0, 0.0, std::nullopt},
    {"mi250_minitoy_train_ROCm6_2_kineto.json.gz", false, 1739836029603187439LL, 1739836029612475730LL, 1, "1", {110881, 38161, 0, 0, 6698597, 0, 1902174, 538478}, {110881.0, 38161.0, 0.0, 0.0, 6698597.0, 0.0, 1902174.0, 538478.0},
     2, "AMD Radeon Graphics", 14, 110881, 0.011937718144274334, std::nullopt, std::nullopt, 0.272724813087905, std::nullopt},
    {"pytorch_kineto/kineto_tb_plugin/resnet50_num_workers_0_worker0.1623143089861.pt.trace.json.gz", true, 1623142623460172000LL, 1623142624525725000LL, 6, "5", {98598000, 1941000, 90000, 0, 2796000, 69317000, 14091000, 1115000}, {98588666.66666667, 1915333.3333333333, 89000.0, 0.0, 2907500.0, 59261833.333333336, 13674166.666666666, 1155666.6666666667},
     0, "Tesla V100-DGXS-32GB", 8772, 591532000, 0.5551408517455255, 0.5467904107069287, 49.128004909286396, 0.0, std::nullopt},
    {"pytorch_kineto/hta/nccl_data_rank0.json.gz", true, 1716423322416788066LL, 1716423323084014024LL, 3, "4", {38506406, 758032, 127556, 10399970, 10161995, 0, 162258079, 230153}, {38551949.0, 754260.3333333334, 130239.0, 13407233.333333334, 10049494.0, 0.0, 159255161.33333334, 220109.33333333334},
     0, "NVIDIA A100-PG509-200", 2700, 162532340, 0.23262781242093103, 0.16868843442376666, 35.31433352279306, 0.23756042643574812, std::nullopt},
    {"pytorch_kineto/tracelens/mi300_ddp_resnet_act_checkpoint_rank0.json.gz", true, 1770932723252944509LL, 1770932723309462113LL, 3, "15", {6434141, 544516, 105811, 11803259, 17385, 0, 70885, 4348}, {6411364.666666667, 544475.3333333334, 109279.0, 11679570.333333334, 69434.33333333333, 0.0, 23628.333333333332, 1449.3333333333333},
     2, "AMD Instinct MI300X", 2238, 66434404, 0.9646061959739128, std::nullopt, std::nullopt, 0.04776826175786871, std::nullopt},
};

std::shared_ptr<const Session> load(const Expected& e) {
    const std::string path = e.shared ? sharedPath(e.file) : dataPath(e.file);
    if (!std::filesystem::exists(path))
        return nullptr;
    ImportResult r = importTraceFile(path);
    return r.session;
}

void expectNear(const std::optional<double>& got, const std::optional<double>& want, const char* what) {
    ASSERT_EQ(got.has_value(), want.has_value()) << what;
    if (want) {
        EXPECT_NEAR(*got, *want, 1e-9 * std::max(1.0, std::abs(*want))) << what;
    }
}

void expectCostsSumToTotal(const StepBreakdown& b) {
    for (const StepCosts& st : b.steps) {
        int64_t sum = 0;
        for (int64_t c : st.cost) {
            EXPECT_GE(c, 0);
            sum += c;
        }
        EXPECT_EQ(sum, st.total()) << "step " << st.label;
    }
}

const Recommendation* findRecommendation(const OverviewReport& r, RecommendationKind kind, int device = -1) {
    for (const Recommendation& rec : r.recommendations)
        if (rec.kind == kind && (device < 0 || rec.device == device))
            return &rec;
    return nullptr;
}

} // namespace

TEST(Overview, MatchesReferenceOnRealTraces) {
    int checked = 0;
    for (const Expected& e : kExpected) {
        SCOPED_TRACE(e.file);
        auto session = load(e);
        if (!session) {
            ASSERT_TRUE(e.shared) << "missing test file";
            continue;
        }
        ++checked;
        const OverviewReport r = computeOverview(*session);
        ASSERT_TRUE(r.valid);
        EXPECT_FALSE(r.selection);
        EXPECT_EQ(r.windowStart, e.windowStart);
        EXPECT_EQ(r.windowEnd, e.windowEnd);
        const StepBreakdown& b = r.breakdown;
        ASSERT_EQ(b.steps.size(), e.steps);
        EXPECT_EQ(b.steps[0].label, e.step0Label);
        for (size_t role = 0; role < kStepRoleCount; ++role) {
            EXPECT_EQ(b.steps[0].cost[role], e.step0[role]) << stepRoleName(StepRole(role));
            EXPECT_NEAR(b.average[role], e.average[role], 1e-6) << stepRoleName(StepRole(role));
        }
        expectCostsSumToTotal(b);
        const DeviceOverview* dev = nullptr;
        for (const DeviceOverview& d : r.devices)
            if (d.id == e.device)
                dev = &d;
        ASSERT_NE(dev, nullptr);
        EXPECT_EQ(dev->name, e.deviceName);
        EXPECT_EQ(dev->kernelCount, e.kernelCount);
        EXPECT_EQ(dev->kernelNs, e.kernelNs);
        expectNear(dev->gpuUtilization, e.util, "GPU Utilization");
        expectNear(dev->smEfficiency, e.sm, "Est. SM Efficiency");
        expectNear(dev->achievedOccupancy, e.occ, "Est. Achieved Occupancy");
        expectNear(dev->tensorCoreShare, e.tc, "Tensor Core share");
        EXPECT_EQ(dev->peakAllocatedBytes, e.peakAllocated);
    }
    EXPECT_GE(checked, 3);
}

TEST(Overview, AgreesWithSessionSummaryOnWholeTrace) {
    // The summary computes 3.5-3.7 separately (trace_summary.cpp); both must agree.
    for (const char* file : {"h100_gaunernst_bert-small-uncased__1016001.json.gz", "cuda_event_sync_trace.json.gz",
                             "gpu_metrics_input.json", "triton_example.json.gz"}) {
        SCOPED_TRACE(file);
        ImportResult imported = importTraceFile(dataPath(file));
        ASSERT_TRUE(imported.session);
        const TraceSummary summary = summarizeSession(*imported.session);
        const OverviewReport r = computeOverview(*imported.session);
        for (const DeviceOverview& d : r.devices)
            for (const DeviceSummary& ds : summary.devices)
                if (ds.id == d.id && ds.gpuUtilization) {
                    expectNear(d.gpuUtilization, ds.gpuUtilization, "util");
                    expectNear(d.smEfficiency, ds.estSmEfficiency, "sm");
                    expectNear(d.achievedOccupancy, ds.estAchievedOccupancy, "occ");
                }
        expectCostsSumToTotal(r.breakdown);
    }
}

TEST(Overview, SelectedRangeClipsSteps) {
    const Expected& e = kExpected[3]; // resnet50, 6 steps
    auto session = load(e);
    if (!session)
        GTEST_SKIP() << "no shared testdata";
    const OverviewData data = prepareOverview(*session);
    const OverviewReport r = computeOverview(*session, data, OverviewRange{1623142623510172000LL, 1623142623900000000LL});
    ASSERT_TRUE(r.valid);
    EXPECT_TRUE(r.selection);
    EXPECT_EQ(r.windowStart, 1623142623510172000LL);
    EXPECT_EQ(r.windowEnd, 1623142623900000000LL);
    // reference_overview.py FILE --from 1623142623510172000 --to 1623142623900000000
    const std::array<std::array<int64_t, kStepRoleCount>, 3> want = {{
        {98598000, 1941000, 90000, 0, 2796000, 19390000, 14053000, 1080000},
        {98570000, 1947000, 89000, 0, 2762000, 57669000, 12968000, 1148000},
        {13141000, 1931000, 0, 0, 272000, 60590000, 644000, 149000},
    }};
    ASSERT_EQ(r.breakdown.steps.size(), 3u);
    EXPECT_EQ(r.breakdown.steps[0].label, "5");
    EXPECT_EQ(r.breakdown.steps[2].label, "7");
    EXPECT_EQ(r.breakdown.steps[2].end, 1623142623900000000LL);
    for (size_t s = 0; s < 3; ++s)
        for (size_t role = 0; role < kStepRoleCount; ++role)
            EXPECT_EQ(r.breakdown.steps[s].cost[role], want[s][role]) << s << " " << stepRoleName(StepRole(role));
    expectCostsSumToTotal(r.breakdown);
    ASSERT_EQ(r.devices.size(), 1u);
    EXPECT_EQ(r.devices[0].kernelCount, 3011u);
    EXPECT_EQ(r.devices[0].kernelNs, 210309000);
    expectNear(r.devices[0].gpuUtilization, 0.539491775860123, "util");
    expectNear(r.devices[0].smEfficiency, 0.5311806104230584, "sm");
    expectNear(r.devices[0].achievedOccupancy, 49.5408755688059, "occ");

    // A range outside every step is its own single step.
    const int64_t after = session->endNs() + 1'000'000;
    const OverviewReport outside = computeOverview(*session, data, OverviewRange{after, after + 5000});
    ASSERT_EQ(outside.breakdown.steps.size(), 1u);
    EXPECT_EQ(outside.breakdown.steps[0].cost[size_t(StepRole::Other)], 5000);
    EXPECT_FALSE(outside.profilerSteps);
    expectNear(outside.devices[0].gpuUtilization, 0.0, "util outside");
}

TEST(Overview, RecommendationsCarryEvidence) {
    // resnet50 with num_workers=0: DataLoader is 33 % of the step (tb-profiler's own sample for this rule).
    const Expected& resnet = kExpected[3];
    if (auto session = load(resnet)) {
        const OverviewReport r = computeOverview(*session);
        const Recommendation* dl = findRecommendation(r, RecommendationKind::DataLoader);
        ASSERT_NE(dl, nullptr);
        EXPECT_NEAR(dl->share, 59261833.333333336 / 177592166.66666666, 1e-9);
        EXPECT_EQ(dl->ns, 59261833);
        ASSERT_TRUE(dl->range.has_value());
        EXPECT_EQ(dl->range->start, 1623142623460172000LL); // step 5 has the most DataLoader time
        EXPECT_NE(recommendationEvidence(*dl).find("33.4 %"), std::string::npos) << recommendationEvidence(*dl);
        // V100 (CC 7.0), no Tensor Core kernel, convolutions in fp32: AMP.
        const Recommendation* amp = findRecommendation(r, RecommendationKind::EnableAmp, 0);
        ASSERT_NE(amp, nullptr);
        EXPECT_GT(amp->count, 0u);
        ASSERT_TRUE(amp->slice.has_value());
        EXPECT_FALSE(findRecommendation(r, RecommendationKind::LowGpuUtilization)); // 55.5 %
        EXPECT_FALSE(findRecommendation(r, RecommendationKind::Communication));
    }
    // MI300 DDP: communication 62 % of the step.
    if (auto session = load(kExpected[5])) {
        const OverviewReport r = computeOverview(*session);
        const Recommendation* comm = findRecommendation(r, RecommendationKind::Communication);
        ASSERT_NE(comm, nullptr);
        EXPECT_NEAR(comm->share, 11679570.333333334 / 18839201.333333332, 1e-9);
    }
    // bert-small on H100: GPU utilization 6.9 %, the window is the link.
    ImportResult bert = importTraceFile(dataPath(kExpected[0].file));
    ASSERT_TRUE(bert.session);
    const OverviewReport r = computeOverview(*bert.session);
    const Recommendation* low = findRecommendation(r, RecommendationKind::LowGpuUtilization, 0);
    ASSERT_NE(low, nullptr);
    EXPECT_NEAR(low->share, 0.06940557789519204, 1e-12);
    ASSERT_TRUE(low->range.has_value());
    EXPECT_EQ(low->range->start, r.windowStart);
    EXPECT_EQ(low->range->end, r.windowEnd);
    EXPECT_NE(recommendationEvidence(*low).find("6.9 %"), std::string::npos);
    // H100 runs Tensor Core GEMMs here (64 % of kernel time): no AMP advice; not near 80 GB.
    EXPECT_FALSE(findRecommendation(r, RecommendationKind::EnableAmp));
    EXPECT_FALSE(findRecommendation(r, RecommendationKind::MemoryNearCapacity));
    // Every recommendation is worded and its links point inside the session.
    for (const Recommendation& rec : r.recommendations) {
        EXPECT_FALSE(recommendationTitle(rec).empty());
        EXPECT_FALSE(recommendationEvidence(rec).empty());
        if (rec.range) {
            EXPECT_LE(rec.range->start, rec.range->end);
        }
        if (rec.slice) {
            ASSERT_LT(rec.slice->track, bert.session->tracks().size());
            EXPECT_LT(rec.slice->slice, bert.session->tracks()[rec.slice->track].sliceCount());
        }
    }
}

TEST(Overview, LongestIdleGapIsBetweenGpuActivities) {
    ImportResult imported = importTraceFile(dataPath(kExpected[2].file)); // mi250, device 2
    ASSERT_TRUE(imported.session);
    const Session& s = *imported.session;
    const OverviewReport r = computeOverview(s);
    EXPECT_FALSE(findRecommendation(r, RecommendationKind::EnableAmp)); // AMD: no Tensor Core advice
    const Recommendation* gap = findRecommendation(r, RecommendationKind::LongIdleGap, 2);
    ASSERT_NE(gap, nullptr);
    ASSERT_TRUE(gap->range.has_value());
    EXPECT_EQ(gap->range->end - gap->range->start, gap->ns);
    // Independently: no GPU activity inside the gap, and activity ends at its start and begins at its end.
    bool endsAtStart = false, startsAtEnd = false;
    for (const Track& t : s.tracks()) {
        if (!t.gpu)
            continue;
        for (size_t i = 0; i < t.sliceCount(); ++i) {
            if (!isGpuActivity(s.kindOf(t, i)))
                continue;
            EXPECT_FALSE(t.start[i] < gap->range->end && t.end(i) > gap->range->start);
            endsAtStart |= t.end(i) == gap->range->start;
            startsAtEnd |= t.start[i] == gap->range->end;
        }
    }
    EXPECT_TRUE(endsAtStart);
    EXPECT_TRUE(startsAtEnd);
}

// Issue #51: the advice names what the host did in the gap (Why the GPU waits over the gap alone):
// the loader-bound capture's longest gap is the main thread's next(batches), after the harness's
// synchronization emptied the queue; the text carries the cause and the advice for data loading.
TEST(Overview, LongIdleGapNamesItsCause) {
    ImportResult imported = importTraceFile(dataPath("captures/waits/waits_loader.wscap.gz"));
    ASSERT_TRUE(imported.session);
    const OverviewReport r = computeOverview(*imported.session);
    const Recommendation* gap = findRecommendation(r, RecommendationKind::LongIdleGap, 0);
    ASSERT_NE(gap, nullptr);
    ASSERT_EQ(longIdleGapCategory(*gap), GapCategory::DataLoading);
    EXPECT_EQ(gap->name, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__");
    EXPECT_EQ(gap->detail, "cudaDeviceSynchronize");
    const std::string evidence = recommendationEvidence(*gap);
    EXPECT_NE(evidence.find("Meanwhile the host was in data loading at enumerate(DataLoader)"), std::string::npos) << evidence;
    EXPECT_NE(evidence.find("num_workers"), std::string::npos);
    // The same gap in the report of Why the GPU waits has that class and line.
    const IdleGapReport gaps = computeIdleGaps(*imported.session);
    bool found = false;
    for (const IdleGap& g : gaps.gaps)
        if (g.start <= gap->range->start && g.end >= gap->range->end) {
            found = true;
            EXPECT_EQ(g.category, GapCategory::DataLoading);
            EXPECT_EQ(gapLineText(gaps.lines[g.cause]), gap->name);
        }
    EXPECT_TRUE(found);
}

TEST(Overview, NsysMatchesKernelTableOfTheExport) {
    const std::string path = dataPath("nsys/nvfuser_report2_h200_nsys2024.6.sqlite");
    ImportResult imported = importTraceFile(path);
    ASSERT_TRUE(imported.session);
    const OverviewReport r = computeOverview(*imported.session);
    ASSERT_TRUE(r.valid);
    EXPECT_FALSE(r.profilerSteps);
    ASSERT_EQ(r.breakdown.steps.size(), 1u); // no ProfilerStep: one step over the trace
    expectCostsSumToTotal(r.breakdown);
    // Independent numbers from the export itself: kernels, their union (all on device 0).
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
    sqlite3_stmt* st = nullptr;
    ASSERT_EQ(sqlite3_prepare_v2(db, "SELECT start, end, gridX * gridY * gridZ FROM CUPTI_ACTIVITY_KIND_KERNEL ORDER BY start",
                                 -1, &st, nullptr),
              SQLITE_OK);
    IntervalList kernels;
    int64_t sum = 0;
    std::vector<std::pair<int64_t, double>> edges; // blocks per SM = blocks / 132 SMs (FORMATS.md 2.10)
    while (sqlite3_step(st) == SQLITE_ROW) {
        kernels.push_back({sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1)});
        sum += kernels.back().end - kernels.back().start;
        const double bps = static_cast<double>(sqlite3_column_int64(st, 2)) / 132.0;
        edges.emplace_back(kernels.back().start, bps);
        edges.emplace_back(kernels.back().end, -bps);
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    ASSERT_EQ(kernels.size(), 19u);
    mergeIntervals(kernels);
    ASSERT_EQ(r.devices.size(), 1u);
    const DeviceOverview& d = r.devices[0];
    EXPECT_EQ(d.name, "NVIDIA H200");
    EXPECT_EQ(d.smCount, 132);
    EXPECT_EQ(d.kernelCount, 19u);
    EXPECT_EQ(d.kernelNs, sum);
    EXPECT_EQ(r.breakdown.steps[0].cost[size_t(StepRole::Kernel)], totalLength(kernels));
    ASSERT_TRUE(d.gpuUtilization.has_value());
    EXPECT_NEAR(*d.gpuUtilization * static_cast<double>(r.windowEnd - r.windowStart),
                static_cast<double>(totalLength(kernels)), 1.0);
    // Est. SM Efficiency from the grid sizes (the importer derives blocks per SM like Kineto does).
    std::sort(edges.begin(), edges.end(), [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first < b.first : a.second > b.second;
    });
    double running = 0, weighted = 0;
    for (size_t i = 0; i + 1 < edges.size(); ++i) {
        running += edges[i].second;
        if (running > 1e-9)
            weighted += std::min(running, 1.0) * static_cast<double>(edges[i + 1].first - edges[i].first);
    }
    expectNear(d.smEfficiency, weighted / static_cast<double>(r.windowEnd - r.windowStart), "Est. SM Efficiency");
    // nsys exports no occupancy; it is computed from the launch geometry (cuda_occupancy_test.cpp).
    EXPECT_TRUE(d.occupancyComputed);
    EXPECT_FALSE(d.peakAllocatedBytes.has_value()); // no PyTorch allocator events
}

TEST(Overview, CapturesAndCpuOnlyTraces) {
    for (const char* file : {"captures/resnet18.wscap.gz", "cpu_only_rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz",
                             "nvprof/profiling-lm_pyprof_nvtx_net.sql"}) {
        SCOPED_TRACE(file);
        ImportResult imported = importTraceFile(dataPath(file));
        ASSERT_TRUE(imported.session) << imported.error;
        const OverviewReport r = computeOverview(*imported.session);
        ASSERT_TRUE(r.valid);
        expectCostsSumToTotal(r.breakdown);
        for (const DeviceOverview& d : r.devices) {
            if (d.gpuUtilization) {
                EXPECT_GE(*d.gpuUtilization, 0.0);
                EXPECT_LE(*d.gpuUtilization, 1.0);
            }
        }
    }
}

// transformers' generate() captured with operators in windows and Python stacks (issue #49): the
// decode loop is host-bound, and outside the operator windows its Python between launches is CPU
// Exec, not Other; every step the same, the windowed first one and the rest.
TEST(Overview, AHostBoundCaptureIsCpuExecBetweenItsLaunches) {
    ImportResult imported = importTraceFile(dataPath("inference/hf_eager_stacks.wscap.gz"));
    ASSERT_TRUE(imported.session) << imported.error;
    const OverviewReport r = computeOverview(*imported.session);
    ASSERT_TRUE(r.valid);
    expectCostsSumToTotal(r.breakdown);
    ASSERT_GE(r.breakdown.steps.size(), 2u);
    for (const StepCosts& step : r.breakdown.steps) {
        const double total = static_cast<double>(step.total());
        EXPECT_LT(step.cost[size_t(StepRole::Other)], 0.05 * total) << step.label;
        EXPECT_GT(step.cost[size_t(StepRole::CpuExec)], 0.5 * total) << step.label;
    }
}

TEST(Overview, JsonIsMachineReadable) {
    ImportResult imported = importTraceFile(dataPath(kExpected[2].file)); // mi250: no blocks per SM
    ASSERT_TRUE(imported.session);
    const OverviewReport r = computeOverview(*imported.session);
    const auto j = nlohmann::json::parse(overviewToJson(*imported.session, r));
    EXPECT_EQ(j["window"]["start_ns"].get<int64_t>(), kExpected[2].windowStart);
    ASSERT_EQ(j["devices"].size(), 1u);
    EXPECT_TRUE(j["devices"][0]["est_sm_efficiency"].is_null()); // absent, not 0
    EXPECT_NEAR(j["devices"][0]["gpu_utilization"].get<double>(), 0.011937718144274334, 1e-12);
    EXPECT_EQ(j["breakdown"]["steps"][0]["Runtime"].get<int64_t>(), 6698597);
    EXPECT_EQ(j["breakdown"]["steps"][0]["Total"].get<int64_t>(), kExpected[2].windowEnd - kExpected[2].windowStart);
    for (const auto& rec : j["recommendations"]) {
        EXPECT_TRUE(rec["id"].is_string());
        EXPECT_TRUE(rec["evidence"].is_string());
    }
}

TEST(StepBreakdownIntervals, SetOperations) {
    IntervalList a = {{5, 10}, {0, 3}, {2, 4}, {10, 12}, {20, 20}};
    mergeIntervals(a);
    ASSERT_EQ(a.size(), 2u);
    EXPECT_EQ(a[0].start, 0);
    EXPECT_EQ(a[0].end, 4);
    EXPECT_EQ(a[1].start, 5);
    EXPECT_EQ(a[1].end, 12);
    const IntervalList b = {{3, 6}, {8, 9}, {11, 30}};
    const IntervalList i = intersectIntervals(a, b);
    EXPECT_EQ(totalLength(i), 1 + 1 + 1 + 1); // [3,4) [5,6) [8,9) [11,12)
    const IntervalList d = subtractIntervals(a, b);
    EXPECT_EQ(totalLength(d), totalLength(a) - totalLength(i));
    EXPECT_EQ(lengthWithin(a, 2, 7), 2 + 2);
    EXPECT_EQ(lengthWithin(a, 100, 200), 0);
}

TEST(StepBreakdownIntervals, PriorityAttribution) {
    // Kernel [0,10), Runtime [5,15), CPU Exec [0,30); step [0,20): Kernel 10, Runtime 5, CPU 5, Other 0.
    StepRoleRanges roles;
    roles.ranges[size_t(StepRole::Kernel)] = {{0, 10}};
    roles.ranges[size_t(StepRole::Runtime)] = {{5, 15}};
    roles.ranges[size_t(StepRole::CpuExec)] = {{0, 30}};
    std::vector<StepCosts> steps(2);
    steps[0].start = 0;
    steps[0].end = 20;
    steps[1].start = 20;
    steps[1].end = 40;
    const StepBreakdown b = computeStepBreakdown(roles, steps);
    EXPECT_EQ(b.steps[0].cost[size_t(StepRole::Kernel)], 10);
    EXPECT_EQ(b.steps[0].cost[size_t(StepRole::Runtime)], 5);
    EXPECT_EQ(b.steps[0].cost[size_t(StepRole::CpuExec)], 5);
    EXPECT_EQ(b.steps[0].cost[size_t(StepRole::Other)], 0);
    EXPECT_EQ(b.steps[1].cost[size_t(StepRole::CpuExec)], 10);
    EXPECT_EQ(b.steps[1].cost[size_t(StepRole::Other)], 10);
    EXPECT_DOUBLE_EQ(b.average[size_t(StepRole::Other)], 5.0);
    EXPECT_DOUBLE_EQ(b.averageShare(StepRole::Kernel), 5.0 / 20.0);
}

// The sweep against the definition: peel the roles off the steps in priority order (each role's
// share is what it covers of what earlier roles left), on random roles and random, possibly
// overlapping, empty or out-of-order steps.
TEST(StepBreakdownIntervals, SweepEqualsPeelingRolesInPriorityOrder) {
    std::mt19937_64 rng(29);
    auto randomList = [&](size_t n, int64_t span) {
        IntervalList list;
        for (size_t i = 0; i < n; ++i) {
            const int64_t a = int64_t(rng() % uint64_t(span));
            list.push_back({a, a + int64_t(rng() % 40)});
        }
        mergeIntervals(list);
        return list;
    };
    for (int round = 0; round < 300; ++round) {
        const int64_t span = 50 + int64_t(rng() % 2000);
        StepRoleRanges roles;
        for (IntervalList& list : roles.ranges)
            list = randomList(rng() % 60, span);
        std::vector<StepCosts> steps(rng() % 6);
        for (StepCosts& st : steps) {
            st.start = int64_t(rng() % uint64_t(span));
            st.end = st.start + int64_t(rng() % uint64_t(span)) - (rng() % 8 == 0 ? span : 0);
        }
        const StepBreakdown got = computeStepBreakdown(roles, steps);
        IntervalList free;
        for (const StepCosts& st : steps)
            if (st.end > st.start)
                free.push_back({st.start, st.end});
        mergeIntervals(free);
        ASSERT_EQ(got.steps.size(), steps.size());
        for (size_t role = 0; role + 1 < kStepRoleCount; ++role) {
            const IntervalList cost = intersectIntervals(roles.ranges[role], free);
            free = subtractIntervals(free, cost);
            for (size_t k = 0; k < steps.size(); ++k)
                ASSERT_EQ(got.steps[k].cost[role], steps[k].end > steps[k].start ? lengthWithin(cost, steps[k].start, steps[k].end) : 0)
                    << "round " << round << " role " << role << " step " << k;
        }
        for (size_t k = 0; k < steps.size(); ++k) {
            const bool real = steps[k].end > steps[k].start;
            ASSERT_EQ(got.steps[k].cost[size_t(StepRole::Other)], real ? lengthWithin(free, steps[k].start, steps[k].end) : 0)
                << "round " << round << " step " << k;
            int64_t sum = 0;
            for (int64_t c : got.steps[k].cost)
                sum += c;
            ASSERT_EQ(sum, real ? steps[k].total() : 0);
        }
    }
}
