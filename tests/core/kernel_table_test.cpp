#include "analysis/kernel_csv.h"
#include "analysis/kernel_groups.h"
#include "analysis/kernel_table.h"
#include "analysis/trace_summary.h"
#include "test_util.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <numeric>
#include <sstream>

namespace ws {
namespace {

// Two forward ops inside a layer annotation and one backward op, each launching one kernel
// through cudaLaunchKernel with an ac2g flow; one more kernel has no launch at all.
const char* const kSynthetic = R"({"traceEvents":[
  {"ph":"X","cat":"user_annotation","name":"encoder.layer0","pid":1,"tid":1,"ts":0,"dur":100},
  {"ph":"X","cat":"cpu_op","name":"aten::linear","pid":1,"tid":1,"ts":1,"dur":50},
  {"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":2,"dur":40,
   "args":{"Input Dims":[[64, 32], [32, 16]],"Input type":["c10::Half", "c10::Half"]}},
  {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":10,"dur":5,"args":{"correlation":5}},
  {"ph":"X","cat":"cpu_op","name":"aten::relu","pid":1,"tid":1,"ts":60,"dur":20,
   "args":{"Input Dims":[[64, 16]],"Input type":["float"]}},
  {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":65,"dur":5,"args":{"correlation":6}},
  {"ph":"X","cat":"cpu_op","name":"autograd::engine::evaluate_function: MmBackward0","pid":1,"tid":2,"ts":200,"dur":50},
  {"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":2,"ts":205,"dur":40},
  {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":2,"ts":210,"dur":5,"args":{"correlation":7}},
  {"ph":"X","cat":"kernel","name":"ampere_fp16_s16816gemm_fp16_128x128_ldg8_f2f_tn","pid":0,"tid":7,"ts":20,"dur":30,
   "args":{"correlation":5,"device":0,"stream":7,"grid":[4, 2, 1],"block":[128, 1, 1],"registers per thread":96,
           "shared memory":16384,"blocks per SM":0.5,"est. achieved occupancy %":25}},
  {"ph":"X","cat":"kernel","name":"void at::native::vectorized_elementwise_kernel<4, relu, \"x\">","pid":0,"tid":7,"ts":70,"dur":10,
   "args":{"correlation":6,"device":0,"stream":7,"grid":[8, 1, 1],"block":[256, 1, 1],"registers per thread":16,
           "shared memory":0}},
  {"ph":"X","cat":"kernel","name":"ampere_fp16_s16816gemm_fp16_128x128_ldg8_f2f_tn","pid":0,"tid":7,"ts":220,"dur":50,
   "args":{"correlation":7,"device":0,"stream":7,"grid":[4, 2, 1],"block":[128, 1, 1]}},
  {"ph":"X","cat":"kernel","name":"orphan_kernel","pid":0,"tid":8,"ts":300,"dur":5,"args":{"device":0,"stream":8}},
  {"ph":"s","cat":"ac2g","id":5,"pid":1,"tid":1,"ts":10,"name":"ac2g"},
  {"ph":"f","cat":"ac2g","id":5,"pid":0,"tid":7,"ts":20,"name":"ac2g","bp":"e"},
  {"ph":"s","cat":"ac2g","id":6,"pid":1,"tid":1,"ts":65,"name":"ac2g"},
  {"ph":"f","cat":"ac2g","id":6,"pid":0,"tid":7,"ts":70,"name":"ac2g","bp":"e"},
  {"ph":"s","cat":"ac2g","id":7,"pid":1,"tid":2,"ts":210,"name":"ac2g"},
  {"ph":"f","cat":"ac2g","id":7,"pid":0,"tid":7,"ts":220,"name":"ac2g","bp":"e"}]})";

std::shared_ptr<const Session> synthetic() {
    return test::importText(kSynthetic, {}, "kernel_table.json").session;
}

std::shared_ptr<const Session> sample() {
    static std::shared_ptr<const Session> s =
        importTraceFile(test::dataPath("h100_gaunernst_bert-small-uncased__1016001.json.gz")).session;
    return s;
}

TEST(KernelTable, SyntheticAttribution) {
    auto s = synthetic();
    ASSERT_NE(s, nullptr);
    const KernelTable t = KernelTable::build(*s);
    ASSERT_EQ(t.size(), 4u);
    EXPECT_TRUE(t.argsLoaded());
    auto cell = [&](size_t r, KernelColumn c) { return t.text(*s, r, c); };
    // Rows are in start order.
    EXPECT_EQ(cell(0, KernelColumn::Operator), "aten::mm");
    EXPECT_EQ(cell(0, KernelColumn::Layer), "encoder.layer0");
    EXPECT_EQ(cell(0, KernelColumn::Direction), "fwd");
    EXPECT_EQ(cell(0, KernelColumn::Grid), "[4, 2, 1]");
    EXPECT_EQ(cell(0, KernelColumn::Block), "[128, 1, 1]");
    EXPECT_EQ(cell(0, KernelColumn::Registers), "96");
    EXPECT_EQ(cell(0, KernelColumn::SharedMemory), "16384");
    EXPECT_EQ(cell(0, KernelColumn::BlocksPerSm), "0.50");
    EXPECT_EQ(cell(0, KernelColumn::Occupancy), "25.00");
    EXPECT_EQ(cell(0, KernelColumn::TensorCores), "yes");
    EXPECT_EQ(cell(0, KernelColumn::Device), "0");
    EXPECT_EQ(cell(0, KernelColumn::Stream), "7");
    EXPECT_EQ(cell(0, KernelColumn::Duration), "30000");
    EXPECT_EQ(cell(0, KernelColumn::InputShapes), "[[64,32],[32,16]]");
    EXPECT_EQ(cell(0, KernelColumn::InputTypes), "[\"c10::Half\",\"c10::Half\"]");
    EXPECT_EQ(cell(0, KernelColumn::Flops), "65536");                 // 2 * 64 * 32 * 16
    EXPECT_EQ(cell(0, KernelColumn::Bytes), "7168");                  // (64*32 + 32*16 + 64*16) * 2
    EXPECT_EQ(cell(0, KernelColumn::GBps), "0.24");                   // 7168 B / 30000 ns
    EXPECT_EQ(cell(1, KernelColumn::Flops), "1024");                  // one op per output element
    EXPECT_EQ(cell(1, KernelColumn::Bytes), "8192");                  // read and write 1024 floats
    EXPECT_NE(t.row(0).opSlice, Track::kNoId);

    EXPECT_EQ(cell(1, KernelColumn::Operator), "aten::relu");
    EXPECT_EQ(cell(1, KernelColumn::SharedMemory), "0"); // a real zero stays zero
    EXPECT_EQ(cell(1, KernelColumn::BlocksPerSm), "");   // absent, not 0
    EXPECT_EQ(cell(1, KernelColumn::TensorCores), "no");

    EXPECT_EQ(cell(2, KernelColumn::Operator), "aten::mm");
    EXPECT_EQ(cell(2, KernelColumn::Direction), "bwd");
    EXPECT_EQ(cell(2, KernelColumn::Layer), "");
    EXPECT_EQ(cell(2, KernelColumn::Registers), "");
    EXPECT_EQ(cell(2, KernelColumn::InputShapes), ""); // the backward mm was recorded without shapes
    EXPECT_EQ(cell(2, KernelColumn::Flops), "");

    EXPECT_EQ(cell(3, KernelColumn::Kernel), "orphan_kernel");
    EXPECT_EQ(cell(3, KernelColumn::Operator), "");
    EXPECT_EQ(cell(3, KernelColumn::Direction), "");
    EXPECT_EQ(cell(3, KernelColumn::Grid), "");
    EXPECT_EQ(t.row(3).opSlice, Track::kNoId);
}

TEST(KernelTable, LaunchArgsCanBeSkipped) {
    auto s = synthetic();
    ASSERT_NE(s, nullptr);
    KernelTableOptions options;
    options.readArgs = false;
    const KernelTable t = KernelTable::build(*s, options);
    EXPECT_FALSE(t.argsLoaded());
    EXPECT_EQ(t.text(*s, 0, KernelColumn::Grid), "");
    EXPECT_EQ(t.text(*s, 0, KernelColumn::Registers), "");
    EXPECT_EQ(t.text(*s, 0, KernelColumn::Operator), "aten::mm");
}

TEST(KernelTable, CountsMatchSummary) {
    auto s = sample();
    ASSERT_NE(s, nullptr);
    const TraceSummary summary = summarizeSession(*s);
    const KernelTable t = KernelTable::build(*s);
    EXPECT_EQ(t.size(), summary.kernelCount);
    EXPECT_EQ(t.size(), 60u);
    EXPECT_EQ(t.totalNs(), summary.kernelTotalNs);
    for (size_t i = 1; i < t.size(); ++i)
        EXPECT_LE(t.row(i - 1).start, t.row(i).start);
    size_t withOp = 0;
    for (const KernelRow& r : t.rows())
        withOp += r.op != kEmptyString;
    EXPECT_GT(withOp, 0u);
}

// Reference order: stable sort of the start order with absent values last in both directions.
template <typename Key>
std::vector<uint32_t> referenceOrder(const KernelTable& t, bool descending, Key key) {
    std::vector<uint32_t> order(t.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
        const auto ka = key(t.row(a));
        const auto kb = key(t.row(b));
        if (ka.first != kb.first)
            return !ka.first; // present before absent
        if (ka.first)
            return false;
        return descending ? kb.second < ka.second : ka.second < kb.second;
    });
    return order;
}

TEST(KernelTable, SortEveryColumnMatchesStableSort) {
    auto s = sample();
    ASSERT_NE(s, nullptr);
    const KernelTable t = KernelTable::build(*s);
    using K = std::pair<bool, std::string>; // (absent, comparable text)
    auto text = [&](StringId id) { return K{id == kEmptyString, std::string(s->str(id))}; };
    auto num = [](bool absent, double v) { return std::pair<bool, double>{absent, v}; };
    auto dims = [](const std::array<int32_t, 3>& d) {
        return std::pair<bool, double>{d[0] == 0 && d[1] == 0 && d[2] == 0, double(d[0]) * d[1] * d[2]};
    };
    for (bool desc : {false, true}) {
        SCOPED_TRACE(desc ? "descending" : "ascending");
        EXPECT_EQ(t.sortedOrder(KernelColumn::Kernel, desc), referenceOrder(t, desc, [&](const KernelRow& r) { return text(r.name); }));
        EXPECT_EQ(t.sortedOrder(KernelColumn::Operator, desc), referenceOrder(t, desc, [&](const KernelRow& r) { return text(r.op); }));
        EXPECT_EQ(t.sortedOrder(KernelColumn::Layer, desc), referenceOrder(t, desc, [&](const KernelRow& r) { return text(r.layer); }));
        EXPECT_EQ(t.sortedOrder(KernelColumn::Direction, desc), referenceOrder(t, desc, [&](const KernelRow& r) {
                      return num(r.direction == KernelDirection::Unknown, double(r.direction));
                  }));
        EXPECT_EQ(t.sortedOrder(KernelColumn::Duration, desc), referenceOrder(t, desc, [&](const KernelRow& r) { return num(false, double(r.dur)); }));
        EXPECT_EQ(t.sortedOrder(KernelColumn::Start, desc), referenceOrder(t, desc, [&](const KernelRow& r) {
                      return std::pair<bool, int64_t>{false, r.start};
                  }));
        EXPECT_EQ(t.sortedOrder(KernelColumn::Device, desc), referenceOrder(t, desc, [&](const KernelRow& r) { return num(r.device < 0, r.device); }));
        EXPECT_EQ(t.sortedOrder(KernelColumn::Stream, desc), referenceOrder(t, desc, [&](const KernelRow& r) { return num(r.stream < 0, double(r.stream)); }));
        EXPECT_EQ(t.sortedOrder(KernelColumn::Grid, desc), referenceOrder(t, desc, [&](const KernelRow& r) { return dims(r.grid); }));
        EXPECT_EQ(t.sortedOrder(KernelColumn::Block, desc), referenceOrder(t, desc, [&](const KernelRow& r) { return dims(r.block); }));
        EXPECT_EQ(t.sortedOrder(KernelColumn::Registers, desc), referenceOrder(t, desc, [&](const KernelRow& r) { return num(r.registers < 0, r.registers); }));
        EXPECT_EQ(t.sortedOrder(KernelColumn::SharedMemory, desc), referenceOrder(t, desc, [&](const KernelRow& r) { return num(r.sharedMemory < 0, double(r.sharedMemory)); }));
        EXPECT_EQ(t.sortedOrder(KernelColumn::BlocksPerSm, desc), referenceOrder(t, desc, [&](const KernelRow& r) { return num(std::isnan(r.blocksPerSm), r.blocksPerSm); }));
        EXPECT_EQ(t.sortedOrder(KernelColumn::Occupancy, desc), referenceOrder(t, desc, [&](const KernelRow& r) { return num(std::isnan(r.occupancy), r.occupancy); }));
        EXPECT_EQ(t.sortedOrder(KernelColumn::TensorCores, desc), referenceOrder(t, desc, [&](const KernelRow& r) { return num(false, r.tensorCores); }));
    }
}

TEST(KernelTable, FilterByNameIsCaseInsensitiveSubstring) {
    auto s = sample();
    ASSERT_NE(s, nullptr);
    const KernelTable t = KernelTable::build(*s);
    const std::vector<uint32_t> byDur = t.sortedOrder(KernelColumn::Duration, true);
    const std::vector<uint32_t> f = t.filterByName(byDur, "GeMm");
    std::vector<uint32_t> expected;
    for (uint32_t r : byDur) {
        std::string name(s->str(t.row(r).name));
        std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return char(std::tolower(c)); });
        if (name.find("gemm") != std::string::npos)
            expected.push_back(r);
    }
    EXPECT_EQ(f, expected);
    EXPECT_EQ(t.filterByName(byDur, ""), byDur);
    EXPECT_TRUE(t.filterByName(byDur, "no such kernel name").empty());
}

