// CUDA's occupancy calculator (issue #25, core/analysis/cuda_occupancy.h) against Kineto's own
// "est. achieved occupancy %" of every kernel of real Kineto traces, on GP100, V100, A100, H100 and
// B200: the calculator fed with the kernel's args and the limits of its compute capability must
// give Kineto's integer for every kernel (reference_occupancy.py re-derives the same agreement in
// Python from deviceProperties). Then the values it gives where a trace has none (captures, Nsight
// Systems), by hand.
#include "analysis/cuda_occupancy.h"
#include "analysis/kernel_table.h"
#include "analysis/overview.h"
#include "test_util.h"

#include <cmath>
#include <filesystem>
#include <map>
#include <string>
#include <tuple>

using namespace ws;
using namespace ws::test;

namespace {

struct Agreement {
    size_t kernels = 0, agree = 0;
    size_t optInAgree = 0, bigSharedMemory = 0, bigSharedMemoryNonZero = 0;
};

Agreement agreementWithKineto(const std::string& path) {
    Agreement a;
    ImportResult r = importTraceFile(path);
    EXPECT_TRUE(r.session) << path << ": " << r.error;
    if (!r.session)
        return a;
    const std::map<int, CudaSmLimits> limits = cudaSmLimitsByDevice(*r.session);
    const KernelTable table = KernelTable::build(*r.session);
    for (const KernelRow& row : table.rows()) {
        const auto sm = limits.find(row.device);
        if (std::isnan(row.occupancy) || sm == limits.end())
            continue;
        CudaLaunch k;
        k.blocks = int64_t(row.grid[0]) * row.grid[1] * row.grid[2];
        k.threadsPerBlock = int64_t(row.block[0]) * row.block[1] * row.block[2];
        k.registersPerThread = row.registers;
        k.sharedMemoryBytes = row.sharedMemory;
        const int kineto = static_cast<int>(row.occupancy);
        ++a.kernels;
        const auto asKineto = cudaOccupancy(k, sm->second, CudaSharedMemoryLimit::Default);
        if (asKineto && asKineto->kinetoPercent() == kineto)
            ++a.agree;
        else
            ADD_FAILURE() << path << ": " << r.session->str(row.name) << " grid " << k.blocks << " block "
                          << k.threadsPerBlock << " regs " << k.registersPerThread << " smem " << k.sharedMemoryBytes
                          << ": Kineto " << kineto << " %, calculator "
                          << (asKineto ? std::to_string(asKineto->kinetoPercent()) : std::string("none"));
        const auto optIn = cudaOccupancy(k, sm->second, CudaSharedMemoryLimit::OptIn);
        if (row.sharedMemory <= 48 * 1024) {
            a.optInAgree += optIn && optIn->kinetoPercent() == kineto;
        } else {
            ++a.bigSharedMemory;
            a.bigSharedMemoryNonZero += optIn && optIn->achieved > 0;
        }
    }
    return a;
}

} // namespace

TEST(CudaOccupancy, EveryKernelOfBundledKinetoTracesAgreesWithKineto) {
    struct Case {
        const char* file;
        size_t kernels;
    };
    const Case cases[] = {
        {"h100_gaunernst_bert-small-uncased__1016001.json.gz", 60},  // H100, sm_90
        {"captures/transformer_prof6.json.gz", 2866},                // H100: cuBLASLt nvjet, bf16
        {"nccl_data_rank0.json.gz", 2700},                           // A100, sm_80: NCCL, CUTLASS
        {"step_based_trace_2543932_gpu_user_annotation.json.gz", 130}, // Quadro GP100, sm_60
        {"cuda_event_sync_trace.json.gz", 4},
        {"nccl_job/traces/nccl_job_rank0.pt.trace.json.gz", 408},
        {"gloo_job/traces/gloo_job_rank1.pt.trace.json.gz", 396},
    };
    size_t big = 0;
    for (const Case& c : cases) {
        SCOPED_TRACE(c.file);
        const Agreement a = agreementWithKineto(dataPath(c.file));
        EXPECT_EQ(a.kernels, c.kernels);
        EXPECT_EQ(a.agree, a.kernels);
        // With the opt-in limit the values change only for kernels above 48 KiB of shared memory,
        // which Kineto puts at 0 % although they ran: they get their real occupancy.
        EXPECT_EQ(a.optInAgree, a.kernels - a.bigSharedMemory);
        EXPECT_EQ(a.bigSharedMemoryNonZero, a.bigSharedMemory);
        big += a.bigSharedMemory;
    }
    EXPECT_GE(big, 500u); // cuBLASLt's and CUTLASS's GEMMs
}

