#pragma once

#include "import/trace_import.h"

#include <cstddef>
#include <string>

namespace ws {

/*
 * Capture import: one Warpscope capture stream (`.wscap`, also gzip- or zstd-wrapped) or a capture
 * directory (`OUT/<pid>.wscap`, one stream per process: DDP ranks, launchers, children) into one
 * Session. Each stream is converted on its own (CaptureStreamConverter), then GPUs are resolved
 * across streams by UUID and everything is merged in one TraceBuilder.
 *
 * Device numbering (GPU process pid = device index, as in Kineto traces): a single process keeps
 * its CUDA ordinals, so per-device numbers match the program's view. Across processes a physical
 * GPU (same UUID) is one device: it keeps the CUDA ordinal of the first stream that used it when
 * that number is free, else takes the lowest free one; GPUs only NVML saw come last, preferring
 * their NVML index. When several processes ran work on one GPU, their streams are kept apart
 * (tid = stream | stream file << 32, named "stream N (pid P)").
 */
ImportResult importCapture(const std::string& path, const ImportControl& control);

// True when the bytes start a capture stream (the WSCAP magic).
bool looksLikeCaptureStream(const void* data, size_t size);
// True when `path` is a directory holding at least one capture stream (plain or compressed).
bool isCaptureDirectory(const std::string& path);
// The RANK a capture stream's header recorded (-1: none, or not a readable stream). Reads only the
// start of the file.
int captureStreamRank(const std::string& path);
// How many streams of a capture directory belong to a rank of a distributed job: two or more make
// the directory a job (one stream per rank) rather than one program's processes.
size_t rankedCaptureStreams(const std::string& dir);

} // namespace ws
