#pragma once

#include "analysis/trace_summary.h"
#include "import/trace_import.h"
#include "session_loader.h"

#include <QString>

#include <memory>

namespace ws::test {

// The bundled sample as the loader hands it to a SessionPage.
inline std::shared_ptr<const LoadedSession> loadedSample() {
    auto loaded = std::make_shared<LoadedSession>();
    loaded->path = QStringLiteral(WARPSCOPE_SAMPLE_TRACE);
    loaded->session = importTraceFile(WARPSCOPE_SAMPLE_TRACE).session;
    loaded->summary = summarizeSession(*loaded->session);
    return loaded;
}

} // namespace ws::test
