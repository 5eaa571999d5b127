#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace ws {

class KernelTable;
class Session;

enum class InferencePhase : uint8_t {
    Prefill, // the prompt's tokens (more than one query token per sequence)
    Decode,  // one new token per sequence
};

const char* inferencePhaseName(InferencePhase phase); // "prefill", "decode"

// What told the forward passes apart.
enum class ForwardSource : uint8_t {
    None,         // not an inference run: no LM head found
    HeadShapes,   // the LM head is the GEMM with the vocabulary as N (operator input shapes)
    HeadLine,     // the LM head is the GEMM line launched once per forward (Python stacks)
};

// What told prefill from decode.
enum class PhaseSource : uint8_t {
    AttentionShapes, // the attention operator's query length per sequence
    GemmRows,        // the GEMMs' rows (tokens) against the fewest any forward had
    GemmKernels,     // no shapes: a forward whose GEMM kernels differ from the most common forward's is a prefill
};

/* One forward pass of the model: the kernels after the previous forward's LM head up to its own. */
struct InferenceStep {
    static constexpr uint32_t kNone = 0xffffffffu;
    int64_t start = 0;   // its first kernel's start (ns); a request's prefill: after the idle gap before it
    int64_t end = 0;     // its LM head's end
    int64_t busyNs = 0;  // kernel time inside [start, end] on the head's device
    uint32_t kernels = 0;
    uint32_t graphKernels = 0; // of them replayed from CUDA graphs
    uint32_t headRow = kNone; // the LM head kernel's row in the KernelTable (its longest kernel)
    uint32_t headTrack = kNone, headSlice = kNone; // that kernel's slice in the session
    uint32_t tokens = 0;      // query tokens of the whole batch (rows of its GEMMs); 0: unknown
    uint32_t batch = 0;       // sequences (the attention's batch, else the LM head's rows); 0: unknown
    uint32_t queryLength = 0; // query tokens per sequence; 0: unknown
    uint32_t context = 0;     // keys per sequence attended to (KV cache length); 0: unknown
    InferencePhase phase = InferencePhase::Decode;
    uint32_t request = 0;     // index into InferenceSteps::requests()
    int64_t latencyNs = 0;    // a decode: its end minus the previous forward's end (time per output token)
};

/* One generation: a prefill and the decodes after it, up to the next prefill. */
struct InferenceRequest {
    uint32_t firstStep = 0;
    uint32_t steps = 0;       // forwards (the prefill and its decodes)
    bool hasPrefill = true;   // false: the run began inside a generation
    int64_t start = 0;        // the prefill's start
    int64_t firstTokenEnd = 0; // the prefill's LM head end
    int64_t end = 0;          // the last decode's end
    uint32_t batch = 0;
    uint32_t promptTokens = 0; // per sequence, from the prefill's query length; 0: unknown
    uint32_t newTokens = 0;    // per sequence: the prefill's token and one per decode

    int64_t ttftNs() const { return hasPrefill ? firstTokenEnd - start : -1; }
};

/* Percentiles of a set of durations (ns); count 0: none. */
struct LatencyStats {
    size_t count = 0;
    int64_t min = 0, p50 = 0, p90 = 0, p99 = 0, max = 0;
    double mean = 0;
};
LatencyStats latencyStats(std::vector<int64_t> values);

/* Per phase: how many forwards, their summed span and GPU busy time (span - busy is idle). */
struct PhaseTotals {
    uint32_t steps = 0;
    int64_t spanNs = 0;
    int64_t busyNs = 0;
    double tokens = 0; // query tokens of the whole batch, where known
};

struct InferenceOptions {
    const std::atomic<bool>* cancel = nullptr;
};