TEST(CudaOccupancy, SharedTracesAgreeWithKineto) {
    // V100 (sm_70, single-precision ties such as 47.5 % -> 47), B200 (sm_100), a Qwen LLM on H100.
    const char* const files[] = {
        "pytorch-h100/resnet18_train.pt.trace.json.gz",
        "pytorch_kineto/hta/df_index_resolver_rank1_memory_nccl.json.gz",
        "pytorch_kineto/hta/ns_resolution_rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz",
        "pytorch_kineto/tracelens/b200_eager_trace.json.gz",
        "pytorch_kineto/tracelens/h100_Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz",
    };
    size_t checked = 0;
    for (const char* f : files) {
        const std::string path = sharedPath(f);
        if (!std::filesystem::exists(path))
            continue;
        SCOPED_TRACE(f);
        const Agreement a = agreementWithKineto(path);
        EXPECT_GT(a.kernels, 0u);
        EXPECT_EQ(a.agree, a.kernels);
        ++checked;
    }
    if (checked == 0)
        GTEST_SKIP() << "no shared testdata";
}

TEST(CudaOccupancy, LimitsByHand) {
    DeviceInfo h100;
    h100.vendor = DeviceInfo::Vendor::Nvidia;
    h100.numSms = 132;
    h100.computeMajor = 9;
    h100.computeMinor = 0;
    const auto sm = cudaSmLimits(h100);
    ASSERT_TRUE(sm);
    EXPECT_EQ(sm->maxThreadsPerSm, 2048);
    EXPECT_EQ(sm->maxBlocksPerSm, 32);
    EXPECT_EQ(sm->sharedMemPerSm, 228 * 1024);
    auto occ = [&](int64_t blocks, int64_t threads, int regs, int64_t smem,
                   CudaSharedMemoryLimit limit = CudaSharedMemoryLimit::OptIn) {
        return cudaOccupancy({blocks, threads, regs, smem}, *sm, limit);
    };
    // 256 threads, 40 registers: 1280 registers per warp, 12 warps per sub-partition, 48 per SM ->
    // 6 blocks (warps alone would allow 8); 1056 blocks over 132 SMs give 8, so 6 x 256 / 2048.
    auto o = occ(1056, 256, 40, 0);
    ASSERT_TRUE(o);
    EXPECT_EQ(o->activeBlocksPerSm, 6);
    EXPECT_EQ(o->limiters, CudaOccupancy::Registers);
    EXPECT_DOUBLE_EQ(o->percent(), 75.0);
    // 384 threads, 161 registers: 5376 per warp, 3 warps per sub-partition -> 1 block; 114816 B of
    // dynamic shared memory (+1 KiB reserved) -> 2 blocks; 128 blocks over 132 SMs: 0.97 given.
    o = occ(128, 384, 161, 114816);
    ASSERT_TRUE(o);
    EXPECT_EQ(o->activeBlocksPerSm, 1);
    EXPECT_NEAR(o->percent(), 100.0 * (128.0 / 132.0) * 384 / 2048, 1e-4);
    // ... which Kineto's default 48 KiB limit rejects: 0 blocks, 0 %.
    o = occ(128, 384, 161, 114816, CudaSharedMemoryLimit::Default);
    ASSERT_TRUE(o);
    EXPECT_EQ(o->activeBlocksPerSm, 0);
    EXPECT_EQ(o->kinetoPercent(), 0);
    // Small blocks hit the 32 blocks per SM; too many registers or threads per block fit nothing.
    o = occ(100000, 32, 16, 0);
    ASSERT_TRUE(o);
    EXPECT_EQ(o->activeBlocksPerSm, 32);
    EXPECT_TRUE(o->limiters & CudaOccupancy::Blocks);
    EXPECT_EQ(occ(1000, 1024, 255, 0)->activeBlocksPerSm, 0); // 1024 x 256 registers > 64 Ki per block
    EXPECT_EQ(occ(1000, 2048, 16, 0)->activeBlocksPerSm, 0);  // more threads than a block may have
    EXPECT_FALSE(occ(0, 128, 16, 0));
    // Compute capabilities with a different SM: 8.6 holds 1536 threads and 16 blocks.
    DeviceInfo ga102 = h100;
    ga102.computeMajor = 8;
    ga102.computeMinor = 6;
    const auto sm86 = cudaSmLimits(ga102);
    ASSERT_TRUE(sm86);
    EXPECT_EQ(sm86->maxThreadsPerSm, 1536);
    EXPECT_EQ(sm86->maxBlocksPerSm, 16);
    // Not NVIDIA, or no compute capability: no limits.
    DeviceInfo mi300 = h100;
    mi300.vendor = DeviceInfo::Vendor::Amd;
    EXPECT_FALSE(cudaSmLimits(mi300));
    DeviceInfo unknown = h100;
    unknown.computeMajor.reset();
    EXPECT_FALSE(cudaSmLimits(unknown));
}

