#include "import/import_finish.h"
#include "io/usable_cores.h"

#include "model/trace_builder.h"

#include <algorithm>
#include <thread>

namespace ws {

void finishImport(TraceBuilder& builder, ImportResult& result, const ImportControl& control, const char* phase,
                  double phaseSeconds) {
    const unsigned threads = std::max(1u, control.threads ? control.threads : usableCores());
    result.session = builder.finish(threads);
    result.timings.emplace_back(phase, phaseSeconds);
    for (const auto& t : builder.timings())
        result.timings.push_back(t);
    if (control.progress)
        control.progress(1.0);
}

} // namespace ws
