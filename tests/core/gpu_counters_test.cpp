#include "analysis/gpu_counters.h"
#include "model/session.h"
#include "test_util.h"

#include <gtest/gtest.h>

using namespace ws;

namespace {

const DerivedCounter* find(const std::vector<DerivedCounter>& v, const std::string& name) {
    for (const auto& c : v)
        if (c.name == name)
            return &c;
    return nullptr;
}

// Value of a step series at time t.
double at(const DerivedCounter& c, int64_t t) {
    double v = 0;
    for (size_t i = 0; i < c.ts.size() && c.ts[i] <= t; ++i)
        v = c.value[i];
    return v;
}

} // namespace

TEST(DerivedCounters, UtilizationBucketsSmEfficiencyAndMemory) {
    // Device 0: kernel A [0,100) us with 0.5 blocks/SM, kernel B [50,150) us with 0.75 overlapping it,
    // nothing until a marker at 1000 us. Memory totals on the host thread.
    auto r = test::importText(R"({"traceEvents":[
      {"ph":"M","name":"process_labels","pid":0,"args":{"labels":"GPU 0"}},
      {"ph":"X","cat":"kernel","name":"A","pid":0,"tid":7,"ts":0,"dur":100,"args":{"device":0,"blocks per SM":0.5}},
      {"ph":"X","cat":"kernel","name":"B","pid":0,"tid":8,"ts":50,"dur":100,"args":{"device":0,"blocks per SM":0.75}},
      {"ph":"X","cat":"cpu_op","name":"op","pid":9,"tid":9,"ts":0,"dur":1000},
      {"ph":"i","s":"t","cat":"cpu_instant_event","name":"[memory]","pid":9,"tid":9,"ts":10,
       "args":{"Device Type":1,"Device Id":0,"Addr":1,"Bytes":100,"Total Allocated":100,"Total Reserved":200}},
      {"ph":"i","s":"t","cat":"cpu_instant_event","name":"[memory]","pid":9,"tid":9,"ts":20,
       "args":{"Device Type":1,"Device Id":0,"Addr":2,"Bytes":50,"Total Allocated":150,"Total Reserved":200}}
    ]})", {}, "derived.json");
    ASSERT_NE(r.session, nullptr) << r.error;
    const Session& s = *r.session;
    const auto counters = deriveCounters(s);

    const DerivedCounter* util = find(counters, "GPU Utilization");
    ASSERT_NE(util, nullptr);
    // 1000 us range: 10 us buckets give 100 buckets. Busy [0,150) us: full buckets then idle.
    EXPECT_DOUBLE_EQ(at(*util, s.startNs() + 5'000), 1.0);
    EXPECT_DOUBLE_EQ(at(*util, s.startNs() + 145'000), 1.0);
    EXPECT_DOUBLE_EQ(at(*util, s.startNs() + 500'000), 0.0);
    EXPECT_LE(util->ts.size(), 102u);

    const DerivedCounter* sm = find(counters, "Est. SM Efficiency");
    ASSERT_NE(sm, nullptr);
    EXPECT_DOUBLE_EQ(at(*sm, s.startNs() + 25'000), 0.5);
    EXPECT_DOUBLE_EQ(at(*sm, s.startNs() + 75'000), 1.0); // 0.5 + 0.75 capped at 1
    EXPECT_DOUBLE_EQ(at(*sm, s.startNs() + 125'000), 0.75);
    EXPECT_DOUBLE_EQ(at(*sm, s.startNs() + 200'000), 0.0);

    const DerivedCounter* allocated = find(counters, "GPU Memory Allocated");
    ASSERT_NE(allocated, nullptr);
    EXPECT_EQ(allocated->unit, DerivedCounter::Unit::Bytes);
    EXPECT_EQ(allocated->value, (std::vector<double>{100, 150}));
    // The row goes under the device's process, not the allocating host process.
    EXPECT_EQ(s.processes()[allocated->process].deviceId, 0);
    ASSERT_NE(find(counters, "GPU Memory Reserved"), nullptr);
}

TEST(DerivedCounters, AnAmdGpuSaysComputeUnits) {
    // rocprofiler-sdk on MI350X: workgroups per compute unit from the grid and the agents' CU counts.
    auto r = importTraceFile(test::dataPath("rocprof/rocprofiler-sdk_908_results.json.gz"));
    ASSERT_NE(r.session, nullptr) << r.error;
    const auto counters = deriveCounters(*r.session);
    EXPECT_NE(find(counters, "Est. CU Efficiency"), nullptr);
    EXPECT_EQ(find(counters, "Est. SM Efficiency"), nullptr);
    // The same workload on an H100 keeps NVIDIA's name.
    auto h = importTraceFile(test::dataPath("h100_gaunernst_bert-small-uncased__1016001.json.gz"));
    ASSERT_NE(h.session, nullptr) << h.error;
    EXPECT_NE(find(deriveCounters(*h.session), "Est. SM Efficiency"), nullptr);
}