// The capture of a script and a torch.profiler trace of the same script (captures/README.md): the
// capture has no Kineto value, so the kernel table computes it; it equals Kineto's for every kernel
// of the profiled steps within Kineto's 48 KiB shared-memory limit, and is above 0 for the others.
TEST(CudaOccupancy, ACaptureGetsKinetosOccupancyForTheSameKernels) {
    ImportResult cap = importTraceFile(dataPath("captures/transformer_ops_pystacks.wscap.gz"));
    ImportResult prof = importTraceFile(dataPath("captures/transformer_prof6.json.gz"));
    ASSERT_TRUE(cap.session && prof.session);
    auto byOccurrence = [](const Session& s) {
        std::map<std::pair<std::string, size_t>, KernelRow> out;
        std::map<std::string, size_t> seen;
        const KernelTable table = KernelTable::build(s);
        for (const KernelRow& r : table.rows()) {
            const std::string name(s.str(r.name));
            out.emplace(std::make_pair(name, seen[name]++), r);
        }
        return out;
    };
    const auto inCapture = byOccurrence(*cap.session);
    const auto inProfiler = byOccurrence(*prof.session);
    size_t same = 0, small = 0, big = 0;
    for (const auto& [key, k] : inProfiler) {
        const auto c = inCapture.find(key);
        ASSERT_NE(c, inCapture.end()) << key.first;
        const KernelRow& r = c->second;
        ASSERT_EQ(r.grid, k.grid) << key.first;
        ASSERT_EQ(r.block, k.block);
        ASSERT_EQ(r.registers, k.registers);
        ASSERT_EQ(r.sharedMemory, k.sharedMemory);
        ASSERT_FALSE(std::isnan(r.occupancy)) << key.first;
        if (k.sharedMemory <= 48 * 1024) {
            ++small;
            same += static_cast<int>(0.5 + r.occupancy) == static_cast<int>(k.occupancy);
        } else {
            ++big;
            EXPECT_EQ(k.occupancy, 0.0f);
            EXPECT_GT(r.occupancy, 0.0f) << key.first;
        }
    }
    EXPECT_EQ(small + big, 2866u);
    EXPECT_EQ(same, small);
    EXPECT_GT(big, 400u); // the nvjet GEMMs
}

// An Nsight Systems export has launch geometry but no occupancy: the kernel table and the Overview
// compute it. Expected values by hand for the export's 19 kernels (H200: sm_90, 132 SMs).
TEST(CudaOccupancy, NsysKernelsGetItFromTheirGeometry) {
    const std::string path = dataPath("nsys/nvfuser_report2_h200_nsys2024.6.sqlite");
    ImportResult imported = importTraceFile(path);
    ASSERT_TRUE(imported.session);
    const double k2 = 100.0 * (128.0 / 132.0) * 384 / 2048; // 1 block/SM of 384 threads, 0.97 given
    // (blocks, threads, registers, shared memory) -> %
    const std::map<std::tuple<int64_t, int64_t, int, int64_t>, double> expected = {
        {{1056, 256, 40, 0}, 75.0},   // 6 blocks by registers
        {{4096, 128, 16, 0}, 100.0},  // 16 by warps
        {{4096, 128, 30, 0}, 100.0},  {{4096, 128, 32, 0}, 100.0},
        {{4096, 128, 33, 0}, 75.0},   // 1280 registers per warp: 12 blocks
        {{8192, 128, 20, 0}, 100.0},  {{8192, 128, 22, 0}, 100.0}, {{8192, 128, 24, 0}, 100.0},
        {{8192, 128, 25, 0}, 100.0},
        {{128, 384, 161, 114816}, k2}, // 1 by registers (2 by shared memory)
        {{128, 384, 168, 213180}, k2}, // 1 by registers and by shared memory
        {{512, 512, 32, 528}, 100.0 * (512.0 / 132.0) * 512 / 2048}, // 4 by warps, 3.88 given
    };
    const KernelTable table = KernelTable::build(*imported.session);
    ASSERT_EQ(table.size(), 19u);
    double weighted = 0, total = 0;
    for (const KernelRow& r : table.rows()) {
        const auto key = std::make_tuple(int64_t(r.grid[0]) * r.grid[1] * r.grid[2], int64_t(r.block[0]) * r.block[1] * r.block[2],
                                         int(r.registers), r.sharedMemory);
        const auto e = expected.find(key);
        ASSERT_NE(e, expected.end()) << std::get<0>(key) << " " << std::get<1>(key) << " " << std::get<2>(key) << " "
                                     << std::get<3>(key);
        EXPECT_NEAR(r.occupancy, e->second, 1e-3);
        weighted += e->second * static_cast<double>(r.dur);
        total += static_cast<double>(r.dur);
    }
    const OverviewReport o = computeOverview(*imported.session);
    ASSERT_EQ(o.devices.size(), 1u);
    ASSERT_TRUE(o.devices[0].achievedOccupancy);
    EXPECT_TRUE(o.devices[0].occupancyComputed);
    EXPECT_NEAR(*o.devices[0].achievedOccupancy, weighted / total, 1e-3); // all kernels lie in the one step
}
