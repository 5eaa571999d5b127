// Nsight Compute, handed off and read back (issue #49): the function name and launch ncu's filter
// counts, the command for a capture, the CSV exports read and merged, and their launches matched
// to the capture of the same program (tests/data/ncu/README.md).

#include "test_util.h"

#include "analysis/kernel_table.h"
#include "analysis/ncu_command.h"
#include "analysis/ncu_match.h"
#include "analysis/ncu_results.h"
#include "import/ncu_report_export.h"
#include "model/session.h"

#include <filesystem>
#include <fstream>
#include <string>

#include <stdlib.h>
#include <unistd.h>

namespace ws {
namespace {

TEST(NcuCommand, TheFunctionNameIsTheNameWithoutScopeTemplateArgumentsOrParameters) {
    EXPECT_EQ(kernelFunctionName("void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<"
                                 "at::native::BinaryFunctor<float, float, float> >(at::TensorIteratorBase&)::"
                                 "{lambda(int)#1}>(int, at::native::BinaryFunctor<float, float, float>)"),
              "elementwise_kernel");
    // ncu's own demangling of the same kind of kernel.
    EXPECT_EQ(kernelFunctionName("void elementwise_kernel<128, 2, void gpu_kernel_impl_nocast<BinaryFunctor<float, float, "
                                 "float, binary_internal::MulFunctor<float>>>(TensorIteratorBase &, const T1 &)::"
                                 "[lambda(int) (instance 1)]>(int, T3)"),
              "elementwise_kernel");
    EXPECT_EQ(kernelFunctionName("void at::native::(anonymous namespace)::CatArrayBatchedCopy<at::native::(anonymous "
                                 "namespace)::OpaqueType<2u>, unsigned int, 4, 64, 64>(int)"),
              "CatArrayBatchedCopy");
    EXPECT_EQ(kernelFunctionName("nvjet_sm90_tst_64x8_64x16_4x1_v_bz_TNT"), "nvjet_sm90_tst_64x8_64x16_4x1_v_bz_TNT");
    EXPECT_EQ(kernelFunctionName("ampere_sgemm_128x64_nn"), "ampere_sgemm_128x64_nn");
    EXPECT_EQ(kernelFunctionName("void cublasLt::splitKreduce_kernel<32, 16, int, float>(cublasLt::cublasSplitKParams<float>)"),
              "splitKreduce_kernel");
}

TEST(NcuCommand, ShellWordsAreQuotedOnlyWhenTheyNeedIt) {
    EXPECT_EQ(shellQuote("python3"), "python3");
    EXPECT_EQ(shellQuote("capture/samples/hf_generate.py"), "capture/samples/hf_generate.py");
    EXPECT_EQ(shellQuote("regex:^a$"), "'regex:^a$'");
    EXPECT_EQ(shellQuote("it's"), "'it'\\''s'");
    EXPECT_EQ(shellQuote(""), "''");
}

std::shared_ptr<const Session> capture() {
    ImportResult r = importTraceFile(test::dataPath("inference/hf_pm_shapes.wscap.gz"));
    EXPECT_TRUE(r.session) << r.error;
    return r.session;
}

TEST(NcuCommand, ACaptureGivesTheLaunchToSkipToAndItsOwnProgram) {
    const auto s = capture();
    ASSERT_TRUE(s);
    const KernelTable t = KernelTable::build(*s);
    // The 1501st launch of any elementwise_kernel (launch 1500 from 0).
    uint32_t seen = 0, row = 0;
    for (uint32_t r = 0; r < t.size(); ++r)
        if (kernelFunctionName(s->str(t.row(r).name)) == "elementwise_kernel" && seen++ == 1500) {
            row = r;
            break;
        }
    const NcuCommand c = ncuCommandFor(*s, t, row, 3);
    EXPECT_EQ(c.function, "elementwise_kernel");
    EXPECT_EQ(c.skip, 1500u);
    EXPECT_EQ(c.count, 3u);
    EXPECT_GT(c.launches, c.skip);
    ASSERT_EQ(c.program.size(), 4u);
    EXPECT_EQ(c.program[0], "python3");
    EXPECT_EQ(c.program[2], "eager");
    const std::string shell = c.shellCommand();
    EXPECT_NE(shell.find("ncu --kernel-name-base function --kernel-name 'regex:^elementwise_kernel$' --launch-skip 1500 "
                         "--launch-count 3"),
              std::string::npos)
        << shell;
    EXPECT_NE(shell.find(" python3 capture/samples/hf_generate.py eager plain"), std::string::npos) << shell;
    EXPECT_NE(c.exportCommands().find("--csv --page raw"), std::string::npos);
}

NcuResults read(const std::string& name) {
    NcuResults r;
    for (const char* page : {"raw", "details"}) {
        std::string error;
        EXPECT_TRUE(readNcuCsvFile(test::dataPath("ncu/hf_" + name + "_" + page + ".csv.gz"), r, error)) << error;
    }
    return r;
}

TEST(NcuResults, TheRawAndDetailsPagesOfAReportMergeByLaunch) {
    const NcuResults r = read("nvjet");
    EXPECT_EQ(r.rawFiles, 1u);
    EXPECT_EQ(r.detailFiles, 1u);
    EXPECT_EQ(r.skippedRows, 0u);
    ASSERT_EQ(r.results.size(), 3u);
    const NcuResult& first = r.results[0];
    EXPECT_EQ(first.id, 0u);
    EXPECT_EQ(first.kernelName, "nvjet_sm90_tst_64x8_64x16_4x1_v_bz_TNT");
    EXPECT_EQ(first.grid, (std::array<int32_t, 3>{4, 11, 1}));
    EXPECT_EQ(first.block, (std::array<int32_t, 3>{384, 1, 1}));
    EXPECT_DOUBLE_EQ(first.durationNs, 6368); // the raw page's 6.368 us, not the details' rounded 6.37
    EXPECT_GT(first.memoryThroughputPct, first.smThroughputPct);
    EXPECT_FALSE(std::isnan(first.dramGBps));
    EXPECT_FALSE(std::isnan(first.achievedOccupancyPct));
    EXPECT_FALSE(std::isnan(first.tensorPipePct)); // raw page only
    EXPECT_DOUBLE_EQ(first.registers, 168);
    // The details page's rule findings, with their estimated speedups.
    ASSERT_FALSE(first.rules.empty());
    bool speedup = false;
    for (const NcuRule& rule : first.rules) {
        EXPECT_FALSE(rule.name.empty());
        EXPECT_FALSE(rule.description.empty());
        speedup |= !std::isnan(rule.speedupPct);
    }
    EXPECT_TRUE(speedup);
}

TEST(NcuResults, TextThatIsNotAnExportIsRefusedWithTheReason) {
    NcuResults r;
    std::string error;
    EXPECT_FALSE(readNcuCsv("name,calls\nx,1\n", r, error));
    EXPECT_NE(error.find("Nsight Compute"), std::string::npos);
    // A truncated export keeps the launches it has.
    EXPECT_TRUE(readNcuCsv("\"ID\",\"Kernel Name\",\"Grid Size\",\"Block Size\",\"gpu__time_duration.sum\"\n"
                           "\"\",\"\",\"\",\"\",\"us\"\n\"0\",\"k\",\"(1, 1, 1)\",\"(32, 1, 1)\",\"2.5\"\n\"1\",\"k\",\"(1,",
                           r, error));
    ASSERT_EQ(r.results.size(), 2u);
    EXPECT_DOUBLE_EQ(r.results[0].durationNs, 2500);
    EXPECT_TRUE(std::isnan(r.results[1].durationNs));
}

TEST(NcuMatch, LaunchesNcuSkippedToAreTheCapturesLaunchesOfTheSameFunctionName) {
    const auto s = capture();
    ASSERT_TRUE(s);
    const KernelTable t = KernelTable::build(*s);
    struct Case {
        const char* name;
        uint64_t skip;
        size_t launches;
    };
    for (const Case& c : {Case{"nvjet", 200, 3}, Case{"elementwise", 1500, 3}, Case{"reduce", 300, 2}}) {
        const NcuResults r = read(c.name);
        ASSERT_EQ(r.results.size(), c.launches) << c.name;
        NcuMatchOptions options;
        options.skipHint = c.skip;
        const NcuMatch m = matchNcuResults(*s, t, r, options);
        EXPECT_EQ(m.ambiguousFunctions, 0u) << c.name;
        for (size_t i = 0; i < c.launches; ++i) {
            const NcuMatchedLaunch& l = m.launches[i];
            ASSERT_TRUE(l.row) << c.name << i;
            EXPECT_EQ(l.launch, c.skip + i) << c.name;
            EXPECT_TRUE(l.shapesAgree) << c.name << i;
            EXPECT_EQ(kernelFunctionName(s->str(t.row(*l.row).name)), r.results[i].function);
            // ncu replays the kernel with its caches flushed and clocks locked: never faster here.
            EXPECT_GT(r.results[i].durationNs, static_cast<double>(t.row(*l.row).dur) * 0.9) << c.name << i;
        }
        // Without the hint a placement whose grid and block agree is still found.
        const NcuMatch loose = matchNcuResults(*s, t, r);
        for (const NcuMatchedLaunch& l : loose.launches)
            EXPECT_TRUE(l.shapesAgree) << c.name;
    }
}

TEST(NcuMatch, SpeedOfLightBelowSixtyPercentIsLatencyBound) {
    NcuResult r;
    EXPECT_EQ(ncuSpeedOfLightBound(r), Bound::Unknown);
    r.smThroughputPct = 80;
    r.memoryThroughputPct = 30;
    EXPECT_EQ(ncuSpeedOfLightBound(r), Bound::Compute);
    r.memoryThroughputPct = 85;
    EXPECT_EQ(ncuSpeedOfLightBound(r), Bound::Memory);
    r.smThroughputPct = 10;
    r.memoryThroughputPct = 19;
    EXPECT_EQ(ncuSpeedOfLightBound(r), Bound::Latency);
}

} // namespace
} // namespace ws

