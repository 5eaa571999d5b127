#pragma once

#include "format/wscapformat.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ws {

/*
 * CaptureCollectives: the NCCL calls of one capture stream (format 1.3, "collectives"), by the
 * correlation id of the kernel launch that carried them out, as the kernel arguments Kineto writes
 * on NCCL kernels from record_param_comms: "Collective name", "In msg nelems", "Out msg nelems",
 * "Group size", "dtype" (PyTorch's spelling), "Process Group Name". So the communication analyses
 * (comm_ops.h) read a capture's collectives as they read a torch.profiler trace's.
 *
 * NCCL's count is per rank and per direction as the call takes it; the in and out element counts
 * follow nccl-tests: all_gather receives count x ranks, reduce_scatter sends count x ranks,
 * all_to_all both. A kernel carrying several calls of one group (ncclGroupStart/End) sums their
 * counts when they agree on operation and type, and lists the calls in "Collectives".
 */
class CaptureCollectives {
public:
    struct Call {
        std::string func;     // NCCL's name: "AllReduce", "Send", ...
        std::string datatype; // NCCL's name: "ncclBfloat16"
        uint64_t count = 0;
        int root = -1;
        uint64_t commHash = 0;
        std::string commName;
        int rank = -1;
        int ranks = 0;
    };

    void add(const wscap::CollectiveRecord& r, const std::unordered_map<uint32_t, std::string>& strings);
    bool empty() const { return m_byCorrelation.empty(); }
    size_t calls() const { return m_calls; }
    // The calls a launch carried out, or null.
    const std::vector<Call>* forCorrelation(uint32_t correlationId) const;

    // "Float", "BFloat16", ... for NCCL's "ncclFloat32", "ncclBfloat16", ...; the NCCL name otherwise.
    static std::string torchDtypeName(std::string_view ncclName);
    // Element counts (in, out) of one call with Kineto's meaning, from NCCL's count and group size.
    static std::pair<uint64_t, uint64_t> messageElements(const Call& call);

private:
    std::unordered_map<uint32_t, std::vector<Call>> m_byCorrelation;
    size_t m_calls = 0;
};

} // namespace ws
