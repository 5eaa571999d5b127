#include "analysis/gpu_peaks.h"

#include "analysis/ascii_lower.h"

#include <algorithm>
#include <array>
#include <string>

namespace ws {

namespace {

// Datasheet peaks, dense. NVIDIA's datasheets give Tensor Core figures "with sparsity"; those are
// halved here (the dense figure), which their footnotes say is the relation. AMD's give dense
// figures beside the sparse ones. One row per product; the name patterns below pick the row.
constexpr GpuPeaks kH100Sxm{"NVIDIA H100 SXM", 34, 67, 494.5, 989.5, 1979, 3350,
                            "NVIDIA H100 Tensor Core GPU datasheet (2023), SXM5 column"};
constexpr GpuPeaks kH100Pcie{"NVIDIA H100 PCIe", 26, 51, 378, 756.5, 1513, 2000,
                             "NVIDIA H100 Tensor Core GPU datasheet (2023), PCIe column"};
constexpr GpuPeaks kH100Nvl{"NVIDIA H100 NVL", 30, 60, 417.5, 835.5, 1670.5, 3900,
                            "NVIDIA H100 Tensor Core GPU datasheet (2023), H100 NVL column"};
constexpr GpuPeaks kGh200{"NVIDIA GH200", 34, 67, 494.5, 989.5, 1979, 4000,
                          "NVIDIA GH200 Grace Hopper Superchip datasheet (2024), 96 GB HBM3 GPU"};
constexpr GpuPeaks kH200Sxm{"NVIDIA H200 SXM", 34, 67, 494.5, 989.5, 1979, 4800,
                            "NVIDIA H200 Tensor Core GPU datasheet (2024), H200 SXM column"};
constexpr GpuPeaks kH200Nvl{"NVIDIA H200 NVL", 30, 60, 417.5, 835.5, 1670.5, 4800,
                            "NVIDIA H200 Tensor Core GPU datasheet (2024), H200 NVL column"};
constexpr GpuPeaks kB200{"NVIDIA B200", 37, 0, 1125, 2250, 4500, 8000,
                         "NVIDIA HGX B200 datasheet (2025), the 8-GPU figures divided by 8; it gives no vector FP32"};
constexpr GpuPeaks kA100Sxm80{"NVIDIA A100 SXM 80GB", 9.7, 19.5, 156, 312, 0, 2039,
                              "NVIDIA A100 Tensor Core GPU datasheet (2021), 80GB SXM column"};
constexpr GpuPeaks kA100Pcie80{"NVIDIA A100 PCIe 80GB", 9.7, 19.5, 156, 312, 0, 1935,
                               "NVIDIA A100 Tensor Core GPU datasheet (2021), 80GB PCIe column"};
constexpr GpuPeaks kA10040{"NVIDIA A100 40GB", 9.7, 19.5, 156, 312, 0, 1555,
                           "NVIDIA A100 Tensor Core GPU datasheet (2021), 40GB columns"};
constexpr GpuPeaks kL40s{"NVIDIA L40S", 1.4, 91.6, 183, 362, 733, 864, "NVIDIA L40S datasheet (2023)"};
constexpr GpuPeaks kL4{"NVIDIA L4", 0.5, 30.3, 60, 121, 242.5, 300, "NVIDIA L4 Tensor Core GPU datasheet (2023)"};
constexpr GpuPeaks kA10{"NVIDIA A10", 0.98, 31.2, 62.5, 125, 0, 600, "NVIDIA A10 Tensor Core GPU datasheet (2021)"};
constexpr GpuPeaks kV100Sxm{"NVIDIA V100 SXM2", 7.8, 15.7, 0, 125, 0, 900,
                            "NVIDIA Tesla V100 datasheet (2020), SXM2 column"};
constexpr GpuPeaks kV100Pcie{"NVIDIA V100 PCIe", 7, 14, 0, 112, 0, 900,
                             "NVIDIA Tesla V100 datasheet (2020), PCIe column"};
constexpr GpuPeaks kT4{"NVIDIA T4", 0.25, 8.1, 0, 65, 0, 320, "NVIDIA T4 Tensor Core GPU datasheet (2019)"};
constexpr GpuPeaks kRtx4090{"NVIDIA GeForce RTX 4090", 1.3, 82.6, 82.6, 165.2, 330.3, 1008,
                            "NVIDIA Ada GPU architecture whitepaper v2.1 (2023), table 2, FP32 accumulate"};
constexpr GpuPeaks kMi300x{"AMD Instinct MI300X", 81.7, 163.4, 653.7, 1307.4, 2614.9, 5300,
                           "AMD Instinct MI300X accelerator datasheet (2023)"};
constexpr GpuPeaks kMi325x{"AMD Instinct MI325X", 81.7, 163.4, 653.7, 1307.4, 2614.9, 6000,
                           "AMD Instinct MI325X accelerator datasheet (2024)"};
constexpr GpuPeaks kMi250x{"AMD Instinct MI250X", 47.9, 47.9, 0, 383, 0, 3276.8,
                           "AMD Instinct MI250X accelerator datasheet (2021)"};

struct Pattern {
    const char* contains; // in the lower-case device name
    const char* alsoContains; // "" for none
    const GpuPeaks* peaks;
};

// Most specific first: "gh200" before "h200", "l40s" before "l4", "a100" before "a10".
constexpr std::array<Pattern, 21> kPatterns{{
    {"gh200", "", &kGh200},
    {"h200", "nvl", &kH200Nvl},
    {"h200", "", &kH200Sxm},
    {"h100", "nvl", &kH100Nvl},
    {"h100", "pcie", &kH100Pcie},
    {"h100", "", &kH100Sxm},
    {"h800", "", &kH100Sxm},
    {"b200", "", &kB200},
    {"a100", "40gb", &kA10040},
    {"a100", "pcie", &kA100Pcie80},
    {"a100", "", &kA100Sxm80},
    {"l40s", "", &kL40s},
    {"v100", "pcie", &kV100Pcie},
    {"v100", "", &kV100Sxm},
    {"rtx 4090", "", &kRtx4090},
    {"mi300x", "", &kMi300x},
    {"mi325x", "", &kMi325x},
    {"mi250x", "", &kMi250x},
    {" l4", "", &kL4},   // "NVIDIA L4": matched as a word below
    {" t4", "", &kT4},   // "Tesla T4"
    {" a10", "", &kA10}, // "NVIDIA A10", not A100 or A10G
}};

bool endsWordAt(const std::string& s, size_t end) { return end == s.size() || s[end] == ' ' || s[end] == '-'; }

bool hasToken(std::string_view lower, std::string_view token) { return lower.find(token) != std::string_view::npos; }

} // namespace

const char* numberFormatName(NumberFormat f) {
    switch (f) {
    case NumberFormat::Fp64: return "fp64";
    case NumberFormat::Fp32: return "fp32";
    case NumberFormat::Fp16: return "fp16/bf16";
    case NumberFormat::Fp8: return "fp8";
    case NumberFormat::Unknown: break;
    }
    return "";
}

int numberFormatBytes(NumberFormat f) {
    switch (f) {
    case NumberFormat::Fp64: return 8;
    case NumberFormat::Fp32: return 4;
    case NumberFormat::Fp16: return 2;
    case NumberFormat::Fp8: return 1;
    case NumberFormat::Unknown: break;
    }
    return 0;
}

NumberFormat kernelNameFormat(std::string_view name) {
    const std::string lower = asciiLower(name);
    if (hasToken(lower, "e4m3") || hasToken(lower, "e5m2") || hasToken(lower, "fp8") || hasToken(lower, "float8"))
        return NumberFormat::Fp8;
    if (hasToken(lower, "bf16") || hasToken(lower, "bfloat16") || hasToken(lower, "half") ||
        hasToken(lower, "f16") || hasToken(lower, "hgemm") || hasToken(lower, "h884") ||
        hasToken(lower, "h1688") || hasToken(lower, "h16816"))
        return NumberFormat::Fp16;
    if (hasToken(lower, "float") || hasToken(lower, "sgemm") || hasToken(lower, "tf32") || hasToken(lower, "fp32") ||
        hasToken(lower, "f32"))
        return NumberFormat::Fp32;
    if (hasToken(lower, "double") || hasToken(lower, "dgemm") || hasToken(lower, "f64"))
        return NumberFormat::Fp64;
    return NumberFormat::Unknown;
}

int kernelNameElementBytes(std::string_view name) {
    // Type names as the demangler writes them, matched as whole words; the earliest in the name wins.
    static constexpr std::array<std::pair<std::string_view, int>, 16> kTypes{{
        {"c10::BFloat16", 2}, {"c10::Half", 2}, {"__nv_bfloat16", 2}, {"__half", 2}, {"c10::Float8_e4m3fn", 1},
        {"c10::Float8_e5m2", 1}, {"float", 4}, {"double", 8}, {"long", 8}, {"int", 4}, {"bool", 1},
        {"unsigned char", 1}, {"signed char", 1}, {"short", 2}, {"c10::complex<float>", 8}, {"c10::complex<double>", 16},
    }};
    auto isWordChar = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == ':'; };
    size_t best = std::string_view::npos;
    int bytes = 0;
    for (const auto& [type, size] : kTypes) {
        for (size_t at = name.find(type); at != std::string_view::npos && at < best; at = name.find(type, at + 1)) {
            const size_t end = at + type.size();
            if ((at == 0 || !isWordChar(name[at - 1])) && (end == name.size() || !isWordChar(name[end]))) {
                best = at;
                bytes = size;
                break;
            }
        }
    }
    return bytes;
}

