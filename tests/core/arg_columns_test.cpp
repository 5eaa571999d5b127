// The argument columns (model/arg_columns.h, issue #29): the kernel table and the operator tree built
// from them must equal those built by reading the arguments back from the source, for every trace
// and capture here, after a store round trip too; a trace whose arguments cannot all be kept there has none.
#include "analysis/kernel_table.h"
#include "analysis/operator_tree.h"
#include "model/arg_columns.h"
#include "store/session_store.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace ws {
namespace {

// Every cell of both tables as text; the first difference as a message.
std::string kernelTableDifference(const Session& s) {
    KernelTableOptions fromSource;
    fromSource.argColumns = false;
    const KernelTable a = KernelTable::build(s);
    const KernelTable b = KernelTable::build(s, fromSource);
    if (a.size() != b.size())
        return "row counts " + std::to_string(a.size()) + " vs " + std::to_string(b.size());
    for (size_t r = 0; r < a.size(); ++r)
        for (size_t c = 0; c < kKernelColumnCount; ++c) {
            const auto column = static_cast<KernelColumn>(c);
            const std::string x = a.text(s, r, column), y = b.text(s, r, column);
            if (x != y)
                return "row " + std::to_string(r) + " " + kernelColumnName(column) + ": '" + x + "' vs '" + y + "'";
        }
    return {};
}

std::string operatorTreeDifference(const Session& s) {
    OperatorTreeOptions fromSource;
    fromSource.argColumns = false;
    const OperatorTree a = OperatorTree::build(s);
    const OperatorTree b = OperatorTree::build(s, fromSource);
    if (a.size() != b.size())
        return "node counts differ";
    if (a.anyShapes() != b.anyShapes() || a.anyCallStack() != b.anyCallStack())
        return "anyShapes/anyCallStack differ";
    for (size_t i = 0; i < a.size(); ++i) {
        const OperatorArgs& x = a.args(a.nodes()[i]);
        const OperatorArgs& y = b.args(b.nodes()[i]);
        if (a.text(x.shapes) != b.text(y.shapes) || a.text(x.types) != b.text(y.types) ||
            a.text(x.callStack) != b.text(y.callStack))
            return "node " + std::to_string(i) + ": '" + std::string(a.text(x.shapes)) + "' '" +
                   std::string(a.text(x.callStack)) + "' vs '" + std::string(b.text(y.shapes)) + "' '" +
                   std::string(b.text(y.callStack)) + "'";
    }
    return {};
}

size_t kernelsWithGrid(const Session& s) {
    const KernelTable t = KernelTable::build(s);
    size_t n = 0;
    for (const KernelRow& r : t.rows())
        n += r.grid[0] != 0;
    return n;
}

class ArgColumnsOnTraces : public ::testing::TestWithParam<const char*> {};

TEST_P(ArgColumnsOnTraces, TablesEqualThoseReadFromTheSource) {
    const ImportResult r = importTraceFile(test::dataPath(GetParam()));
    ASSERT_NE(r.session, nullptr) << r.error;
    const Session& s = *r.session;
    EXPECT_TRUE(s.argColumns());
    EXPECT_EQ(kernelTableDifference(s), "");
    EXPECT_EQ(operatorTreeDifference(s), "");

    // A stored session keeps the columns, and its tables are the imported session's.
    std::string name = GetParam();
    std::replace(name.begin(), name.end(), '/', '_');
    const std::string path = (test::tempDir() / (name + ".warpscope")).string();
    std::string error;
    ASSERT_TRUE(SessionStore::write(s, path, {}, &error)) << error;
    const std::shared_ptr<Session> stored = SessionStore::read(path, &error);
    ASSERT_NE(stored, nullptr) << error;
    EXPECT_TRUE(stored->argColumns());
    EXPECT_EQ(kernelTableDifference(*stored), "");
    EXPECT_EQ(operatorTreeDifference(*stored), "");
    const KernelTable a = KernelTable::build(s), b = KernelTable::build(*stored);
    ASSERT_EQ(a.size(), b.size());
    for (size_t row = 0; row < a.size(); ++row)
        for (size_t c = 0; c < kKernelColumnCount; ++c)
            ASSERT_EQ(a.text(s, row, static_cast<KernelColumn>(c)), b.text(*stored, row, static_cast<KernelColumn>(c)))
                << GetParam() << " row " << row << " " << kernelColumnName(static_cast<KernelColumn>(c));
}

INSTANTIATE_TEST_SUITE_P(Traces, ArgColumnsOnTraces,
                         ::testing::Values("h100_gaunernst_bert-small-uncased__1016001.json.gz",
                                           "mi300_gaunernst_bert-small-uncased__1016001.json.gz",
                                           "mi250_minitoy_train_ROCm6_2_kineto.json.gz",
                                           "inference_rank_1_legacy_schema.json.gz",
                                           "step_based_trace_2543932_gpu_user_annotation.json.gz",
                                           "nccl_data_rank0.json.gz", "triton_example.json.gz",
                                           // Captures: the converter fills them (kernels; operators
                                           // with shapes and Python stacks; NCCL kernels).
                                           "captures/transformer_ops_pystacks.wscap.gz",
                                           "captures/resnet18_stacks.wscap.gz", "captures/zoo/gpt.wscap.gz",
                                           "captures/zoo/ddp_rank0.wscap.gz"));

// The launch geometry really comes from the columns: a kernel's values, and a kernel with
// arguments but none of the launch keys (called with the absent values, as the source pass does).
TEST(ArgColumns, KernelLaunchFromColumns) {
    const char* text = R"({"traceEvents":[
  {"ph":"X","cat":"kernel","name":"k1","pid":0,"tid":7,"ts":1,"dur":2,
   "args":{"grid":[4, 2, 1],"block":[128,1,1],"registers per thread":"96","shared memory":16384}},
  {"ph":"X","cat":"kernel","name":"k2","pid":0,"tid":7,"ts":5,"dur":2,"args":{"device":0}},
  {"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":0,"dur":9,
   "args":{"External id":3,"Input Dims":[[64, 32], [32, 16]],"Input type":["c10::Half", "c10::Half"],
           "Call stack":"a.py(1): f;b.py(2): g"}}]})";
    const ImportResult r = test::importText(text);
    ASSERT_NE(r.session, nullptr);
    const Session& s = *r.session;
    ASSERT_TRUE(s.argColumns());
    const Track* gpu = test::findTrack(s, "stream 7");
    ASSERT_NE(gpu, nullptr);
    ASSERT_EQ(gpu->launchArgs.size(), 2u);
    const auto fields = splitArgColumn<kLaunchArgKeys.size()>(s.str(gpu->launchArgs[0]));
    std::string buf;
    EXPECT_EQ(argColumnValue(fields[0], buf), "[4,2,1]");
    EXPECT_EQ(argColumnValue(fields[2], buf), "96");
    EXPECT_EQ(gpu->launchArgs[1], kEmptyString);
    std::vector<KernelSliceRef> refs;
    for (uint32_t t = 0; t < s.tracks().size(); ++t)
        if (&s.tracks()[t] == gpu)
            refs = {{t, 0}, {t, 1}};
    std::vector<KernelLaunchArgs> got(2);
    std::vector<int> calls(2, 0);
    forEachKernelLaunch(s, refs, [&](size_t i, const KernelLaunchArgs& a) {
        got[i] = a;
        ++calls[i];
    });
    EXPECT_EQ(calls, (std::vector<int>{1, 1}));
    EXPECT_EQ(got[0].grid, (std::array<int32_t, 3>{4, 2, 1}));
    EXPECT_EQ(got[0].block, (std::array<int32_t, 3>{128, 1, 1}));
    EXPECT_EQ(got[0].registers, 96);
    EXPECT_EQ(got[0].sharedMemory, 16384);
    EXPECT_EQ(got[1].grid, (std::array<int32_t, 3>{0, 0, 0}));
    EXPECT_EQ(got[1].registers, -1);
    EXPECT_EQ(kernelTableDifference(s), "");
    EXPECT_EQ(operatorTreeDifference(s), "");
}