namespace ws {
namespace {

// A stand-in for ncu: `--import R --csv --page P` prints the recorded export of page P; a report
// named "broken.ncu-rep" fails as ncu does on a bad file.
std::string fakeNcu(const std::filesystem::path& dir) {
    std::filesystem::create_directories(dir);
    const std::string path = (dir / "ncu").string();
    std::ofstream script(path);
    script << "#!/bin/sh\n"
              "case \"$2\" in *broken*) echo '==ERROR== Failed to open report' >&2; exit 1;; esac\n"
              "case \"$*\" in\n"
              "  *'--page raw'*) gzip -dc '" << test::dataPath("ncu/hf_nvjet_raw.csv.gz") << "';;\n"
              "  *'--page details'*) gzip -dc '" << test::dataPath("ncu/hf_nvjet_details.csv.gz") << "';;\n"
              "  *) exit 2;;\n"
              "esac\n";
    script.close();
    std::filesystem::permissions(path, std::filesystem::perms::owner_all);
    return path;
}

TEST(NcuReport, AReportIsReadThroughNcusOwnCsvExports) {
    const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("ws_fake_ncu_" + std::to_string(::getpid()));
    const std::string ncu = fakeNcu(dir);
    ::setenv("WARPSCOPE_NCU", ncu.c_str(), 1);
    NcuResults viaReport, viaCsv;
    std::string error;
    ASSERT_TRUE(readNcuFile((dir / "hf.ncu-rep").string(), viaReport, error)) << error;
    ASSERT_TRUE(readNcuFile(test::dataPath("ncu/hf_nvjet_raw.csv.gz"), viaCsv, error)) << error;
    ASSERT_TRUE(readNcuFile(test::dataPath("ncu/hf_nvjet_details.csv.gz"), viaCsv, error)) << error;
    ASSERT_EQ(viaReport.results.size(), 3u);
    EXPECT_EQ(viaReport.rawFiles, 1u);
    EXPECT_EQ(viaReport.detailFiles, 1u);
    for (size_t i = 0; i < 3; ++i) {
        EXPECT_EQ(viaReport.results[i].kernelName, viaCsv.results[i].kernelName);
        EXPECT_DOUBLE_EQ(viaReport.results[i].durationNs, viaCsv.results[i].durationNs);
        EXPECT_EQ(viaReport.results[i].rules.size(), viaCsv.results[i].rules.size());
    }
    // ncu's own words when it fails; a clear sentence when there is no ncu.
    NcuResults none;
    EXPECT_FALSE(readNcuFile((dir / "broken.ncu-rep").string(), none, error));
    EXPECT_NE(error.find("Failed to open report"), std::string::npos) << error;
    ::setenv("WARPSCOPE_NCU", (dir / "missing-ncu").string().c_str(), 1);
    EXPECT_FALSE(readNcuFile((dir / "hf.ncu-rep").string(), none, error));
    EXPECT_NE(error.find("--csv --page raw"), std::string::npos) << error;
    ::unsetenv("WARPSCOPE_NCU");
    std::filesystem::remove_all(dir);
}

} // namespace
} // namespace ws
