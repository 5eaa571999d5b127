#pragma once

#include "import/trace_import.h"

#include <string>

namespace ws {

/*
 * Chrome/Kineto JSON import pipeline: InputStream (plain/gz/zst) -> JsonEventScanner on the
 * calling thread cuts blocks of whole event objects -> JsonEventParser workers (simdjson
 * On-Demand) in parallel -> results merged in file order into a TraceBuilder -> finish().
 * Memory is bounded by a few blocks in flight plus the model; the file is never held whole.
 */
ImportResult importChromeJson(const std::string& path, const ImportControl& control);

} // namespace ws