// B/E slices and values holding the separator are not kept in columns: such a session has none,
// and its tables still have the arguments (read from the source).
TEST(ArgColumns, FallBackWhereColumnsCannotHoldTheArguments) {
    const char* beginEnd = R"({"traceEvents":[
  {"ph":"B","cat":"kernel","name":"k1","pid":0,"tid":7,"ts":1,"args":{"grid":[4,2,1]}},
  {"ph":"E","pid":0,"tid":7,"ts":3}]})";
    ImportResult r = test::importText(beginEnd, {}, "be.json");
    ASSERT_NE(r.session, nullptr);
    EXPECT_FALSE(r.session->argColumns());
    EXPECT_EQ(kernelsWithGrid(*r.session), 1u);

    const char* separator = R"({"traceEvents":[
  {"ph":"X","cat":"kernel","name":"k1","pid":0,"tid":7,"ts":1,"dur":2,"args":{"grid":[4,2,1]}},
  {"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":0,"dur":9,"args":{"Call stack":"a\u001fb"}}]})";
    r = test::importText(separator, {}, "sep.json");
    ASSERT_NE(r.session, nullptr);
    EXPECT_FALSE(r.session->argColumns());
    EXPECT_EQ(kernelsWithGrid(*r.session), 1u);
    EXPECT_EQ(operatorTreeDifference(*r.session), "");
}

TEST(ArgColumns, JoinAndSplit) {
    std::array<ArgColumnField, 3> fields{};
    std::string out;
    EXPECT_TRUE(joinArgColumn(fields, out));
    EXPECT_EQ(out, "");
    fields[1] = {true, true, "x y"};
    fields[2] = {true, false, "[1, 2]"};
    ASSERT_TRUE(joinArgColumn(fields, out));
    const auto parts = splitArgColumn<3>(out);
    std::string buf;
    EXPECT_EQ(argColumnValue(parts[0], buf), "");
    EXPECT_EQ(argColumnValue(parts[1], buf), "x y");
    EXPECT_EQ(argColumnValue(parts[2], buf), "[1,2]");
    fields[0] = {true, true, "bad\x1f"};
    EXPECT_FALSE(joinArgColumn(fields, out));
}

} // namespace
} // namespace ws
