#include "analysis/op_cost.h"

#include <gtest/gtest.h>

namespace ws {
namespace {

OpCost cost(std::string_view name, std::string_view dims, std::string_view types, std::string_view concrete = {}) {
    return estimateOpCost(name, parseOpInputs(dims, types, concrete));
}

TEST(OpCost, ParsesKinetoInputArgs) {
    const OpInputs in = parseOpInputs(R"([[8,3,224,224],[],[[1,2],[3]]])", R"(["float","Scalar","TensorList"])",
                                      R"(["","1",""])");
    ASSERT_EQ(in.dims.size(), 3u);
    EXPECT_EQ(in.dims[0], (std::vector<int64_t>{8, 3, 224, 224}));
    EXPECT_TRUE(in.dims[1].empty());
    EXPECT_TRUE(in.dims[2].empty()); // a tensor list is not one tensor's shape
    ASSERT_EQ(in.types.size(), 3u);
    EXPECT_EQ(in.types[1], "Scalar");
    ASSERT_EQ(in.concrete.size(), 3u);
    EXPECT_EQ(in.concrete[1], "1");
}

TEST(OpCost, Gemms) {
    const OpCost mm = cost("aten::mm", "[[128,256],[256,64]]", R"(["c10::BFloat16","c10::BFloat16"])");
    ASSERT_TRUE(mm.known);
    EXPECT_DOUBLE_EQ(mm.flops, 2.0 * 128 * 256 * 64);
    EXPECT_DOUBLE_EQ(mm.bytes, (128.0 * 256 + 256 * 64 + 128 * 64) * 2);

    const OpCost addmm = cost("aten::addmm", "[[64],[32,128],[128,64],[],[]]", R"(["float","float","float","Scalar","Scalar"])");
    ASSERT_TRUE(addmm.known);
    EXPECT_DOUBLE_EQ(addmm.flops, 2.0 * 32 * 128 * 64);
    EXPECT_DOUBLE_EQ(addmm.bytes, (64.0 + 32 * 128 + 128 * 64 + 32 * 64) * 4);

    const OpCost bmm = cost("aten::bmm", "[[12,128,64],[12,64,128]]", R"(["c10::Half","c10::Half"])");
    ASSERT_TRUE(bmm.known);
    EXPECT_DOUBLE_EQ(bmm.flops, 2.0 * 12 * 128 * 64 * 128);

    const OpCost linear = cost("aten::linear", "[[4,10,512],[1024,512],[1024]]", R"(["float","float","float"])");
    ASSERT_TRUE(linear.known);
    EXPECT_DOUBLE_EQ(linear.flops, 2.0 * 40 * 512 * 1024);

    EXPECT_FALSE(cost("aten::mm", "[[128,256],[255,64]]", R"(["float","float"])").known); // K mismatch
    EXPECT_FALSE(cost("aten::mm", "", "").known);                                         // no shapes recorded
}

TEST(OpCost, ConvolutionNeedsGeometry) {
    // ResNet stem: 8x3x224x224 input, 64x3x7x7 weight, stride 2, padding 3 -> 112x112 output.
    const char* dims = "[[8,3,224,224],[64,3,7,7],[],[],[],[],[],[],[]]";
    const char* types = R"(["float","float","","ScalarList","ScalarList","ScalarList","Scalar","ScalarList","Scalar"])";
    const OpCost conv = cost("aten::convolution", dims, types, R"(["","","","[2, 2]","[3, 3]","[1, 1]","False","[0, 0]","1"])");
    ASSERT_TRUE(conv.known);
    EXPECT_DOUBLE_EQ(conv.flops, 2.0 * 8 * 64 * 112 * 112 * 3 * 7 * 7);
    EXPECT_DOUBLE_EQ(conv.bytes, (8.0 * 3 * 224 * 224 + 64 * 3 * 7 * 7 + 8 * 64 * 112 * 112) * 4);
    EXPECT_FALSE(cost("aten::convolution", dims, types).known); // stride/padding unknown: no guess
    EXPECT_FALSE(cost("aten::convolution", dims, types, R"(["","","","[2, 2]","[3, 3]","[1, 1]","True","[0, 0]","1"])").known);

    // Backward with grad input and grad weight requested: two passes of the forward's size.
    const OpCost back = cost("aten::convolution_backward", "[[8,64,112,112],[8,3,224,224],[64,3,7,7],[],[],[],[],[],[],[],[]]",
                             R"(["float","float","float","","","","","","","",""])",
                             R"(["","","","[0]","[2, 2]","[3, 3]","[1, 1]","False","[0, 0]","1","[True, True, False]"])");
    ASSERT_TRUE(back.known);
    EXPECT_DOUBLE_EQ(back.flops, 2 * 2.0 * 8 * 64 * 112 * 112 * 3 * 7 * 7);
}

TEST(OpCost, ElementwiseAndCopies) {
    const OpCost add = cost("aten::add_", "[[32,1024],[1024],[]]", R"(["c10::Half","c10::Half","Scalar"])");
    ASSERT_TRUE(add.known);
    EXPECT_DOUBLE_EQ(add.flops, 32.0 * 1024);                            // broadcast output
    EXPECT_DOUBLE_EQ(add.bytes, (32.0 * 1024 + 1024 + 32 * 1024) * 2);
    const OpCost copy = cost("aten::copy_", "[[1000],[1000],[]]", R"(["c10::Half","float","Scalar"])");
    ASSERT_TRUE(copy.known);
    EXPECT_DOUBLE_EQ(copy.flops, 0);
    EXPECT_DOUBLE_EQ(copy.bytes, 1000.0 * 2 + 1000 * 4);
    // An embedding gathers one row per index (and writes it out).
    const OpCost embedding = cost("aten::embedding", "[[1000,64],[8,16]]", R"(["float","long int"])");
    ASSERT_TRUE(embedding.known);
    EXPECT_DOUBLE_EQ(embedding.bytes, 2.0 * 8 * 16 * 64 * 4);
    EXPECT_FALSE(cost("aten::sort", "[[1000]]", R"(["float"])").known);
}

} // namespace
} // namespace ws