TEST(KernelGroups, SumsMatchRows) {
    auto s = sample();
    ASSERT_NE(s, nullptr);
    const KernelTable t = KernelTable::build(*s);
    for (KernelGrouping g : {KernelGrouping::Name, KernelGrouping::NameOpGridBlock}) {
        const std::vector<KernelGroup> groups = groupKernels(t, g);
        uint64_t calls = 0;
        int64_t total = 0;
        double pct = 0;
        for (const KernelGroup& k : groups) {
            calls += k.calls;
            total += k.totalNs;
            pct += k.percentOfGpu;
            EXPECT_LE(k.minNs, k.maxNs);
            EXPECT_NEAR(k.meanNs * double(k.calls), double(k.totalNs), 1e-6 * double(k.totalNs) + 1);
        }
        EXPECT_EQ(calls, t.size());
        EXPECT_EQ(total, t.totalNs());
        EXPECT_NEAR(pct, 100.0, 1e-6);
        for (size_t i = 1; i < groups.size(); ++i)
            EXPECT_GE(groups[i - 1].totalNs, groups[i].totalNs);
    }
    // By name: one group per distinct name, with the per-name sums.
    std::map<StringId, std::pair<uint64_t, int64_t>> byName;
    for (const KernelRow& r : t.rows()) {
        byName[r.name].first++;
        byName[r.name].second += r.dur;
    }
    const std::vector<KernelGroup> groups = groupKernels(t, KernelGrouping::Name);
    ASSERT_EQ(groups.size(), byName.size());
    for (const KernelGroup& k : groups) {
        EXPECT_EQ(k.calls, byName[k.name].first);
        EXPECT_EQ(k.totalNs, byName[k.name].second);
    }
}

