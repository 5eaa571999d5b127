#pragma once

#include "import/trace_import.h"

namespace ws {

class TraceBuilder;

/*
 * The common end of every importer: builder.finish() on the control's threads (0: all cores), the
 * importer's own phase and then finish's as the result's timings, progress at 1. It lives with the
 * importers, not on TraceBuilder, because ImportResult and ImportControl are the import API's types
 * and the model does not know them.
 */
void finishImport(TraceBuilder& builder, ImportResult& result, const ImportControl& control, const char* phase,
                  double phaseSeconds);

} // namespace ws
