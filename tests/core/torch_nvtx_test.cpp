// PyTorch's emit_nvtx range names (torch/csrc/profiler/util.cpp getNvtxStr) read as operators.
#include "import/torch_nvtx.h"

#include <gtest/gtest.h>

using namespace ws;

TEST(TorchNvtx, OperatorRangesWithSequenceShapesAndInputIds) {
    const auto op = parseTorchNvtxRange("aten::addmm, seq = 123, op_id = 7, sizes = [[1024], [64, 256], [256, 1024]], "
                                        "input_op_ids = [(6,0), (5,0)]");
    ASSERT_TRUE(op);
    EXPECT_EQ(op->name, "aten::addmm");
    EXPECT_EQ(op->sequence, 123);
    EXPECT_EQ(op->sizes, "[[1024], [64, 256], [256, 1024]]");

    const auto bare = parseTorchNvtxRange("aten::empty");
    ASSERT_TRUE(bare);
    EXPECT_EQ(bare->name, "aten::empty");
    EXPECT_FALSE(bare->sequence);
    EXPECT_TRUE(bare->sizes.empty());

    // Backward ops carry ", " in their names; the fields start at the first known key.
    const auto bwd = parseTorchNvtxRange("autograd::engine::evaluate_function: AddmmBackward0, seq = 9, op_id = 40");
    ASSERT_TRUE(bwd);
    EXPECT_EQ(bwd->name, "autograd::engine::evaluate_function: AddmmBackward0");
    EXPECT_EQ(bwd->sequence, 9);

    const auto noSeq = parseTorchNvtxRange("aten::relu, op_id = 3, sizes = [[16, 64]]");
    ASSERT_TRUE(noSeq);
    EXPECT_EQ(noSeq->name, "aten::relu");
    EXPECT_EQ(noSeq->sizes, "[[16, 64]]");
}

TEST(TorchNvtx, OtherRangesAreNotOperators) {
    EXPECT_FALSE(parseTorchNvtxRange("step 3"));
    EXPECT_FALSE(parseTorchNvtxRange("forward"));
    EXPECT_FALSE(parseTorchNvtxRange(""));
    EXPECT_FALSE(parseTorchNvtxRange(", seq = 3"));
}

// Issue #25: CCCL's and NCCL's own ranges (their domains) are never the operator, and a bare
// namespaced name is an operator only in one of PyTorch's namespaces.
TEST(TorchNvtx, OnlyTheDefaultDomainAndTorchNamespacesGiveOperators) {
    EXPECT_FALSE(torchOperatorRange("CCCL", "cub::DeviceRadixSort::SortPairs"));
    EXPECT_FALSE(torchOperatorRange("NCCL", "aten::addmm, seq = 1, op_id = 2"));
    EXPECT_FALSE(torchOperatorRange("", "cub::DeviceScan::ExclusiveScan"));
    EXPECT_FALSE(torchOperatorRange("", "thrust::sort"));
    const auto op = torchOperatorRange("", "aten::embedding_dense_backward, seq = 4, op_id = 9");
    ASSERT_TRUE(op);
    EXPECT_EQ(op->name, "aten::embedding_dense_backward");
    EXPECT_TRUE(torchOperatorRange("", "c10d::allreduce_"));
    // A user's own op registered in its own namespace carries emit_nvtx's fields.
    EXPECT_TRUE(torchOperatorRange("", "mylib::fused_thing, op_id = 12"));
}

// Issue #25: `--torch-ops` through PyTorch's ITT ranges: the op's name alone, in the domain "PyTorch".
// What torch.profiler calls cpu_op is an operator; its user annotations are not.
TEST(TorchNvtx, IttRangesOfPyTorchAreOperatorsButItsAnnotations) {
    const auto op = torchOperatorRange("PyTorch", "aten::addmm");
    ASSERT_TRUE(op);
    EXPECT_EQ(op->name, "aten::addmm");
    EXPECT_FALSE(op->sequence);
    const auto bwd = torchOperatorRange("PyTorch", "autograd::engine::evaluate_function: AddmmBackward0");
    ASSERT_TRUE(bwd);
    EXPECT_EQ(bwd->name, "autograd::engine::evaluate_function: AddmmBackward0");
    EXPECT_TRUE(torchOperatorRange("PyTorch", "mylib::fused_thing")); // any namespace: it is PyTorch's own range
    EXPECT_TRUE(torchOperatorRange("PyTorch", "ViewBackward0"));
    EXPECT_TRUE(torchOperatorRange("PyTorch", "detach"));
    EXPECT_TRUE(torchOperatorRange("PyTorch", "triton_poi_fused_gelu_view_10")); // Inductor's kernel ranges
    EXPECT_FALSE(torchOperatorRange("PyTorch", "Optimizer.step#AdamW.step"));
    EXPECT_FALSE(torchOperatorRange("PyTorch", "ProfilerStep#3"));
    EXPECT_FALSE(torchOperatorRange("PyTorch", "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__"));
    // A DDP step: record_param_comms is the collective's operator, its process group's title and
    // DDP's forward are annotations (cpu_op and user_annotation in torch.profiler's trace of the job).
    EXPECT_TRUE(torchOperatorRange("PyTorch", "record_param_comms"));
    EXPECT_TRUE(torchOperatorRange("PyTorch", "c10d::allreduce_"));
    EXPECT_FALSE(torchOperatorRange("PyTorch", "nccl:all_reduce"));
    EXPECT_FALSE(torchOperatorRange("PyTorch", "DistributedDataParallel.forward"));
}
