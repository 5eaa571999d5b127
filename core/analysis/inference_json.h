#pragma once

#include <iosfwd>
#include <string>

namespace ws {

class InferenceSteps;
class KernelTable;
class Session;

/*
 * Text forms of InferenceSteps (`warpscope-cli inference`, the "inference" member of
 * `warpscope-cli overview --json`). Times in ns. The JSON object: detected, training, source, phase_source,
 * device, lm_head, vocabulary, requests, ttft_ns and time_per_token_ns (count, min, p50, p90, p99,
 * max, mean), tokens_per_second, phases (prefill/decode: steps, span_ns, busy_ns, tokens, and idle:
 * idle_ns, gap_threshold_ns, gap_ns, short_gap_ns, gap_ns_by_category, top_lines; inference_gaps.h), and with
 * withSteps the forwards (start_ns, end_ns, phase, request, tokens, batch, query_length, context,
 * kernels, busy_ns, latency_ns). Field names match tests/core/reference_inference.py.
 */
std::string inferenceToJson(const Session& session, const KernelTable& table, const InferenceSteps& steps, bool withSteps);

// One CSV row per forward, with the same fields as the JSON's steps.
void writeInferenceStepsCsv(std::ostream& out, const InferenceSteps& steps);

} // namespace ws
