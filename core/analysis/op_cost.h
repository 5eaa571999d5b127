#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace ws {

/*
 * Shapes of an operator's inputs as Kineto records them with record_shapes=True: "Input Dims"
 * ([[32, 128], [128, 64], []]: one list per input, [] for scalars and absent tensors), "Input type"
 * (["float", "c10::Half", "Scalar", ...]) and "Concrete Inputs" (["", "[1, 1]", "1", ...]: values of
 * non-tensor arguments as text).
 */
struct OpInputs {
    std::vector<std::vector<int64_t>> dims;
    std::vector<std::string_view> types;          // views into the text given to parseOpInputs
    std::vector<std::string_view> concrete;       // idem; empty when the trace has none
};

// Parses the three argument texts (compact JSON as Session::forEachArgValues gives them). Missing
// or malformed parts stay empty.
OpInputs parseOpInputs(std::string_view inputDims, std::string_view inputTypes, std::string_view concreteInputs);

// Bytes per element of a Kineto dtype name ("float" 4, "c10::Half" 2, ...); 0 when unknown.
int elementSize(std::string_view type);

/*
 * Estimated floating-point operations and bytes moved by one operator call, from its name and
 * input shapes (PyProf's approach). Known: GEMMs (aten::mm, addmm, bmm, baddbmm, matmul, linear:
 * 2*M*N*K per product), convolutions forward and backward (2*N*K*C/g*R*S*output pixels per pass;
 * needs stride/padding/dilation from Concrete Inputs), scaled dot-product attention (SDPA, flash,
 * memory-efficient, cuDNN; forward and backward), element-wise ops (one op per output element),
 * reductions (one per input element), normalizations and softmax (five per element), copies,
 * fills and embedding gathers (no FLOPs). Bytes = input tensors + output tensor once each (no
 * cache reuse). `known` is false when the operator or its shapes are not covered: callers show
 * nothing rather than 0.
 *
 * fallbackElemSize: bytes per element of an input whose dtype is not recorded (a capture's
 * --torch-ops=shapes records sizes only; the caller takes it from the kernels' names); 0 leaves
 * such inputs unknown.
 */
struct OpCost {
    bool known = false;
    double flops = 0;
    double bytes = 0;
};

OpCost estimateOpCost(std::string_view opName, const OpInputs& inputs, int fallbackElemSize = 0);

} // namespace ws