TEST(KernelGroups, ByOperatorSplitsOnLaunchingOp) {
    auto s = synthetic();
    ASSERT_NE(s, nullptr);
    const KernelTable t = KernelTable::build(*s);
    EXPECT_EQ(groupKernels(t, KernelGrouping::Name).size(), 3u);
    // The gemm is launched by aten::mm forward and backward: same op name, grid and block.
    const std::vector<KernelGroup> byOp = groupKernels(t, KernelGrouping::NameOpGridBlock);
    ASSERT_EQ(byOp.size(), 3u);
    EXPECT_EQ(byOp[0].calls, 2u);
    EXPECT_EQ(byOp[0].totalNs, 80000);
    EXPECT_EQ(byOp[0].minNs, 30000);
    EXPECT_EQ(byOp[0].maxNs, 50000);
    // Duration-weighted, the call without the values counting as 0 (torch-tb-profiler's kernel view).
    EXPECT_DOUBLE_EQ(byOp[0].meanBlocksPerSm, 0.5 * 30000 / 80000);
    EXPECT_DOUBLE_EQ(byOp[0].meanOccupancy, 25.0 * 30000 / 80000);
    EXPECT_TRUE(byOp[0].tensorCores);
    EXPECT_TRUE(std::isnan(byOp[2].meanBlocksPerSm)); // the orphan kernel has none
    // A subset of rows: only the backward gemm call.
    const std::vector<KernelGroup> sub = groupKernels(t, KernelGrouping::Name, {2});
    ASSERT_EQ(sub.size(), 1u);
    EXPECT_EQ(sub[0].totalNs, 50000);
    EXPECT_DOUBLE_EQ(sub[0].percentOfGpu, 100.0);
}

