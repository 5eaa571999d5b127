// Every PyTorch/Kineto and Chrome trace in ../shared/testdata imports without an error (skipped
// when that directory is absent, e.g. in a source package build).
#include "analysis/trace_summary.h"
#include "test_util.h"

using namespace ws;
using namespace ws::test;

TEST(SharedTestData, EveryKinetoAndChromeTraceImports) {
    const std::filesystem::path root(WARPSCOPE_SHARED_TESTDATA_DIR);
    if (!std::filesystem::is_directory(root))
        GTEST_SKIP() << "no " << root;
    size_t files = 0;
    for (const char* dir : {"pytorch_kineto", "chrome_trace_other"}) {
        if (!std::filesystem::is_directory(root / dir))
            continue;
        for (const auto& entry : std::filesystem::recursive_directory_iterator(root / dir)) {
            if (!entry.is_regular_file())
                continue;
            const std::string path = entry.path().string();
            if (path.find(".json") == std::string::npos || path.find("_et.json") != std::string::npos)
                continue; // execution traces are a different format
            SCOPED_TRACE(path);
            ImportResult r = importTraceFile(path);
            ASSERT_TRUE(r.session) << r.error;
            EXPECT_FALSE(r.session->report().truncated());
            EXPECT_EQ(r.session->report().count("malformed event (skipped)"), 0u);
            EXPECT_GT(r.session->sliceCount(), 0u);
            const TraceSummary s = summarizeSession(*r.session);
            EXPECT_EQ(s.events, r.session->sourceEventCount());
            ++files;
        }
    }
    EXPECT_GT(files, 30u);
}

TEST(SharedTestData, EveryOtherFormatIsRecognisedByContent) {
    const std::filesystem::path root(WARPSCOPE_SHARED_TESTDATA_DIR);
    if (!std::filesystem::is_directory(root / "nsys_sqlite"))
        GTEST_SKIP() << "no shared testdata";
    EXPECT_EQ(detectFormat((root / "nsys_sqlite/nvfuser_report1_h200.sqlite").string()), TraceFormat::NsightSqlite);
    EXPECT_EQ(detectFormat((root / "nsys_sqlite/nvfuser_report1_h200.nsys-rep").string()), TraceFormat::NsightReport);
    EXPECT_EQ(detectFormat((root / "nvprof_sqlite/blinkplus-nccl_4xV100_output.nvvp").string()),
              TraceFormat::NvprofSqlite);
    EXPECT_TRUE(importTraceFile((root / "nvprof_sqlite/blinkplus-nccl_4xV100_output.nvvp").string()).session);
    EXPECT_EQ(detectFormat((root / "other_formats/jax_0.8_conv_minimal_tw003.xplane.pb").string()), TraceFormat::Xplane);
    EXPECT_EQ(detectFormat((root / "other_formats/rocprofiler-sdk_908_results.json.gz").string()), TraceFormat::RocprofJson);
}
