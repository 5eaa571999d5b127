#pragma once

#include "analysis/step_breakdown.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ws {

class Session;

/*
 * CollectiveKind: what a collective does, for the nccl-tests bandwidth factors (BusBw = AlgBw x
 * factor(n)) and for grouping; named after a communication op name by collectiveKindOf().
 */
enum class CollectiveKind : uint8_t {
    AllReduce, AllGather, ReduceScatter, AllToAll, Broadcast, Reduce, Gather, Scatter, Send, Recv, Barrier, Other
};
const char* collectiveKindName(CollectiveKind kind); // "all_reduce", ..., "other"
// "nccl:_all_gather_base" -> AllGather: strips the backend prefix and leading '_', then looks for
// all_reduce/allreduce, all_gather/allgather, reduce_scatter, all_to_all/alltoall, broadcast,
// barrier, send, recv, gather, scatter, reduce in that order.
CollectiveKind collectiveKindOf(std::string_view opName);
// nccl-tests' bus bandwidth factor for a group of n ranks (all_reduce 2(n-1)/n; all_gather,
// reduce_scatter, all_to_all (n-1)/n; broadcast, reduce, gather, scatter, send, recv 1); empty for
// barrier and unknown kinds, or n < 1.
std::optional<double> busBandwidthFactor(CollectiveKind kind, int groupSize);
// Bytes moved per rank as nccl-tests counts a collective's "size": all_gather counts the gathered
// output (input bytes x n), every other kind its input bytes.
int64_t collectiveSizeBytes(CollectiveKind kind, int64_t inputBytes, int groupSize);
// Element size of a torch dtype spelled as Kineto's "Input type" ("float", "c10::BFloat16", ...)
// or as record_param_comms' "dtype" ("Float", "BFloat16", ...); 0 when unknown.
int dtypeSize(std::string_view dtype);
// Bytes of an operator's inputs from its "Input Dims" and "Input type" argument texts (JSON):
// sum over inputs of prod(dims) x dtypeSize(type); a TensorList input ([[a, b], [c]]) sums its
// tensors; a scalar input ([]) counts 0. Empty when the texts are missing or malformed.
std::optional<int64_t> inputBytesOf(std::string_view inputDimsJson, std::string_view inputTypesJson);

/*
 * CommNode: one communication operation of a rank, torch-tb-profiler's CommunicationNode
 * (FORMATS.md 3.11): a host slice named `nccl:*` or `gloo:*` (cpu_op or user annotation; one nested
 * inside another such slice on the same thread is part of the outer one, not a node).
 *
 * ranges: tb's kernel_ranges: first the node's own CPU interval, then every GPU activity it
 * launched, ordered by GPU start. "Launched" = reached through a flow (or, in a trace without flow
 * events, the same correlation id) from a runtime or driver call lying inside the node's interval
 * on its thread (how Kineto links NCCL kernels in every trace we have: their External id names
 * record_param_comms or is the correlation itself, so tb's External-id rule alone finds none), or a
 * kernel whose External id is the node's (tb's rule).
 * step: index of the step that fully contains the CPU interval, -1 for none.
 * Collective metadata comes from the node's innermost enclosing `record_param_comms` op
 * (Process Group Name, Group size, and In msg nelems x dtype when the node has no Input Dims), or,
 * without one, from the first NCCL kernel it launched (Kineto copies the fields there; a capture
 * writes them there from NCCL's profiler plugin, see import/capture_collectives.h).
 *
 * An NCCL kernel that no such op launched (torch.compile's functional collectives, libraries
 * calling NCCL directly, Warpscope captures) is an op of its own, named by the kernel
 * (`ncclDevKernel_AllReduce_Sum_f32_RING_LL`): ranges = [its launch call (empty at the kernel's
 * start without one), the kernel], collective fields from the kernel's own arguments.
 */
struct CommNode {
    std::string name;         // "nccl:all_reduce"
    std::string processGroup; // "Process Group Name" ("0", ...), empty when not recorded
    CollectiveKind kind = CollectiveKind::Other;
    int groupSize = 0;              // 0: unknown (callers fall back to the world size)
    std::optional<int64_t> bytes;   // input bytes, see inputBytesOf
    int step = -1;
    uint32_t track = 0;             // the host slice in the session (the kernel, for a kernel-only op)
    uint32_t slice = 0;
    std::vector<Interval> ranges;   // [0] = CPU interval, then GPU activities by start
};

/*
 * Collects the communication nodes of a session in CPU start order, assigning each to the step of
 * `steps` containing it. One pass over the host tracks to find nodes and the runtime calls inside
 * them, one flowsOf per such call (or one pass over the GPU slices), one forEachArgValues pass over
 * the nodes and their record_param_comms parents. O(slices + nodes log n).
 */
std::vector<CommNode> collectCommNodes(const Session& session, const std::vector<StepRange>& steps);

} // namespace ws