TEST(KernelCsv, QuotesFields) {
    EXPECT_EQ(csvField("plain"), "plain");
    EXPECT_EQ(csvField(""), "");
    EXPECT_EQ(csvField("a,b"), "\"a,b\"");
    EXPECT_EQ(csvField("say \"hi\""), "\"say \"\"hi\"\"\"");
    EXPECT_EQ(csvField("two\nlines"), "\"two\nlines\"");
    EXPECT_EQ(csvField(" padded"), "\" padded\"");
}

TEST(KernelCsv, RowsAndHeader) {
    auto s = synthetic();
    ASSERT_NE(s, nullptr);
    const KernelTable t = KernelTable::build(*s);
    std::vector<uint32_t> order(t.size());
    std::iota(order.begin(), order.end(), 0u);
    std::ostringstream out;
    writeKernelCsv(out, *s, t, order);
    const std::string csv = out.str();
    EXPECT_EQ(csv.substr(0, csv.find('\n')),
              "kernel,operator,layer,direction,input_shapes,input_types,duration_ns,start_ns,device,stream,grid,block,"
              "registers_per_thread,shared_memory_bytes,blocks_per_sm,est_achieved_occupancy_pct,tensor_cores,flops,"
              "bytes,achieved_tflops,achieved_gbps,graph,graph_node,flops_per_byte,bound");
    EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 5);
    EXPECT_NE(csv.find("\"void at::native::vectorized_elementwise_kernel<4, relu, \"\"x\"\">\",aten::relu,"
                       "encoder.layer0,fwd,\"[[64,16]]\",\"[\"\"float\"\"]\",10000,"),
              std::string::npos);
    std::ostringstream grouped;
    writeKernelGroupCsv(grouped, *s, groupKernels(t, KernelGrouping::NameOpGridBlock), KernelGrouping::NameOpGridBlock);
    EXPECT_EQ(grouped.str().substr(0, grouped.str().find('\n')),
              "kernel,operator,grid,block,calls,total_ns,mean_ns,min_ns,max_ns,pct_gpu_time,mean_blocks_per_sm,"
              "mean_est_achieved_occupancy_pct,tensor_cores");
    EXPECT_NE(grouped.str().find("ampere_fp16_s16816gemm_fp16_128x128_ldg8_f2f_tn,aten::mm,\"[4, 2, 1]\",\"[128, 1, 1]\",2,80000,"),
              std::string::npos);
}

