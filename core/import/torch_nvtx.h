#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace ws {

/*
 * PyTorch's own NVTX ranges (`torch.autograd.profiler.emit_nvtx`, which `warpscope-capture
 * --torch-ops` switches on without a code change): one range per operator, named
 *   "<op>[, seq = <n>][, op_id = <m>][, sizes = [[...], ...]][, input_op_ids = [...]]"
 * (torch/csrc/profiler/util.cpp getNvtxStr). A capture shows them as operators (cpu_op) named
 * <op>, with the sizes as "Input Dims" and seq as "Sequence number", so the kernel and operator
 * tables fill as they do for torch.profiler traces. A range is taken for an operator when its name
 * carries one of those fields or the op name is namespaced (`aten::`, `c10d::`, `autograd::`).
 */
struct TorchNvtxOp {
    std::string_view name;   // "aten::addmm"
    std::string_view sizes;  // "[[64, 256], [256]]", empty when not recorded
    std::optional<int64_t> sequence;
};

std::optional<TorchNvtxOp> parseTorchNvtxRange(std::string_view rangeName);

} // namespace ws
