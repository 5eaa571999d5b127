#pragma once

#include "import/trace_import.h"

#include <string>
#include <string_view>

namespace ws {

/*
 * XLA / JAX / TensorFlow profile import: the XSpace protobuf (`*.xplane.pb`) that
 * jax.profiler.trace and the TensorBoard profile plugin write, read with protobuf through our own
 * schema of the fields used (core/import/proto/xplane.proto).
 *
 * Planes: "/device:GPU:N" (and TPU) become GPU N with a row per line ("Stream #17(Kernel)": kernels
 * and copies; "XLA Ops", "XLA Modules", "Steps": annotations over them), "/host:CPU" a host
 * process with a row per thread line (TraceMe events; hip/cuda API calls are runtime calls);
 * other planes (metadata) are skipped. Times: line timestamp_ns + offset_ps. Stats become the
 * event's arguments (strings referenced by id resolved), with kernel_details' grid, block and
 * shared memory in Kineto's keys, and correlation_id linking launches to kernels (ac2g flows).
 * Device plane stats give the GPU's vendor, core count and memory.
 *
 * Two streaming passes: the first reads each plane's metadata and stats (the names come after the
 * lines on the wire) and counts each line's events (its row is reserved exactly), the second its
 * events one at a time; memory is the metadata and the model. Launches and kernels are linked
 * from the correlation column once the rows are final (TraceBuilder::setCorrelationFlows), not
 * through a pending record per end.
 * Arguments are read back from the file by offset (XplaneEventText). A plane over 2 GiB is beyond
 * protobuf's stream limit and is reported.
 */
ImportResult importXplane(const std::string& path, const ImportControl& control);
// Whether a file's first bytes are an XSpace: a plane named "/host:..." or "/device:..." first.
bool looksLikeXplane(std::string_view head);

} // namespace ws
