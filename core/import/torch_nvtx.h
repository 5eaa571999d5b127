#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ws {

/*
 * PyTorch's own NVTX ranges (`torch.autograd.profiler.emit_nvtx`, which `warpscope-capture
 * --torch-ops` switches on without a code change): one range per operator, named
 *   "<op>[, seq = <n>][, op_id = <m>][, sizes = [[...], ...]][, input_op_ids = [...]]"
 * (torch/csrc/profiler/util.cpp getNvtxStr). A capture shows them as operators (cpu_op) named
 * <op>, with the sizes as "Input Dims" and seq as "Sequence number", so the kernel and operator
 * tables fill as they do for torch.profiler traces. A range is taken for an operator when its name
 * carries one of those fields or the op name is in one of PyTorch's namespaces (`aten::`, `c10d::`,
 * `autograd::`, ...).
 *
 * Only ranges of the default domain can be PyTorch's (emit_nvtx pushes there). Other libraries name
 * their own domains' ranges the same way (CCCL's `cub::DeviceRadixSort::SortPairs`, NCCL's
 * `ncclAllReduce`): those stay annotations, so a kernel's operator is the framework's, as in
 * torch.profiler, never the library's range inside it (issue #25).
 */
struct TorchNvtxOp {
    std::string_view name;   // "aten::addmm"
    std::string_view sizes;  // "[[64, 256], [256]]", empty when not recorded
    std::optional<int64_t> sequence;
};

std::optional<TorchNvtxOp> parseTorchNvtxRange(std::string_view rangeName);
// The domain of PyTorch's ITT ranges (`torch.autograd.profiler.emit_itt`), which a capture's
// `--torch-ops` records when the injection library is PyTorch's ITT collector: one range per
// operator (of any RecordFunction: aten ops, autograd nodes, Inductor's kernels) named alone, and one
// per record_function.
inline constexpr std::string_view kTorchIttDomain = "PyTorch";

// The operator a range of a domain stands for: parseTorchNvtxRange in the default domain (""), any
// name but those of PyTorch's own annotations in kTorchIttDomain, none in other domains.
std::optional<TorchNvtxOp> torchOperatorRange(std::string_view domain, std::string_view rangeName);

// An operator's sizes as its "Input Dims" argument: the compact JSON array that torch.profiler's
// trace holds ("[[64,256],[256]]"). False when the sizes are not a JSON array.
bool torchInputDimsJson(std::string_view sizes, std::string& out);

} // namespace ws
