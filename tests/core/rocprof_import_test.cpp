// rocprofiler-sdk JSON import (issue #17): the real MI350X kernel trace in tests/data/rocprof
// (numbers cross-checked by tests/core/reference_rocprof.py through cli.rocprof_matches_reference),
// and documents written here in the schema rocprofiler-sdk's serializer uses for the record kinds
// that file lacks (HIP calls with launch flows, roctx ranges, copies, allocations).
#include "analysis/amd_occupancy.h"
#include "analysis/overview.h"
#include "analysis/trace_summary.h"
#include "import/rocprof_importer.h"
#include "test_util.h"

#include <nlohmann/json.hpp>

#include <zlib.h>

using namespace ws;
using namespace ws::test;

namespace {

const char* kReal = "rocprof/rocprofiler-sdk_908_results.json.gz";

const Track* trackNamed(const Session& s, const std::string& label) {
    for (const Track& t : s.tracks())
        if (s.trackLabel(t) == label)
            return &t;
    return nullptr;
}

// One process on one MI300X (agent 5) and one CPU (agent 4): a hipLaunchKernel and its dispatch,
// a hipMemcpy and its copy, a roctx range, a hipMalloc/hipFree pair.
std::string syntheticDocument() {
    using J = nlohmann::json;
    J strings;
    strings["buffer_records"] = J::array();
    auto kind = [&](const std::string& name, std::vector<std::string> ops) {
        strings["buffer_records"].push_back({{"kind", name}, {"operations", ops}});
    };
    kind("NONE", {});
    kind("HIP_RUNTIME_API_EXT", {"hipMalloc", "hipFree", "hipMemcpy", "hipLaunchKernel"});
    kind("MARKER_CORE_RANGE_API", {"roctxMarkA", "roctxThreadRangeA"});
    kind("MEMORY_COPY", {"MEMORY_COPY_NONE", "MEMORY_COPY_HOST_TO_HOST", "MEMORY_COPY_HOST_TO_DEVICE"});
    kind("KERNEL_DISPATCH", {"KERNEL_DISPATCH_NONE", "KERNEL_DISPATCH_ENQUEUE", "KERNEL_DISPATCH_COMPLETE"});
    kind("MEMORY_ALLOCATION", {"MEMORY_ALLOCATION_NONE", "MEMORY_ALLOCATION_ALLOCATE", "MEMORY_ALLOCATION_VMEM_ALLOCATE",
                               "MEMORY_ALLOCATION_FREE"});
    strings["marker_api"] = J::array({{{"key", 40}, {"value", "forward"}}});
    auto corr = [](int internal) { return J{{"internal", internal}, {"external", 0}, {"ancestor", 0}}; };
    auto call = [&](int op, int c, int64_t start, int64_t end) {
        return J{{"size", 72}, {"kind", 1}, {"operation", op}, {"correlation_id", corr(c)},
                 {"start_timestamp", start}, {"end_timestamp", end}, {"thread_id", 1001},
                 {"args", J::array()}, {"retval", {{"uint64_t_retval", 0}}}, {"stream_id", {{"handle", 1}}}};
    };
    J agents = J::array({
        {{"id", {{"handle", 4}}}, {"type", 1}, {"gpu_index", -1}, {"name", "AMD EPYC"}, {"product_name", "AMD EPYC"},
         {"cu_count", 64}, {"wave_front_size", 0}, {"simd_per_cu", 0}, {"max_waves_per_simd", 0}},
        {{"id", {{"handle", 5}}}, {"type", 2}, {"gpu_index", 0}, {"logical_node_type_id", 0}, {"name", "gfx942"},
         {"product_name", "AMD Instinct MI300X"}, {"cu_count", 304}, {"simd_per_cu", 4}, {"max_waves_per_simd", 8},
         {"max_waves_per_cu", 32}, {"wave_front_size", 64}, {"lds_size_in_kb", 64}, {"gfx_target_version", 90402},
         {"local_mem_size", 0}},
    });
    J symbols = J::array({{{"kernel_id", 1}, {"kernel_name", "_Z4gemmv.kd"}, {"formatted_kernel_name", "gemm()"},
                           {"demangled_kernel_name", "gemm() [clone .kd]"}, {"sgpr_count", 32}, {"arch_vgpr_count", 64},
                           {"accum_vgpr_count", 64}, {"group_segment_size", 16384}, {"private_segment_size", 0}}});
    J buffers;
    buffers["hip_api"] = J::array({call(0, 10, 1000, 1500), call(3, 20, 2000, 2100), call(2, 30, 3000, 3400),
                                   call(1, 50, 9000, 9100)});
    buffers["marker_api"] = J::array({{{"size", 64}, {"kind", 2}, {"operation", 1}, {"correlation_id", corr(40)},
                                       {"start_timestamp", 1900}, {"end_timestamp", 3500}, {"thread_id", 1001}}});
    buffers["kernel_dispatch"] = J::array({{{"size", 184}, {"kind", 4}, {"operation", 2}, {"thread_id", 1001},
                                            {"correlation_id", {{"internal", 20}, {"external", 0}}},
                                            {"start_timestamp", 2500}, {"end_timestamp", 4500},
                                            {"dispatch_info",
                                             {{"agent_id", {{"handle", 5}}}, {"queue_id", {{"handle", 3}}},
                                              {"kernel_id", 1}, {"dispatch_id", 1}, {"private_segment_size", 0},
                                              {"group_segment_size", 16384},
                                              {"workgroup_size", {{"x", 256}, {"y", 1}, {"z", 1}}},
                                              {"grid_size", {{"x", 256 * 608}, {"y", 1}, {"z", 1}}}}},
                                            {"stream_id", {{"handle", 1}}}}});
    buffers["memory_copy"] = J::array({{{"size", 96}, {"kind", 3}, {"operation", 2}, {"thread_id", 1001},
                                        {"correlation_id", {{"internal", 30}, {"external", 0}}},
                                        {"start_timestamp", 3100}, {"end_timestamp", 3300},
                                        {"dst_agent_id", {{"handle", 5}}}, {"src_agent_id", {{"handle", 4}}},
                                        {"bytes", 1048576}, {"stream_id", {{"handle", 1}}}}});
    buffers["memory_allocation"] =
        J::array({{{"size", 96}, {"kind", 5}, {"operation", 1}, {"thread_id", 1001}, {"correlation_id", corr(10)},
                   {"start_timestamp", 1100}, {"end_timestamp", 1400}, {"agent_id", {{"handle", 5}}},
                   {"address", "0x00007f0000001000"}, {"allocation_size", 4194304}, {"stream_id", {{"handle", 0}}}},
                  {{"size", 96}, {"kind", 5}, {"operation", 3}, {"thread_id", 1001}, {"correlation_id", corr(50)},
                   {"start_timestamp", 9050}, {"end_timestamp", 9060}, {"agent_id", {{"handle", 0}}},
                   {"address", "0x00007f0000001000"}, {"allocation_size", 0}, {"stream_id", {{"handle", 0}}}}});
    J tool = {{"metadata", {{"pid", 4242}, {"command", {"python3", "train.py"}}}},
              {"agents", agents},
              {"strings", strings},
              {"kernel_symbols", symbols},
              {"buffer_records", buffers}};
    return J{{"rocprofiler-sdk-tool", J::array({tool})}}.dump(1);
}

std::string gzipText(const std::string& text) {
    z_stream z{};
    deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
    std::string out(compressBound(static_cast<uLong>(text.size())) + 64, '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
    z.avail_in = static_cast<uInt>(text.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    deflate(&z, Z_FINISH);
    out.resize(z.total_out);
    deflateEnd(&z);
    return out;
}

} // namespace

TEST(RocprofImport, RealMi350xKernelTrace) {
    const std::string path = dataPath(kReal);
    EXPECT_EQ(detectFormat(path), TraceFormat::RocprofJson);
    const ImportResult r = importTraceFile(path);
    ASSERT_TRUE(r.session) << r.error;
    const Session& s = *r.session;
    EXPECT_EQ(s.format(), TraceFormat::RocprofJson);
    const TraceSummary sum = summarizeSession(s);
    EXPECT_EQ(sum.kernelCount, 43915u);
    ASSERT_EQ(s.devices().size(), 8u);
    EXPECT_EQ(s.devices()[0].name, "AMD Instinct MI350X");
    EXPECT_EQ(s.devices()[0].numSms, 256);
    EXPECT_EQ(deviceVendor(s.devices()[0]), DeviceInfo::Vendor::Amd);
    EXPECT_FALSE(s.report().truncated());
    EXPECT_EQ(s.report().warningCount(), 0u) << s.report().toText();
    // A row per hardware queue of GPU 0; kernel names demangled without the ".kd" suffix.
    const Track* q18 = trackNamed(s, "queue 18");
    ASSERT_TRUE(q18);
    EXPECT_TRUE(q18->gpu);
    bool sawSuffix = false;
    for (const Track& t : s.tracks())
        for (size_t i = 0; i < t.sliceCount(); ++i)
            sawSuffix = sawSuffix || s.str(t.names[i]).ends_with(".kd");
    EXPECT_FALSE(sawSuffix);
    // The Overview speaks of compute units and wavefronts, with numbers.
    const OverviewReport ov = computeOverview(s);
    ASSERT_FALSE(ov.devices.empty());
    EXPECT_TRUE(ov.devices[0].amd);
    ASSERT_TRUE(ov.devices[0].achievedOccupancy);
    EXPECT_GT(*ov.devices[0].achievedOccupancy, 0.0);
    EXPECT_LT(*ov.devices[0].achievedOccupancy, 100.0);
    ASSERT_TRUE(ov.devices[0].smEfficiency);
}

// nlohmann::json writes keys sorted, so this document has its tables after its events: the importer
// reads it a second time with the tables known.
TEST(RocprofImport, CallsMarkersCopiesAndAllocations) {
    const std::string path = writeTemp("synthetic_rocprof.json", syntheticDocument());
    const ImportResult r = importTraceFile(path);
    ASSERT_TRUE(r.session) << r.error;
    const Session& s = *r.session;
    EXPECT_EQ(s.report().warningCount(), 0u) << s.report().toText();

    const Track* host = trackNamed(s, "thread 1001");
    ASSERT_TRUE(host);
    std::map<std::string, size_t> hostSlices;
    for (size_t i = 0; i < host->sliceCount(); ++i)
        hostSlices[std::string(s.str(host->names[i]))] = i;
    ASSERT_TRUE(hostSlices.count("hipLaunchKernel"));
    ASSERT_TRUE(hostSlices.count("forward")) << "the roctx range is named by its message";
    EXPECT_EQ(s.kindOf(*host, hostSlices["forward"]), EventKind::UserAnnotation);
    EXPECT_EQ(s.kindOf(*host, hostSlices["hipLaunchKernel"]), EventKind::Runtime);

    // The launch and the copy call each have a flow to their GPU work, nothing else does.
    ASSERT_EQ(s.flows().size(), 2u);
    const Track* queue = trackNamed(s, "queue 3");
    ASSERT_TRUE(queue);
    ASSERT_EQ(queue->sliceCount(), 1u);
    EXPECT_EQ(s.str(queue->names[0]), "gemm()");
    const auto launchFlows = s.flowsOf(static_cast<uint32_t>(queue - s.tracks().data()), 0);
    ASSERT_EQ(launchFlows.size(), 1u);
    const Flow& f = s.flows()[launchFlows[0]];
    EXPECT_EQ(&s.tracks()[f.fromTrack], host);
    EXPECT_EQ(s.str(host->names[f.fromSlice]), "hipLaunchKernel");

    // Kernel arguments in Kineto's terms: grid in workgroups, block in work-items.
    const auto args = s.args(*queue, 0);
    std::map<std::string, std::string> a(args.begin(), args.end());
    EXPECT_EQ(a["grid"], "[608,1,1]");
    EXPECT_EQ(a["block"], "[256,1,1]");
    EXPECT_EQ(a["registers per thread"], "128");
    EXPECT_EQ(a["shared memory"], "16384");
    // 608 workgroups on 304 CUs; 128 VGPRs allow 4 waves per SIMD, 16 per CU, four 4-wave groups, but
    // LDS (64 KB / 16 KB) allows 4 too, and each CU gets 2: 2 x 4 / 32 waves = 25 %.
    ASSERT_FALSE(queue->blocksPerSm.empty());
    EXPECT_FLOAT_EQ(queue->blocksPerSm[0], 2.0f);
    ASSERT_FALSE(queue->occupancy.empty());
    EXPECT_FLOAT_EQ(queue->occupancy[0], 25.0f);

    const Track* copies = trackNamed(s, "memory copies");
    ASSERT_TRUE(copies);
    ASSERT_EQ(copies->sliceCount(), 1u);
    EXPECT_EQ(s.str(copies->names[0]), "Memcpy HtoD");
    EXPECT_EQ(copies->bytes[0], 1048576);

    // hipMalloc then hipFree of the same address (the FREE record names only the address).
    ASSERT_EQ(s.memoryEvents().size(), 2u);
    EXPECT_EQ(s.memoryEvents()[0].bytes, 4194304);
    EXPECT_EQ(s.memoryEvents()[0].totalAllocated, 4194304);
    EXPECT_EQ(s.memoryEvents()[1].bytes, -4194304);
    EXPECT_EQ(s.memoryEvents()[1].totalAllocated, 0);
    EXPECT_EQ(s.memoryEvents()[1].deviceId, 0);

    // The same document gzipped is the same session.
    const ImportResult z = importTraceFile(writeTemp("synthetic_rocprof.json.gz", gzipText(syntheticDocument())));
    ASSERT_TRUE(z.session) << z.error;
    EXPECT_EQ(z.session->format(), TraceFormat::RocprofJson);
    EXPECT_EQ(summarizeSession(*z.session).kernelCount, 1u);
}

TEST(RocprofImport, ACutFileImportsTheRecordsBeforeTheCut) {
    const std::string doc = syntheticDocument();
    const std::string cut = doc.substr(0, doc.find("\"memory_copy\""));
    const ImportResult r = importTraceFile(writeTemp("cut_rocprof.json", cut));
    ASSERT_TRUE(r.session) << r.error;
    EXPECT_TRUE(r.session->report().truncated());
    EXPECT_EQ(summarizeSession(*r.session).kernelCount, 1u);
}

TEST(RocprofImport, BadRecordsAreCountedNotFatal) {
    std::string doc = syntheticDocument();
    // A dispatch without times and a record that is not an object.
    const std::string dispatches = "\"kernel_dispatch\": [";
    doc.insert(doc.find(dispatches) + dispatches.size(), R"({"size": 1, "dispatch_info": {}}, [1, 2], )");
    const ImportResult r = importTraceFile(writeTemp("bad_rocprof.json", doc));
    ASSERT_TRUE(r.session) << r.error;
    EXPECT_EQ(r.session->report().count("record without start or end time (skipped)"), 1u) << r.session->report().toText();
    EXPECT_EQ(summarizeSession(*r.session).kernelCount, 1u);
}

TEST(RocprofImport, JsonThatIsNotRocprofIsNotMistaken) {
    EXPECT_TRUE(looksLikeRocprofJson(" {\n \"rocprofiler-sdk-tool\": ["));
    EXPECT_FALSE(looksLikeRocprofJson("{\"traceEvents\": [], \"rocprofiler-sdk-tool\": 1}"));
    EXPECT_EQ(detectFormat(writeTemp("chrome.json", R"({"traceEvents": []})")), TraceFormat::ChromeJson);
}

TEST(AmdOccupancy, LimitsAndMissingInputs) {
    const AmdComputeUnit mi300{304, 4, 8, 32, 64, 64 * 1024};
    AmdKernelShape k;
    k.workgroupSize = 256;
    k.workgroups = 304 * 100; // plenty of groups: the register file decides
    k.archVgprs = 32;         // 32 VGPRs: 16 waves per SIMD allowed, capped at 8
    EXPECT_DOUBLE_EQ(*amdOccupancyPercent(k, mi300), 100.0);
    k.archVgprs = 128; // 4 waves per SIMD: 16 of 32 slots
    EXPECT_DOUBLE_EQ(*amdOccupancyPercent(k, mi300), 50.0);
    k.ldsBytes = 48 * 1024; // one group per CU fits in 64 KB LDS: 4 waves of 32
    EXPECT_DOUBLE_EQ(*amdOccupancyPercent(k, mi300), 12.5);
    k.ldsBytes = 0;
    k.workgroups = 152; // half the CUs get a group
    EXPECT_DOUBLE_EQ(*amdOccupancyPercent(k, mi300), 100.0 * 0.5 * 4 / 32);
    k.workgroupSize = 0;
    EXPECT_FALSE(amdOccupancyPercent(k, mi300));
}

TEST(AmdKineto, DevicePropertiesFollowRocmAgentNumbers) {
    // Kineto on ROCm files GPU 0's kernels under pid 2 (its agent) but lists it as deviceProperties id 0.
    const ImportResult r = importTraceFile(dataPath("mi300_gaunernst_bert-small-uncased__1016001.json.gz"));
    ASSERT_TRUE(r.session) << r.error;
    const OverviewReport ov = computeOverview(*r.session);
    ASSERT_EQ(ov.devices.size(), 1u);
    EXPECT_EQ(ov.devices[0].id, 2);
    EXPECT_EQ(ov.devices[0].name, "AMD Instinct MI300X VF");
    EXPECT_EQ(ov.devices[0].smCount, 304);
    EXPECT_TRUE(ov.devices[0].amd);
    EXPECT_FALSE(ov.devices[0].achievedOccupancy) << "Kineto on ROCm has no register counts";
}
