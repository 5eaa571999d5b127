#pragma once

#include <cstddef>
#include <iosfwd>
#include <string>

namespace ws {

class Roofline;
class Session;

/*
 * Text forms of a Roofline (`warpscope-cli roofline`, the "roofline" member of `warpscope-cli
 * overview --json`). The JSON object: device, gpu (the table row: name, fp32/tf32/fp16/fp8 TFLOP/s,
 * memory GB/s, source; null when the table lacks the GPU), mfu_format, mfu_peak_tflops, total,
 * groups (the costliest maxGroups kernel names: name, format, tensor_cores, calls, estimated_calls,
 * total_ns, estimated_ns, flops, bytes, flops_per_byte, achieved_tflops, achieved_gbps,
 * compute_roof_tflops, roof_fraction, bound, calls_by_bound), groups_total, and phases (prefill,
 * decode: steps, span_ns, flops, bytes, mfu, mbu, measured_sm_active_pct, measured_tensor_active_pct,
 * measured_dram_bandwidth_pct; null where unknown), and step_mfu (each inference step's MFU, in
 * the order of `warpscope-cli inference --steps`). Field names match tests/core/reference_roofline.py.
 */
std::string rooflineToJson(const Session& session, const Roofline& roofline, size_t maxGroups);

// One CSV row per kernel name, the JSON's group fields.
void writeRooflineCsv(std::ostream& out, const Session& session, const Roofline& roofline);

} // namespace ws