NumberFormat dtypeFormat(std::string_view type) {
    if (type == "c10::BFloat16" || type == "c10::Half")
        return NumberFormat::Fp16;
    if (type.substr(0, 11) == "c10::Float8")
        return NumberFormat::Fp8;
    if (type == "float")
        return NumberFormat::Fp32;
    if (type == "double")
        return NumberFormat::Fp64;
    return NumberFormat::Unknown;
}

double GpuPeaks::computeTflops(NumberFormat format, bool tensorCores) const {
    switch (format) {
    case NumberFormat::Fp64: return fp64;
    case NumberFormat::Fp32: return tensorCores && tf32 > 0 ? tf32 : fp32;
    case NumberFormat::Fp16: return tensorCores ? fp16 : fp32; // CUDA-core half math runs at the FP32 rate or near it
    case NumberFormat::Fp8: return tensorCores ? fp8 : fp32;
    case NumberFormat::Unknown: break;
    }
    return tensorCores ? fp16 : fp32;
}

std::vector<GpuPeaks> knownGpuPeaks() {
    std::vector<GpuPeaks> out;
    for (const Pattern& p : kPatterns)
        if (std::none_of(out.begin(), out.end(), [&](const GpuPeaks& g) { return std::string_view(g.name) == p.peaks->name; }))
            out.push_back(*p.peaks);
    return out;
}

std::optional<GpuPeaks> gpuPeaksFor(std::string_view deviceName) {
    // A leading space lets " l4" and " t4" match whole words only.
    std::string lower(1, ' ');
    lower.append(asciiLower(deviceName));
    for (const Pattern& p : kPatterns) {
        const size_t at = lower.find(p.contains);
        if (at == std::string::npos)
            continue;
        if (p.contains[0] == ' ' && !endsWordAt(lower, at + std::string_view(p.contains).size()))
            continue;
        if (*p.alsoContains && lower.find(p.alsoContains) == std::string::npos)
            continue;
        return *p.peaks;
    }
    return std::nullopt;
}

} // namespace ws
