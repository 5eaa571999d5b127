#include "analysis/line_totals.h"
#include "test_util.h"

#include <nlohmann/json.hpp>

namespace ws {
namespace {

// Every line's totals on the BERT sample equal those of tests/core/reference_line_totals.py, an
// independent implementation over the JSON (correlation ids and time containment instead of the
// model's flows and lanes), stored as tests/data/golden/h100_bert_line_totals.json.
TEST(LineTotals, MatchReferenceOnBertSample) {
    auto r = importTraceFile(test::dataPath("h100_gaunernst_bert-small-uncased__1016001.json.gz"));
    ASSERT_NE(r.session, nullptr);
    const LineTotals totals = LineTotals::compute(*r.session);
    const auto reference = nlohmann::json::parse(test::readFile(test::dataPath("golden/h100_bert_line_totals.json")));
    ASSERT_GT(reference.size(), 10u);
    size_t checked = 0;
    for (const auto& line : reference) {
        const auto* file = totals.forFile(line["file"].get<std::string>());
        ASSERT_NE(file, nullptr) << line["file"];
        auto it = file->find(line["line"].get<int32_t>());
        ASSERT_NE(it, file->end()) << line["file"] << ":" << line["line"];
        const LineCost& c = it->second;
        EXPECT_EQ(c.kernels, line["kernels"].get<uint64_t>()) << line["file"] << ":" << line["line"];
        // Microsecond floats in the reference, integer ns here: at most 1 ns of rounding per kernel.
        EXPECT_NEAR(static_cast<double>(c.kernelNs), line["kernel_us"].get<double>() * 1000.0,
                    static_cast<double>(c.kernels) + 1.0);
        EXPECT_EQ(c.allocations, line["allocs"].get<uint64_t>());
        EXPECT_EQ(c.allocatedBytes, line["alloc_bytes"].get<int64_t>());
        ++checked;
    }
    EXPECT_EQ(checked, reference.size());
    EXPECT_EQ(totals.forFile("no/such/file.py"), nullptr);
}

// Native launch stacks of a Warpscope capture: main() launches vectorAdd at line 65 and scale at
// line 66 of vector_add.cu (the `<<<` lines), 10 iterations each.
TEST(LineTotals, NativeLaunchStacksOfACapture) {
    auto r = importTraceFile(test::dataPath("captures/vector_add_stacks.wscap"));
    ASSERT_NE(r.session, nullptr);
    const LineTotals totals = LineTotals::compute(*r.session);
    const std::map<int32_t, LineCost>* file = nullptr;
    for (const char* path : {"/work/main/capture/samples/vector_add.cu"})
        file = totals.forFile(path);
    ASSERT_NE(file, nullptr);
    int64_t kernelNs = 0;
    uint64_t kernels = 0;
    for (const Track& t : r.session->tracks())
        for (uint32_t i = 0; i < t.sliceCount(); ++i)
            if (t.gpu && r.session->kindOf(t, i) == EventKind::Kernel) {
                kernelNs += t.dur[i];
                ++kernels;
            }
    ASSERT_TRUE(file->count(65) && file->count(66));
    EXPECT_EQ(file->at(65).kernels + file->at(66).kernels, kernels);
    EXPECT_EQ(file->at(65).kernelNs + file->at(66).kernelNs, kernelNs);
    EXPECT_EQ(file->at(65).kernels, kernels / 2);
}

TEST(LineTotals, EmptyWithoutPythonFrames) {
    auto r = importTraceFile(test::dataPath("mi250_minitoy_train_ROCm6_2_kineto.json.gz"));
    ASSERT_NE(r.session, nullptr);
    EXPECT_EQ(LineTotals::compute(*r.session).fileCount(), 0u);
}

} // namespace
} // namespace ws