TEST(KernelTable, TensorCoreHeuristicAndDims) {
    EXPECT_TRUE(kernelUsesTensorCores("sm90_xmma_gemm_f16f16_f16f32"));
    EXPECT_TRUE(kernelUsesTensorCores("cutlass_80_tensorop_s1688gemm_64x64"));
    EXPECT_TRUE(kernelUsesTensorCores("volta_h884gemm_64x64_ldg8_nn"));
    EXPECT_TRUE(kernelUsesTensorCores("nvjet_tst_128x256_64x4_1x2_h_bz_coopA_NNT"));
    EXPECT_FALSE(kernelUsesTensorCores("void at::native::elementwise_kernel<128, 2>"));
    std::array<int32_t, 3> d{};
    EXPECT_TRUE(parseDim3("[4, 2, 1]", d));
    EXPECT_EQ(d, (std::array<int32_t, 3>{4, 2, 1}));
    EXPECT_TRUE(parseDim3("[7,3]", d));
    EXPECT_EQ(d, (std::array<int32_t, 3>{7, 3, 1}));
    EXPECT_FALSE(parseDim3("x", d));
    EXPECT_FALSE(parseDim3("[]", d));
}

// ROCm traces put GPU-side annotations on the kernels' stream, and one step's annotation can start a
// nanosecond before the last one ends: the stream splits into lanes, and a flow that ends at a
// kernel's start must bind to that kernel, not to the annotation of the other lane that encloses the
// moment (TraceLens' mi300_ddp_resnet_act_checkpoint trace: 95 kernels lost their operator so).
TEST(KernelTable, AFlowEndingAtAKernelBesideAnOverlappingAnnotationBindsToTheKernel) {
    auto s = test::importText(R"({"traceEvents":[
      {"ph":"X","cat":"cpu_op","name":"aten::mul","pid":1,"tid":1,"ts":0,"dur":10},
      {"ph":"X","cat":"cuda_runtime","name":"hipLaunchKernel","pid":1,"tid":1,"ts":1,"dur":2,"args":{"correlation":1}},
      {"ph":"X","cat":"cpu_op","name":"aten::mean","pid":1,"tid":1,"ts":20,"dur":10},
      {"ph":"X","cat":"cuda_runtime","name":"hipLaunchKernel","pid":1,"tid":1,"ts":21,"dur":2,"args":{"correlation":2}},
      {"ph":"X","cat":"gpu_user_annotation","name":"forward","pid":2,"tid":0,"ts":50,"dur":60.001},
      {"ph":"X","cat":"gpu_user_annotation","name":"ProfilerStep#15","pid":2,"tid":0,"ts":110,"dur":100},
      {"ph":"X","cat":"kernel","name":"mul_kernel","pid":2,"tid":0,"ts":110.001,"dur":5,"args":{"correlation":1,"stream":0}},
      {"ph":"X","cat":"kernel","name":"mean_kernel","pid":2,"tid":0,"ts":120,"dur":5,"args":{"correlation":2,"stream":0}},
      {"ph":"s","cat":"ac2g","id":1,"pid":1,"tid":1,"ts":1,"name":"ac2g"},
      {"ph":"f","cat":"ac2g","id":1,"pid":2,"tid":0,"ts":110.001,"name":"ac2g","bp":"e"},
      {"ph":"s","cat":"ac2g","id":2,"pid":1,"tid":1,"ts":21,"name":"ac2g"},
      {"ph":"f","cat":"ac2g","id":2,"pid":2,"tid":0,"ts":120,"name":"ac2g","bp":"e"}]})",
                              {}, "overlapping_annotations.json")
                 .session;
    ASSERT_NE(s, nullptr);
    const KernelTable t = KernelTable::build(*s);
    ASSERT_EQ(t.size(), 2u);
    EXPECT_EQ(s->str(t.row(0).name), "mul_kernel");
    EXPECT_EQ(s->str(t.row(0).op), "aten::mul");
    EXPECT_EQ(s->str(t.row(1).name), "mean_kernel");
    EXPECT_EQ(s->str(t.row(1).op), "aten::mean");
}

