#pragma once

#include "import/json_record_scanner.h"
#include "import/trace_import.h"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace ws {

class ImportReport;

/*
 * JsonRecordReader: streams a (plain, gzip or zstd) JSON file through a JsonRecordScanner and
 * hands every value found at a wanted path to a callback, in file order, as text followed by at
 * least kRecordPadding readable bytes (simdjson parses it in place). Memory: one block (4 MiB,
 * grown only for a single larger record) whatever the file size.
 *
 * At the end it says what happened to the document: complete, cut (report().setTruncated with the
 * byte where it ended) or malformed (the records before the damage stand).
 */
inline constexpr size_t kRecordPadding = 128; // >= SIMDJSON_PADDING

struct JsonRecord {
    std::string_view text;
    uint32_t path = 0;
    uint32_t outerIndex = 0;
    uint64_t offset = 0; // of the record in the decompressed text
};

struct JsonRecordReadResult {
    bool opened = false;
    bool cancelled = false;
    std::string error;       // the file could not be read at all
    uint64_t textBytes = 0;  // decompressed bytes read
    uint64_t records = 0;
    std::string firstKey;    // first key of the top-level object, if any
};

// Returns false from `onRecord` to stop reading (the document is then reported as complete).
JsonRecordReadResult readJsonRecords(const std::string& path, const std::vector<std::string>& paths,
                                     const ImportControl& control, ImportReport& report,
                                     const std::function<bool(const JsonRecord&)>& onRecord);

} // namespace ws
