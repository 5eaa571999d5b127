// The roofline (issue #49): the GPU peaks table, kernels' number formats, the bound verdict, the
// estimates of attention, normalizations and captures' dtype-less shapes, and the roofline of a real
// transformers generate() traced and captured on an H200 (tests/data/inference/README.md).

#include "test_util.h"

#include "analysis/gpu_peaks.h"
#include "analysis/inference_steps.h"
#include "analysis/kernel_table.h"
#include "analysis/op_cost.h"
#include "analysis/pm_counters.h"
#include "analysis/roofline.h"
#include "analysis/roofline_bound.h"
#include "model/session.h"

#include <map>
#include <string>

namespace ws {
namespace {

TEST(GpuPeaks, DeviceNamesAsDriversReportThemPickTheirRow) {
    const std::map<std::string, std::string> expected = {
        {"NVIDIA H200", "NVIDIA H200 SXM"},
        {"NVIDIA H200 NVL", "NVIDIA H200 NVL"},
        {"NVIDIA GH200 480GB", "NVIDIA GH200"},
        {"NVIDIA H100 80GB HBM3", "NVIDIA H100 SXM"},
        {"NVIDIA H100 PCIe", "NVIDIA H100 PCIe"},
        {"NVIDIA H100 NVL", "NVIDIA H100 NVL"},
        {"NVIDIA B200", "NVIDIA B200"},
        {"NVIDIA A100-SXM4-80GB", "NVIDIA A100 SXM 80GB"},
        {"NVIDIA A100-SXM4-40GB", "NVIDIA A100 40GB"},
        {"NVIDIA A100 80GB PCIe", "NVIDIA A100 PCIe 80GB"},
        {"NVIDIA L40S", "NVIDIA L40S"},
        {"NVIDIA L4", "NVIDIA L4"},
        {"NVIDIA A10", "NVIDIA A10"},
        {"Tesla T4", "NVIDIA T4"},
        {"Tesla V100-SXM2-16GB", "NVIDIA V100 SXM2"},
        {"NVIDIA GeForce RTX 4090", "NVIDIA GeForce RTX 4090"},
        {"AMD Instinct MI300X", "AMD Instinct MI300X"},
        {"AMD Instinct MI250X/MI250", "AMD Instinct MI250X"},
    };
    for (const auto& [device, row] : expected) {
        const auto p = gpuPeaksFor(device);
        ASSERT_TRUE(p) << device;
        EXPECT_EQ(std::string(p->name), row) << device;
        EXPECT_GT(p->memoryGBps, 0) << device;
        EXPECT_GT(p->fp16, 0) << device;
        EXPECT_STRNE(p->source, "") << device;
    }
    // Not in the table: no guess from a similar name.
    for (const char* device : {"NVIDIA A10G", "NVIDIA L40", "NVIDIA GeForce RTX 3090", "Intel Data Center GPU Max 1550", ""})
        EXPECT_FALSE(gpuPeaksFor(device)) << device;
    EXPECT_GE(knownGpuPeaks().size(), 20u);
}

TEST(GpuPeaks, TheRoofFollowsTheFormatAndTheTensorCores) {
    const GpuPeaks h200 = *gpuPeaksFor("NVIDIA H200");
    EXPECT_DOUBLE_EQ(h200.computeTflops(NumberFormat::Fp16, true), 989.5);
    EXPECT_DOUBLE_EQ(h200.computeTflops(NumberFormat::Fp8, true), 1979);
    EXPECT_DOUBLE_EQ(h200.computeTflops(NumberFormat::Fp32, true), 494.5); // TF32
    EXPECT_DOUBLE_EQ(h200.computeTflops(NumberFormat::Fp32, false), 67);
    EXPECT_DOUBLE_EQ(h200.computeTflops(NumberFormat::Fp16, false), 67); // elementwise bf16 math runs on CUDA cores
    EXPECT_DOUBLE_EQ(h200.computeTflops(NumberFormat::Unknown, true), 989.5);
    EXPECT_DOUBLE_EQ(h200.memoryGBps, 4800);
}

TEST(GpuPeaks, KernelNamesSayTheirNumberFormat) {
    EXPECT_EQ(kernelNameFormat("void at::native::vectorized_elementwise_kernel<8, at::native::CUDAFunctor_add<c10::BFloat16>, "
                               "std::array<char*, 3ul> >(int, at::native::CUDAFunctor_add<c10::BFloat16>, std::array<char*, 3ul>)"),
              NumberFormat::Fp16);
    // The narrowest format named wins over the float compute type.
    EXPECT_EQ(kernelNameFormat("void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<at::native::"
                               "BinaryFunctor<c10::BFloat16, c10::BFloat16, c10::BFloat16, at::native::binary_internal::"
                               "MulFunctor<float> > >"),
              NumberFormat::Fp16);
    EXPECT_EQ(kernelNameFormat("void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::MeanOps<float, "
                               "float, float, float>, unsigned int, float, 4, 4> >"),
              NumberFormat::Fp32);
    EXPECT_EQ(kernelNameFormat("sm90_xmma_gemm_e4m3bf16_e4m3f32_f32_tn_n_tilesize128x128x128"), NumberFormat::Fp8);
    EXPECT_EQ(kernelNameFormat("ampere_sgemm_128x64_nn"), NumberFormat::Fp32);
    EXPECT_EQ(kernelNameFormat("cudnn_generated_fort_native_sdpa_sm90_flash_fprop_wgmma_f16_knob_7_64x128x64"), NumberFormat::Fp16);
    EXPECT_EQ(kernelNameFormat("void gemv2T_kernel_val<int, int, double, double, double, double, 128, 16, 4, 4, false>"),
              NumberFormat::Fp64);
    // cuBLASLt's nvjet names do not say it.
    EXPECT_EQ(kernelNameFormat("nvjet_sm90_tst_64x8_64x16_4x1_v_bz_TNT"), NumberFormat::Unknown);
    // The element type a capture's dtype-less shapes take: the first one a name mentions.
    EXPECT_EQ(kernelNameElementBytes("void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<bool>, "
                                     "std::array<char*, 1ul> >(int, at::native::FillFunctor<bool>, std::array<char*, 1ul>)"),
              1);
    EXPECT_EQ(kernelNameElementBytes("void at::native::reduce_kernel<512, 1, at::native::ReduceOp<long, "
                                     "at::native::func_wrapper_t<long, at::native::MaxNanFunctor<long> >, unsigned int, long, 4, 4> >"),
              8);
    EXPECT_EQ(kernelNameElementBytes("void at::native::vectorized_elementwise_kernel<8, at::native::CUDAFunctor_add<c10::BFloat16>, "
                                     "std::array<char*, 3ul> >"),
              2);
    EXPECT_EQ(kernelNameElementBytes("void at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl_nocast<"
                                     "at::native::BinaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> > >"),
              4);
    EXPECT_EQ(kernelNameElementBytes("nvjet_sm90_tst_64x8_64x16_4x1_v_bz_TNT"), 0);
    EXPECT_EQ(kernelNameElementBytes("my_interesting_kernel"), 0); // "int" inside a word is no type
    EXPECT_EQ(dtypeFormat("c10::BFloat16"), NumberFormat::Fp16);
    EXPECT_EQ(dtypeFormat("c10::Float8_e4m3fn"), NumberFormat::Fp8);
    EXPECT_EQ(dtypeFormat("long int"), NumberFormat::Unknown);
}

TEST(RooflineBound, TheRoofThatTakesLongerBoundsAKernelThatReachesIt) {
    const GpuPeaks h200 = *gpuPeaksFor("NVIDIA H200");
    // A 4096^3 bf16 GEMM in 150 us: 137 GFLOP take 139 us at 989.5 TFLOP/s, its 100 MB 21 us at 4.8 TB/s.
    const double gemm = 2.0 * 4096 * 4096 * 4096, gemmBytes = 3.0 * 4096 * 4096 * 2;
    EXPECT_EQ(classifyBound(h200, gemm, gemmBytes, 150000, NumberFormat::Fp16, true), Bound::Compute);
    EXPECT_NEAR(roofFraction(h200, gemm, gemmBytes, 150000, NumberFormat::Fp16, true), gemm / 989.5e12 / 150e-6, 1e-9);
    // A decode GEMV: 2 x 1 x 4096 x 4096 FLOPs, 32 MB of weights in 10 us (6.99 us at HBM peak).
    const double gemvBytes = 4096.0 * 4096 * 2;
    EXPECT_EQ(classifyBound(h200, 2.0 * 4096 * 4096, gemvBytes, 10000, NumberFormat::Fp16, true), Bound::Memory);
    // The same GEMV in 100 us reaches 7 % of the roof: latency, not memory.
    EXPECT_EQ(classifyBound(h200, 2.0 * 4096 * 4096, gemvBytes, 100000, NumberFormat::Fp16, true), Bound::Latency);
    // No estimate: under 5 us is latency, longer is unknown.
    EXPECT_EQ(classifyBound(h200, std::nan(""), std::nan(""), 4999, NumberFormat::Unknown, false), Bound::Latency);
    EXPECT_EQ(classifyBound(h200, std::nan(""), std::nan(""), 5000, NumberFormat::Unknown, false), Bound::Unknown);
    EXPECT_EQ(classifyBound(h200, 1, 1, 0, NumberFormat::Fp16, true), Bound::Unknown);
}

OpCost cost(std::string_view name, std::string_view dims, std::string_view types, int fallback = 0) {
    return estimateOpCost(name, parseOpInputs(dims, types, {}), fallback);
}

TEST(OpCost, AttentionCountsBothProductsOfEveryHead) {
    // SDPA [B, H, L, D]: q 4x16x64x64 against k, v with 64 keys (GQA expanded or not, the query heads count).
    const OpCost sdpa = cost("aten::_scaled_dot_product_cudnn_attention", "[[4,16,64,64],[4,16,64,64],[4,16,64,64],[]]",
                             R"(["c10::BFloat16","c10::BFloat16","c10::BFloat16",""])");
    ASSERT_TRUE(sdpa.known);
    EXPECT_DOUBLE_EQ(sdpa.flops, 2.0 * 4 * 16 * 64 * 64 * (64 + 64));
    EXPECT_DOUBLE_EQ(sdpa.bytes, 4.0 * 4 * 16 * 64 * 64 * 2);
    // A decode step: one query against a 100-token cache.
    const OpCost decode = cost("aten::scaled_dot_product_attention", "[[4,16,1,64],[4,16,100,64],[4,16,100,64]]",
                               R"(["c10::Half","c10::Half","c10::Half"])");
    EXPECT_DOUBLE_EQ(decode.flops, 2.0 * 4 * 16 * 1 * 100 * 128);
    EXPECT_DOUBLE_EQ(decode.bytes, (4.0 * 16 * 64 * 2 + 2.0 * 4 * 16 * 100 * 64) * 2);
    // FlashAttention's own operator is [B, L, H, D].
    const OpCost flash = cost("aten::_flash_attention_forward", "[[2,128,8,64],[2,128,8,64],[2,128,8,64]]",
                              R"(["c10::BFloat16","c10::BFloat16","c10::BFloat16"])");
    EXPECT_DOUBLE_EQ(flash.flops, 2.0 * 2 * 8 * 128 * 128 * 128);
    // Backward: grad_out first, twice the forward's products.
    const OpCost back = cost("aten::_scaled_dot_product_flash_attention_backward",
                             "[[4,16,64,64],[4,16,64,64],[4,16,64,64],[4,16,64,64],[4,16,64,64]]",
                             R"(["c10::BFloat16","c10::BFloat16","c10::BFloat16","c10::BFloat16","c10::BFloat16"])");
    EXPECT_DOUBLE_EQ(back.flops, 2 * sdpa.flops);
}

TEST(OpCost, NormalizationsReductionsAndCopiesMoveTheirTensors) {
    const OpCost norm = cost("aten::native_layer_norm", "[[8,1024],[],[1024],[1024],[]]",
                             R"(["float","","float","float","Scalar"])");
    ASSERT_TRUE(norm.known);
    EXPECT_DOUBLE_EQ(norm.flops, 5.0 * 8 * 1024);
    EXPECT_DOUBLE_EQ(norm.bytes, (2.0 * 8 * 1024 + 2 * 1024) * 4);
    const OpCost mean = cost("aten::mean", "[[4,64,1024],[],[],[]]", R"(["float","ScalarList","Scalar",""])");
    EXPECT_DOUBLE_EQ(mean.flops, 4.0 * 64 * 1024);
    EXPECT_DOUBLE_EQ(mean.bytes, 4.0 * 64 * 1024 * 4);
    const OpCost clone = cost("aten::clone", "[[4,1024],[]]", R"(["c10::BFloat16",""])");
    EXPECT_DOUBLE_EQ(clone.flops, 0);
    EXPECT_DOUBLE_EQ(clone.bytes, 2.0 * 4 * 1024 * 2);
    const OpCost embed = cost("aten::embedding", "[[32000,1024],[4,64],[],[],[]]", R"(["c10::BFloat16","long int","","",""])");
    EXPECT_DOUBLE_EQ(embed.bytes, 2.0 * 4 * 64 * 1024 * 2);
    EXPECT_FALSE(cost("aten::cat", "[[],[]]", R"(["TensorList","Scalar"])").known);
}

TEST(OpCost, ShapesWithoutDtypesTakeTheCallersElementSize) {
    // A capture's --torch-ops=shapes records sizes only.
    EXPECT_FALSE(cost("aten::mm", "[[256,1024],[1024,4096]]", "").known);
    const OpCost mm = cost("aten::mm", "[[256,1024],[1024,4096]]", "", 2);
    ASSERT_TRUE(mm.known);
    EXPECT_DOUBLE_EQ(mm.flops, 2.0 * 256 * 1024 * 4096);
    EXPECT_DOUBLE_EQ(mm.bytes, (256.0 * 1024 + 1024 * 4096 + 256 * 4096) * 2);
    // A recorded dtype is kept over the fallback.
    EXPECT_DOUBLE_EQ(cost("aten::mm", "[[256,1024],[1024,4096]]", R"(["float","float"])", 2).bytes, 2 * mm.bytes);
}

struct Analysed {
    std::shared_ptr<const Session> session;
    KernelTable table;
    InferenceSteps steps;
    Roofline roofline;
};

Analysed analyse(const std::string& relative) {
    Analysed a;
    ImportResult imported = importTraceFile(test::dataPath(relative));
    EXPECT_TRUE(imported.session) << relative << ": " << imported.error;
    a.session = imported.session;
    if (a.session) {
        a.table = KernelTable::build(*a.session);
        a.steps = InferenceSteps::build(*a.session, a.table);
        a.roofline = Roofline::build(*a.session, a.table, &a.steps);
    }
    return a;
}

TEST(Roofline, GenerateOnAnH200IsLatencyBoundInDecodeWithItsLmHeadOnTheMemoryRoof) {
    const Analysed a = analyse("inference/hf_eager_shapes.pt.trace.json.gz");
    ASSERT_TRUE(a.session);
    const Roofline& r = a.roofline;
    ASSERT_TRUE(r.peaks());
    EXPECT_EQ(std::string(r.peaks()->name), "NVIDIA H200 SXM");
    EXPECT_EQ(r.mainFormat(), NumberFormat::Fp16);
    EXPECT_GT(r.total().estimatedNs, r.total().totalNs * 8 / 10); // shapes cover most of the time
    // The LM head (32000 x 1024 bf16 onto 4 rows in decode): 65 MB of weights per call, on the memory roof.
    const RooflineGroup* head = nullptr;
    for (const RooflineGroup& g : r.groups())
        if (g.work.estimated > 0 && g.work.bytes / g.work.estimated > 60e6 && g.tensorCores)
            head = &g;
    ASSERT_TRUE(head);
    EXPECT_EQ(head->bound, Bound::Memory);
    EXPECT_GT(head->roofFraction, 0.5);
    // Decode's small kernels reach neither roof: the loop is latency-bound, as a 5 % busy GPU says.
    uint32_t latency = 0, calls = 0;
    for (const RooflineGroup& g : r.groups()) {
        latency += g.callsByBound[static_cast<size_t>(Bound::Latency)];
        calls += g.work.kernels;
    }
    EXPECT_GT(latency, calls * 8 / 10);
    ASSERT_EQ(r.phases().size(), 2u);
    const RooflinePhase& prefill = r.phases()[0];
    const RooflinePhase& decode = r.phases()[1];
    EXPECT_EQ(prefill.phase, InferencePhase::Prefill);
    EXPECT_EQ(prefill.steps, 2u);
    EXPECT_EQ(decode.steps, 46u);
    // Prefill does 64 times decode's work per forward on 64 tokens: its MFU is far higher.
    EXPECT_GT(prefill.mfu, 20 * decode.mfu);
    EXPECT_GT(decode.mbu, decode.mfu);
    EXPECT_LT(prefill.mfu, 0.05);
    ASSERT_EQ(r.stepMfu().size(), a.steps.steps().size());
    EXPECT_TRUE(std::isnan(decode.measured[0])); // a trace has no PM sampling
}

// The same program captured with --torch-ops=shapes (sizes, no dtypes) and PM sampling: its kernels'
// estimates equal the torch.profiler trace's, call for call, with the dtype the kernels' names say; and
// decode's estimated bytes match what the DRAM counters measured.
TEST(Roofline, ACaptureWithShapesAloneEstimatesAsTheTraceWithDtypesDoes) {
    const Analysed capture = analyse("inference/hf_pm_shapes.wscap.gz");
    const Analysed trace = analyse("inference/hf_eager_shapes.pt.trace.json.gz");
    ASSERT_TRUE(capture.session && trace.session);
    std::map<std::string, std::pair<double, double>> perCall; // kernel name -> flops, bytes of one estimated call
    for (const RooflineGroup& g : trace.roofline.groups())
        if (g.work.estimated > 0)
            perCall[std::string(trace.session->str(g.name))] = {g.work.flops / g.work.estimated, g.work.bytes / g.work.estimated};
    // FLOPs need no dtype: every kernel name's equal. Bytes: a GEMM's and attention's (one dtype) are
    // equal; of the elementwise kernels, those of one dtype, so the totals are close but casts differ.
    size_t compared = 0, gemms = 0;
    double bytes = 0, traceBytes = 0;
    for (const RooflineGroup& g : capture.roofline.groups()) {
        const auto it = perCall.find(std::string(capture.session->str(g.name)));
        if (it == perCall.end() || g.work.estimated == 0)
            continue;
        ++compared;
        EXPECT_NEAR(g.work.flops / g.work.estimated, it->second.first, 1e-3 * it->second.first + 1) << it->first;
        bytes += g.work.bytes;
        traceBytes += it->second.second * g.work.estimated;
        if (g.tensorCores) {
            ++gemms;
            EXPECT_NEAR(g.work.bytes / g.work.estimated, it->second.second, 1e-3 * it->second.second + 1) << it->first;
        }
    }
    EXPECT_GE(compared, 20u);
    EXPECT_GE(gemms, 5u);
    EXPECT_NEAR(bytes, traceBytes, 0.05 * traceBytes);
    ASSERT_EQ(capture.roofline.phases().size(), 2u);
    const RooflinePhase& decode = capture.roofline.phases()[1];
    ASSERT_FALSE(std::isnan(decode.measured[static_cast<size_t>(PmCounter::DramBandwidth)]));
    const double measured = decode.measured[static_cast<size_t>(PmCounter::DramBandwidth)] / 100;
    EXPECT_GT(decode.mbu, measured / 2);
    EXPECT_LT(decode.mbu, measured * 2);
}

TEST(Roofline, ATraceFromAGpuTheTableLacksHasNoVerdictUnlessAPeaksRowIsGiven) {
    const Analysed a = analyse("inference/graph_shapes.pt.trace.json.gz");
    ASSERT_TRUE(a.session);
    RooflineOptions options;
    options.peaks = gpuPeaksFor("NVIDIA A100-SXM4-80GB");
    const Roofline r = Roofline::build(*a.session, a.table, &a.steps, options);
    ASSERT_TRUE(r.peaks());
    EXPECT_EQ(std::string(r.peaks()->name), "NVIDIA A100 SXM 80GB");
    EXPECT_DOUBLE_EQ(r.mfuPeakTflops(), 312);
}

} // namespace
} // namespace ws