// Durations spanning more than 2^32 ns take the (key, index) pair path of sortedOrder.
TEST(KernelTable, SortWideKeyRange) {
    auto s = test::importText(R"({"traceEvents":[
      {"ph":"X","cat":"kernel","name":"b","pid":0,"tid":7,"ts":0,"dur":5000000,"args":{"stream":7}},
      {"ph":"X","cat":"kernel","name":"a","pid":0,"tid":7,"ts":6000000,"dur":1,"args":{"stream":7}},
      {"ph":"X","cat":"kernel","name":"c","pid":0,"tid":8,"ts":6000000,"dur":5000000,"args":{"stream":8}},
      {"ph":"X","cat":"kernel","name":"d","pid":0,"tid":7,"ts":7000000,"dur":2,"args":{"stream":7}}]})",
                              {}, "kernel_wide.json")
                 .session;
    ASSERT_NE(s, nullptr);
    const KernelTable t = KernelTable::build(*s);
    ASSERT_EQ(t.size(), 4u);
    auto names = [&](const std::vector<uint32_t>& order) {
        std::string out;
        for (uint32_t r : order)
            out += s->str(t.row(r).name);
        return out;
    };
    EXPECT_EQ(names(t.sortedOrder(KernelColumn::Duration)), "adbc");
    EXPECT_EQ(names(t.sortedOrder(KernelColumn::Duration, true)), "bcda");
    EXPECT_EQ(names(t.sortedOrder(KernelColumn::Start)), "bacd");
    EXPECT_EQ(names(t.sortedOrder(KernelColumn::Start, true)), "dacb");
    EXPECT_EQ(names(t.sortedOrder(KernelColumn::Kernel, true)), "dcba");
    EXPECT_EQ(names(t.sortedOrder(KernelColumn::Operator)), "bacd"); // all absent: start order
}

