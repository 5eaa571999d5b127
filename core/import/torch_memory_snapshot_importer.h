#pragma once

#include "import/trace_import.h"

#include <string>
#include <string_view>

namespace ws {

/*
 * PyTorch CUDA memory snapshot import (torch.cuda.memory._dump_snapshot, or the dict of
 * torch.cuda.memory._snapshot() pickled by hand; plain, gzip or zstd; import/FORMAT_NOTES.md "PyTorch memory
 * snapshot"). The pickle is read by pickle::Reader, our own restricted unpickler: a file with any
 * opcode that is not plain data is refused, with the opcode and offset in the error. The records
 * stream into SnapshotCollector (no tree of the file is built) and become:
 *
 *   - the session's MemorySnapshot (allocations with stacks, segments and blocks, OOMs, settings);
 *   - allocator records (MemoryEvent) per device, with the running allocated bytes (active
 *     allocations, alloc -> free_completed) and reserved bytes (segments), so the Memory tab's
 *     curves, allocation table and leaks work as for a Kineto trace;
 *   - one track per device ("CUDA caching allocator") holding the OOMs as instants.
 *
 * The session clock is the trace's time_us in ns (epoch). A file cut short imports the entries
 * read before the cut and says so in the report.
 */
ImportResult importTorchMemorySnapshot(const std::string& path, const ImportControl& control);

// Whether a file's first bytes (decompressed) look like a memory snapshot pickle: a PROTO 2-5
// opcode and a snapshot key (`segments`, `device_traces`) among the first bytes.
bool looksLikeTorchMemorySnapshot(std::string_view head);
// Whether they are a pickle at all (for the error when it is some other pickle).
bool looksLikePickle(std::string_view head);

} // namespace ws
