// Golden tests: trace in, text dump out. Set WARPSCOPE_UPDATE_GOLDEN=1 to rewrite the expected
// files in tests/data/golden/ after an intended change, then review the diff.
#include "analysis/session_dump.h"
#include "test_util.h"

#include <cstdlib>

using namespace ws;
using namespace ws::test;

namespace {

const char* kGoldenFiles[] = {
    "h100_gaunernst_bert-small-uncased__1016001.json.gz",
    "chrome69_devtools_simple_array_format.json",
    "gpu_metrics_input.json",
    "cpu_only_rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz",
    "cuda_event_sync_trace.json.gz",
    "inference_rank_1_legacy_schema.json.gz",
    "mi250_minitoy_train_ROCm6_2_kineto.json.gz",
    "step_based_trace_2543932_gpu_user_annotation.json.gz",
    "torch_compile_triton_mi300.json.gz",
    "triton_example.json.gz",
};

class Golden : public ::testing::TestWithParam<const char*> {};

} // namespace

TEST_P(Golden, DumpMatches) {
    const std::string file = GetParam();
    ImportResult r = importTraceFile(dataPath(file));
    ASSERT_TRUE(r.session) << r.error;
    const std::string dump = dumpSession(*r.session, 3);
    const std::string goldenPath = dataPath("golden/" + file + ".txt");
    if (std::getenv("WARPSCOPE_UPDATE_GOLDEN")) {
        std::filesystem::create_directories(dataPath("golden"));
        std::ofstream(goldenPath, std::ios::binary) << dump;
        GTEST_SKIP() << "golden file rewritten";
    }
    const std::string expected = readFile(goldenPath);
    ASSERT_FALSE(expected.empty()) << "missing " << goldenPath;
    EXPECT_EQ(dump, expected);
    // The same trace split into tiny blocks on several threads gives the same model.
    ImportControl c;
    c.threads = 3;
    c.blockBytes = 8192;
    ImportResult small = importTraceFile(dataPath(file), c);
    ASSERT_TRUE(small.session);
    EXPECT_EQ(dumpSession(*small.session, 3), dump);
}

INSTANTIATE_TEST_SUITE_P(TestData, Golden, ::testing::ValuesIn(kGoldenFiles), [](const ::testing::TestParamInfo<const char*>& param) {
    std::string name;
    for (const char* p = param.param; *p && *p != '.'; ++p)
        name += std::isalnum(static_cast<unsigned char>(*p)) ? *p : '_';
    return name;
});