/*
 * InferenceSteps: an LLM inference run's forward passes, prefill or decode, and its latencies
 * (issue #49: time to first token, time per output token, tokens per second).
 *
 * Every forward of a causal language model ends in one GEMM onto the vocabulary, the LM head, and
 * nothing else in it launches once per forward with that shape: the layers' GEMMs come once per
 * layer, and the vocabulary is wider than any hidden or MLP width. So the LM heads cut the kernel
 * timeline into forwards, whether they were launched eagerly, from a CUDA graph or by vLLM's model
 * runner. The head is found
 *   - from operator input shapes (torch.profiler record_shapes, captures with --torch-ops=shapes):
 *     the GEMM operators whose N is the widest of all (at least 1,000), occurring at least twice;
 *   - else from the Python line that launched each eager GEMM (captures with --py-stacks): a
 *     layer's GEMM lines launch once per layer, the head's once per forward, so it is the GEMM line
 *     launched the fewest times (at least twice), the costlier on a tie; and for each CUDA graph
 *     with 4 GEMM nodes or more (torch.compile leaves no model frames in the nodes' stacks), the
 *     costliest GEMM node of each replay, a replay being one forward.
 * Either way, between two heads run the model's layers: some other GEMM (by N, or by line) is called
 * twice or more in at least 90 % of the intervals, else the candidate is a layer's GEMM of a model
 * without an LM head (a bare decoder's MLP) and is not taken. A run with backward kernels (over 5 %)
 * is training and has none. A forward holds the kernels of
 * the head's device that start after the previous head's end, up to its own head's end. Its tokens
 * are the largest row count of its other GEMMs; batch, query length and context come from its
 * attention operator's shapes (q [B, H, T, D], k [B, Hkv, S, D]; flash's [B, T, H, D]). A forward is
 * a prefill when its query length per sequence exceeds 1, else (no attention shapes) when its GEMM
 * rows exceed the fewest any forward had, else (no shapes) when the GEMM kernels it ran, in order,
 * differ from the most common forward's (cuBLAS picks kernels by shape: every decode of one batch
 * size runs the same ones). Decodes whose batch changes (continuous batching) need shapes.
 *
 * A request starts at each prefill. Its start is the first kernel after the longest idle gap (of
 * 100 us or more) before the prefill's first GEMM: what precedes it is the last request's sampling
 * and output. Time to first token
 * is from there to the prefill's head end, on the GPU's clock. A decode's latency is its head's end
 * minus the previous forward's head end. Tokens per second: the requests' sequences times their
 * new tokens, over their summed spans.
 *
 * Cost: the kernel table's rows once, plus one pass over the GEMM launches' `Call stack` arguments
 * when no shapes name the head.
 */
class InferenceSteps {
public:
    static InferenceSteps build(const Session& session, const KernelTable& table, const InferenceOptions& options = {});

    bool empty() const { return m_steps.empty(); }
    const std::vector<InferenceStep>& steps() const { return m_steps; }
    const std::vector<InferenceRequest>& requests() const { return m_requests; }
    ForwardSource source() const { return m_source; }
    PhaseSource phaseSource() const { return m_phaseSource; }
    uint32_t vocabulary() const { return m_vocabulary; } // the head's N where shapes give it, else 0
    std::string headLabel() const { return m_headLabel; } // the head's operator shape or Python line
    int32_t device() const { return m_device; }
    bool training() const { return m_training; } // empty because over 5 % of the kernels are backward

    LatencyStats ttft() const;          // over requests with a prefill
    LatencyStats timePerToken() const;  // over decodes
    double tokensPerSecond() const;     // 0 when there is no request
    PhaseTotals totals(InferencePhase phase) const;

private:
    std::vector<InferenceStep> m_steps;
    std::vector<InferenceRequest> m_requests;
    ForwardSource m_source = ForwardSource::None;
    PhaseSource m_phaseSource = PhaseSource::GemmKernels;
    uint32_t m_vocabulary = 0;
    std::string m_headLabel;
    int32_t m_device = -1;
    bool m_training = false;
};

} // namespace ws
