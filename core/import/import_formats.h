#pragma once

#include "import/trace_import.h"

#include <span>

namespace ws {

/*
 * ImportFormat: one format that importTraceFile reads, with its importer: the dispatch after the
 * sniff is this table, so a format is read exactly when it is here, and the welcome page and
 * `warpscope-cli --help` list this table (issue #51: the list cannot go stale). Every TraceFormat
 * but Unknown has an entry (tests/core/import_formats_test.cpp).
 */
struct ImportFormat {
    TraceFormat format;
    // The files the sniff recognizes it by, for people ("*.pt.trace.json, *.json.gz, *.json.zst").
    const char* files;
    // One line of English for the CLI (the GUI words each format itself, in the user's language).
    const char* description;
    ImportResult (*import)(const std::string& path, const ImportControl& control);
};

// In the order the welcome page lists them.
std::span<const ImportFormat> importFormats();
// The entry of `format`, or nullptr (Unknown).
const ImportFormat* findImportFormat(TraceFormat format);

} // namespace ws
