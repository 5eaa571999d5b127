#include "import/operator_inference.h"

#include <gtest/gtest.h>

using ws::OperatorInference;

namespace {

OperatorInference::Launch launch(uint32_t thread, int64_t ts, uint32_t activity, uint32_t op = 0, uint32_t position = 0,
                                 uint64_t stack = 7) {
    OperatorInference::Launch l;
    l.thread = thread;
    l.ts = ts;
    l.stackKey = stack;
    l.activity = activity;
    l.op = op;
    l.position = position;
    return l;
}

// One step: op 10 launches kernels 100 and 101, op 11 launches kernel 102; with ops or without.
void step(std::vector<OperatorInference::Launch>& out, uint32_t thread, int64_t t, bool recorded) {
    out.push_back(launch(thread, t, 100, recorded ? 10 : 0, 0));
    out.push_back(launch(thread, t + 1, 101, recorded ? 10 : 0, 1));
    out.push_back(launch(thread, t + 2, 102, recorded ? 11 : 0, 0));
}

} // namespace

TEST(OperatorInference, LaunchesOutsideWindowsTakeTheOperatorOfTheirContext) {
    std::vector<OperatorInference::Launch> l;
    step(l, 1, 0, true);
    step(l, 1, 10, true);
    step(l, 1, 20, false);
    const auto calls = OperatorInference::infer(l);
    ASSERT_EQ(calls.size(), 2u);
    // Kernels 100 and 101 of the unrecorded step are one call of op 10, kernel 102 one of op 11.
    EXPECT_EQ(calls[0].op, 10u);
    EXPECT_EQ(calls[0].first, 6u);
    EXPECT_EQ(calls[0].last, 7u);
    EXPECT_EQ(calls[1].op, 11u);
    EXPECT_EQ(calls[1].first, 8u);
    EXPECT_EQ(calls[1].last, 8u);
}

TEST(OperatorInference, AContextSharedByTwoOperatorsStaysUnattributed) {
    std::vector<OperatorInference::Launch> l;
    // Kernel 200 after 9 and 100 from the same stack: op 20 once, op 21 once.
    for (uint32_t op : {20u, 21u, 0u}) {
        l.push_back(launch(1, static_cast<int64_t>(l.size()), 9));
        l.push_back(launch(1, static_cast<int64_t>(l.size()), 100, op ? 5 : 0));
        l.push_back(launch(1, static_cast<int64_t>(l.size()), 200, op));
    }
    const auto calls = OperatorInference::infer(l);
    // Kernel 100 (always op 5) is inferred; kernel 200 is not, nor kernel 9 (never inside an operator).
    ASSERT_EQ(calls.size(), 1u);
    EXPECT_EQ(calls[0].op, 5u);
    EXPECT_EQ(calls[0].first, 7u);
}

TEST(OperatorInference, TheStackTellsEqualKernelsApart) {
    std::vector<OperatorInference::Launch> l;
    l.push_back(launch(1, 0, 300, 30, 0, /*stack*/ 1));
    l.push_back(launch(1, 1, 300, 31, 0, /*stack*/ 2));
    l.push_back(launch(1, 2, 300, 0, 0, /*stack*/ 2));
    const auto calls = OperatorInference::infer(l);
    ASSERT_EQ(calls.size(), 1u);
    EXPECT_EQ(calls[0].op, 31u);
}

TEST(OperatorInference, ThreadsKeepTheirOwnContextsAndCalls) {
    std::vector<OperatorInference::Launch> l;
    // Two threads interleaved; thread 2 recorded its step, thread 1 did not.
    for (int i = 0; i < 3; ++i) {
        l.push_back(launch(2, i, 100 + i, i < 2 ? 10 : 11, i < 2 ? i : 0));
        l.push_back(launch(1, i, 100 + i, 0));
    }
    const auto calls = OperatorInference::infer(l);
    ASSERT_EQ(calls.size(), 2u);
    EXPECT_EQ(calls[0].op, 10u);
    EXPECT_EQ(calls[0].first, 1u);
    EXPECT_EQ(calls[0].last, 3u); // thread 1's launches 1 and 3, one call across thread 2's launch 2
    EXPECT_EQ(calls[1].op, 11u);
    EXPECT_EQ(calls[1].first, 5u);
}

TEST(OperatorInference, NothingRecordedNothingInferred) {
    std::vector<OperatorInference::Launch> l;
    step(l, 1, 0, false);
    EXPECT_TRUE(OperatorInference::infer(l).empty());
}

TEST(OperatorInference, AKernelRepeatedInsideOneCallStaysOneCall) {
    std::vector<OperatorInference::Launch> l;
    // Op 7 launches kernel 1, then kernel 2 three times (a radix sort's passes); recorded, then not.
    for (bool recorded : {true, false})
        for (uint32_t k = 0; k < 4; ++k)
            l.push_back(launch(1, static_cast<int64_t>(l.size()), k == 0 ? 1 : 2, recorded ? 7 : 0, k));
    const auto calls = OperatorInference::infer(l);
    ASSERT_EQ(calls.size(), 1u);
    EXPECT_EQ(calls[0].op, 7u);
    EXPECT_EQ(calls[0].first, 4u);
    EXPECT_EQ(calls[0].last, 7u);
}
