#pragma once

#include <optional>
#include <string_view>
#include <vector>

namespace ws {

/*
 * The number format a kernel computes in, as far as a roofline needs it: which peak applies and
 * how many bytes an element takes. 16-bit covers fp16 and bf16 (the same peak on every GPU in the
 * table); Fp32 on Tensor Cores means TF32.
 */
enum class NumberFormat : unsigned char { Unknown, Fp64, Fp32, Fp16, Fp8 };

const char* numberFormatName(NumberFormat f); // "fp64", "fp32", "fp16/bf16", "fp8", ""
int numberFormatBytes(NumberFormat f);        // 8, 4, 2, 1; 0 when unknown

// The number format a kernel's name says (template arguments such as c10::BFloat16 or float,
// library tags such as bf16, f16, e4m3, sgemm). The narrowest one named wins: elementwise kernels of
// bf16 tensors name float as their compute type too. cuBLASLt's nvjet names say none (their letters
// differ between kernels of the same bf16 GEMMs), nor do many cuDNN and Triton kernels: Unknown.
NumberFormat kernelNameFormat(std::string_view name);
// Bytes per element of the data a kernel's name says it works on: the first element type named in it
// (template arguments: "FillFunctor<bool>" 1, "ReduceOp<long, ..." 8, "CUDAFunctor_add<c10::BFloat16>"
// 2, "{lambda(float)#1}" 4); 0 when it names none (cuBLASLt's nvjet, cuDNN's generated kernels).
int kernelNameElementBytes(std::string_view name);
// The number format of a Kineto dtype name ("c10::BFloat16", "float", "c10::Float8_e4m3fn").
NumberFormat dtypeFormat(std::string_view type);

/*
 * GpuPeaks: a GPU's datasheet peaks, dense (no structured sparsity), at boost clock, in TFLOP/s and
 * GB/s. 0 means the datasheet gives none (no FP8 before Hopper and CDNA3). The table is in
 * gpu_peaks.cpp with the source of every row. Sustained clocks under load are lower, so achieved
 * fractions read as fractions of the datasheet, as Nsight Compute's and MFU's usual definition do.
 */
struct GpuPeaks {
    const char* name = "";       // "NVIDIA H200 SXM"
    double fp64 = 0;             // vector FP64
    double fp32 = 0;             // vector FP32 (CUDA cores / stream processors)
    double tf32 = 0;             // Tensor Core / matrix core TF32 (XF32 on CDNA3)
    double fp16 = 0;             // Tensor Core / matrix core FP16 and BF16, FP32 accumulate
    double fp8 = 0;              // Tensor Core / matrix core FP8
    double memoryGBps = 0;       // HBM / GDDR bandwidth
    const char* source = "";     // where the figures come from

    // The compute roof of a kernel in this format, on Tensor Cores or not (TFLOP/s); 0 when unknown.
    double computeTflops(NumberFormat format, bool tensorCores) const;
};

// The row of the table for a device name as drivers report it ("NVIDIA H200", "NVIDIA H100 80GB
// HBM3", "NVIDIA A100-SXM4-40GB", "AMD Instinct MI300X"); nullopt for a GPU the table lacks.
std::optional<GpuPeaks> gpuPeaksFor(std::string_view deviceName);
// Every row of the table, in its order.
std::vector<GpuPeaks> knownGpuPeaks();

} // namespace ws
