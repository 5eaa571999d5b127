// The `host` activity (issue #13, part): CPU use of the traced process and of its DataLoader worker
// processes, its RSS and the host's used memory, as counters of the traced process.
#include "analysis/overview.h"
#include "analysis/recommendations.h"
#include "test_util.h"

#include <algorithm>
#include <map>

using namespace ws;
using namespace ws::test;

TEST(CaptureHost, ProcessAndWorkerCpuAndMemoryAreCountersOfTheProcess) {
    // capture/samples/dataloader_step.py (2 DataLoader workers doing CPU work per sample) under the
    // default capture on an H100: capture/samples/device_host.sh.
    ImportResult r = importTraceFile(dataPath("captures/dataloader_host.wscap.gz"));
    ASSERT_TRUE(r.session) << r.error;
    const Session& s = *r.session;
    std::map<std::string, const CounterSeries*> host;
    for (const CounterSeries& c : s.counters())
        if (s.str(c.category) == "host") {
            host[std::string(s.str(c.name))] = &c;
            EXPECT_LT(s.processes()[c.process].deviceId, 0) << "host counters belong to the host process";
            // ... the one whose threads launched the work, drawn in its group.
            EXPECT_TRUE(std::any_of(s.tracks().begin(), s.tracks().end(), [&](const Track& t) {
                return t.process == c.process && t.kind == Track::Kind::Thread && t.sliceCount() > 0;
            }));
        }
    ASSERT_EQ(host.size(), 4u);
    auto peak = [&](const char* name) {
        const auto& v = host.at(name)->value;
        return v.empty() ? 0.0 : *std::max_element(v.begin(), v.end());
    };
    EXPECT_GT(peak("host_cpu_process"), 20.0);  // % of one core
    EXPECT_GT(peak("host_cpu_children"), 20.0); // the workers' augmentation
    EXPECT_GT(peak("host_rss"), 500e6);         // torch + CUDA context
    EXPECT_GT(peak("host_memory_used"), peak("host_rss"));
    EXPECT_GE(host.at("host_cpu_process")->ts.size(), 20u);
}

TEST(CaptureHost, BusyWorkersWithAnIdleGpuAreARecommendation) {
    ImportResult r = importTraceFile(dataPath("captures/dataloader_host.wscap.gz"));
    ASSERT_TRUE(r.session) << r.error;
    const OverviewReport rep = computeOverview(*r.session);
    const auto busy = std::find_if(rep.recommendations.begin(), rep.recommendations.end(), [](const Recommendation& x) {
        return x.kind == RecommendationKind::BusyDataLoaderWorkers;
    });
    ASSERT_NE(busy, rep.recommendations.end());
    EXPECT_GE(busy->cpuPercent, kBusyWorkersCpuPercent);
    EXPECT_LT(busy->share, kLowGpuUtilizationThreshold);
    // Without host counters (an older capture) there is nothing to say.
    ImportResult old = importTraceFile(dataPath("captures/resnet18.wscap.gz"));
    ASSERT_TRUE(old.session) << old.error;
    for (const Recommendation& x : computeOverview(*old.session).recommendations)
        EXPECT_NE(x.kind, RecommendationKind::BusyDataLoaderWorkers);
}
