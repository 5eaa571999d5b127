#pragma once

#include "import/capture_stream_converter.h"
#include "import/trace_import.h"
#include "model/import_report.h"

#include <memory>
#include <string>
#include <vector>

namespace ws {

// The capture streams of a folder (plain or compressed, by name and magic), sorted by name.
std::vector<std::string> captureStreamFiles(const std::string& dir);
// Reads a compressed stream whole (gzip/zstd); null for a plain file. *truncated (and *error) when
// the compressed data ends early.
std::shared_ptr<std::vector<uint8_t>> inflateCaptureStream(const std::string& path, std::string* error, bool* truncated);

/* One capture stream, read and finished by its converter, ready to merge. */
struct ConvertedCaptureStream {
    std::unique_ptr<CaptureStreamConverter> converter;
    std::string file;  // its path (CaptureEventText re-reads records from it)
    std::string shown; // its name in the report and metadata (the file name inside a folder)
    std::shared_ptr<const std::vector<uint8_t>> bytes; // the inflated content of a compressed file
    uint64_t bytesRead = 0;
    std::string cut; // why a compressed stream ends early (empty: it does not)
};

/*
 * The second half of a capture import (capture_importer.h has the device numbering rules): resolves
 * the streams' GPUs across streams (every stream's deviceRefs, in stream order), names the GPU processes,
 * merges every stream in one TraceBuilder with the streams' event text and metadata, and finishes
 * the Session into result. The one-shot import (importCapture) and the live import of a capture
 * that is still being written (LiveCaptureImport) both end here, so they build the same Session
 * from the same records. parsedSeconds: the caller's reading time, for the timings.
 */
void mergeCaptureStreams(const std::string& path, std::vector<ConvertedCaptureStream> streams,
                         const ImportReport& skipped, ImportResult& result, const ImportControl& control,
                         double parsedSeconds);

} // namespace ws