// The launching operator, layer and direction of every kernel equal those found by following
// Session::flowsOf from the kernel, as the table did before it indexed the flows once.
TEST(KernelTable, AttributionMatchesFlowsOf) {
    for (const char* file : {"h100_gaunernst_bert-small-uncased__1016001.json.gz", "nccl_data_rank0.json.gz",
                             "mi300_gaunernst_bert-small-uncased__1016001.json.gz", "triton_example.json.gz"}) {
        const auto s = importTraceFile(test::dataPath(file)).session;
        ASSERT_NE(s, nullptr) << file;
        KernelTableOptions noArgs;
        noArgs.readArgs = false;
        const KernelTable t = KernelTable::build(*s, noArgs);
        size_t attributed = 0;
        for (const KernelRow& row : t.rows()) {
            StringId op = kEmptyString, layer = kEmptyString;
            KernelDirection direction = KernelDirection::Unknown;
            for (uint32_t f : s->flowsOf(row.track, row.slice)) {
                const Flow& flow = s->flows()[f];
                if (flow.toTrack != row.track || flow.toSlice != row.slice)
                    continue;
                const Track& launch = s->tracks()[flow.fromTrack];
                bool backward = false, insideOp = false;
                const std::vector<uint32_t> stack = s->ancestors(launch, flow.fromSlice);
                for (auto it = stack.rbegin(); it != stack.rend(); ++it) {
                    const EventKind kind = s->kindOf(launch, *it);
                    if (kind == EventKind::CpuOp) {
                        insideOp = true;
                        if (op == kEmptyString)
                            op = launch.names[*it];
                    } else if (kind == EventKind::UserAnnotation && layer == kEmptyString) {
                        layer = launch.names[*it];
                    }
                    const std::string_view text = s->str(launch.names[*it]);
                    if (text.rfind("autograd::engine::evaluate_function", 0) == 0 || text.find("Backward") != text.npos)
                        backward = true;
                }
                direction = backward ? KernelDirection::Backward : insideOp ? KernelDirection::Forward : KernelDirection::Unknown;
                break;
            }
            EXPECT_EQ(row.op, op) << file << " kernel at " << row.start;
            EXPECT_EQ(row.layer, layer) << file << " kernel at " << row.start;
            EXPECT_EQ(row.direction, direction) << file << " kernel at " << row.start;
            attributed += op != kEmptyString;
        }
        EXPECT_GT(attributed, 0u) << file;
    }
}

// Session::flowsOf (its index is built by a radix sort) lists, for every flow end, the flows
// starting there in index order, then those ending there in index order.
TEST(SessionFlows, FlowsOfListsEveryEndInOrder) {
    for (const char* file : {"h100_gaunernst_bert-small-uncased__1016001.json.gz", "nccl_data_rank0.json.gz"}) {
        const auto s = importTraceFile(test::dataPath(file)).session;
        ASSERT_NE(s, nullptr) << file;
        ASSERT_GT(s->flows().size(), 0u) << file;
        std::map<std::pair<uint32_t, uint32_t>, std::vector<uint32_t>> from, to;
        for (uint32_t f = 0; f < s->flows().size(); ++f) {
            from[{s->flows()[f].fromTrack, s->flows()[f].fromSlice}].push_back(f);
            to[{s->flows()[f].toTrack, s->flows()[f].toSlice}].push_back(f);
        }
        std::map<std::pair<uint32_t, uint32_t>, std::vector<uint32_t>> expected = from;
        for (const auto& [end, flows] : to)
            expected[end].insert(expected[end].end(), flows.begin(), flows.end());
        for (const auto& [end, flows] : expected)
            ASSERT_EQ(s->flowsOf(end.first, end.second), flows) << file << " track " << end.first << " slice " << end.second;
        EXPECT_TRUE(s->flowsOf(0, 0xfffffff0u).empty());
    }
}

} // namespace
} // namespace ws
