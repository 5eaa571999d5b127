#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ws::fuzz {

/*
 * What each fuzz target does with one input, as plain functions: the libFuzzer targets (fuzz_*.cpp,
 * built with clang and sanitizers) call them, and fuzz_regression_test replays the inputs that once
 * failed (tests/data/fuzz/TARGET/) through them in every ./test.sh build. Any crash, sanitizer
 * report or leak is a bug; an error, or a partial session with an import report, is the expected
 * answer to bad input. They return 0, as libFuzzer wants.
 */

// Importers on arbitrary bytes (written to a file, as users' traces are), then the analyses a user
// opens next (fuzz_support.h): Chrome/Kineto JSON (gzip too), Nsight Systems SQLite, nvprof SQLite,
// Warpscope capture streams (.wscap).
int chromeJson(const uint8_t* data, size_t size);
int nsysSqlite(const uint8_t* data, size_t size);
int nvprofSqlite(const uint8_t* data, size_t size);
int captureStream(const uint8_t* data, size_t size);
// rocprofiler-sdk JSON (rocprofv3 --output-format json), read by its own streaming importer.
int rocprofJson(const uint8_t* data, size_t size);
// PyTorch memory timelines (export_memory_timeline: raw rows or [times, sizes]).
int memoryTimeline(const uint8_t* data, size_t size);
// XLA/JAX XSpace protobuf (xplane.pb).
int xplane(const uint8_t* data, size_t size);
// A PyTorch memory snapshot pickle: the restricted unpickler alone, then the import and its analyses.
int memorySnapshot(const uint8_t* data, size_t size);
// A session file of the library (SQLite + zstd columns): its metadata, the session, and every
// column the analyses decode.
int sessionFile(const uint8_t* data, size_t size);
// The text remote traces bring in, split at the first two NUL bytes: a URL (s3://, gs://, az://,
// https://), a response body (S3/GCS and Azure listing pages, error documents) and a GCS
// service-account key file.
int remoteText(const uint8_t* data, size_t size);
// Settings and stack frames, split at NUL bytes: a recorded file path, a path-mapping rule (from,
// to), an editor command template and a located path.
int sourceRules(const uint8_t* data, size_t size);

struct Entry {
    const char* target; // the fuzz target's name, also its folder under tests/data/fuzz
    int (*run)(const uint8_t* data, size_t size);
};
const std::vector<Entry>& entries();

} // namespace ws::fuzz
