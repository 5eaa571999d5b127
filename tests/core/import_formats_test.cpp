#include "analysis/kernel_display_name.h"
#include "import/import_formats.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <string>

using namespace ws;

// Issue #51: the formats the welcome page and `warpscope-cli formats` list are the dispatch's table,
// and it holds every format the sniff knows: each TraceFormat but Unknown, once, with its text.
TEST(ImportFormats, TheTableHoldsEveryFormatOnce) {
    std::set<TraceFormat> listed;
    for (const ImportFormat& f : importFormats()) {
        EXPECT_TRUE(listed.insert(f.format).second) << formatName(f.format);
        EXPECT_NE(f.format, TraceFormat::Unknown);
        EXPECT_NE(f.import, nullptr);
        EXPECT_GT(std::string(f.files).size(), 3u);
        EXPECT_GT(std::string(f.description).size(), 5u);
        EXPECT_EQ(findImportFormat(f.format), &f);
    }
    // Every enumerator (formatName names each; the first value past the last is "unknown").
    size_t enumerators = 0;
    for (int v = 1; std::string(formatName(static_cast<TraceFormat>(v))) != "unknown"; ++v) {
        ++enumerators;
        EXPECT_NE(findImportFormat(static_cast<TraceFormat>(v)), nullptr) << formatName(static_cast<TraceFormat>(v));
    }
    EXPECT_EQ(listed.size(), enumerators);
    EXPECT_EQ(findImportFormat(TraceFormat::Unknown), nullptr);
}

// What the sniff finds in the project's test data is always in the table, and the table's formats
// are all found there but the report (.nsys-rep needs Nsight Systems): the list names real inputs.
TEST(ImportFormats, EveryFormatSniffedInTheTestDataIsListed) {
    std::set<TraceFormat> seen;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(WARPSCOPE_TEST_DATA_DIR)) {
        const std::string name = entry.path().filename().string();
        if (!entry.is_regular_file() || name.ends_with(".md") || name.ends_with(".py") || name.ends_with(".csv") ||
            entry.path().string().find("/fuzz/") != std::string::npos)
            continue;
        const TraceFormat f = detectFormat(entry.path().string());
        if (f == TraceFormat::Unknown)
            continue;
        EXPECT_NE(findImportFormat(f), nullptr) << entry.path();
        seen.insert(f);
    }
    for (const ImportFormat& f : importFormats())
        if (f.format != TraceFormat::NsightReport && f.format != TraceFormat::WarpscopeSession) {
            EXPECT_TRUE(seen.count(f.format)) << formatName(f.format) << " not in tests/data";
        }
}

// Issue #51: a kernel's short name for legends; what is no C++ signature stays.
TEST(KernelDisplayName, FoldsTemplatesParametersAndNamespaces) {
    EXPECT_EQ(shortKernelName("void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
                              "std::array<char*, 1ul> >(int, at::native::FillFunctor<float>, std::array<char*, 1ul>)"),
              "vectorized_elementwise_kernel<\u2026>");
    EXPECT_EQ(shortKernelName("void (anonymous namespace)::softmax_warp_forward<float, float, float, 8, false>(float*)"),
              "softmax_warp_forward<\u2026>");
    EXPECT_EQ(shortKernelName("nvjet_tst_128x256_64x4_1x2_h_bz_coopA_NNT"), "nvjet_tst_128x256_64x4_1x2_h_bz_coopA_NNT");
    EXPECT_EQ(shortKernelName("ampere_sgemm_128x64_tn"), "ampere_sgemm_128x64_tn");
    EXPECT_EQ(shortKernelName("void gemv2T_kernel_val<int, int, float>(cublasGemvParams<float>)"), "gemv2T_kernel_val<\u2026>");
    EXPECT_EQ(shortKernelName("triton_poi_fused_add_0"), "triton_poi_fused_add_0");
    EXPECT_EQ(shortKernelName("Memcpy HtoD (Pageable -> Device)"), "Memcpy HtoD (Pageable -> Device)");
}
