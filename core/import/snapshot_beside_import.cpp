#include "import/snapshot_beside_import.h"

#include "analysis/snapshot_alignment.h"
#include "model/session.h"

#include <cstdio>
#include <memory>

namespace ws {

namespace {

std::string fileName(const std::string& path) {
    const size_t slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string milliseconds(int64_t ns) {
    char text[48];
    std::snprintf(text, sizeof(text), "%+.3f ms", static_cast<double>(ns) / 1e6);
    return text;
}

} // namespace

ImportResult importTraceWithSnapshot(const std::string& tracePath, const std::string& snapshotPath,
                                     const ImportControl& control) {
    ImportResult result = importTraceFile(tracePath, control);
    if (!result.session || result.cancelled)
        return result;
    auto session = std::const_pointer_cast<Session>(result.session); // not shared with anyone yet
    ImportReport& report = session->reportDuringImport();
    const std::string name = fileName(snapshotPath);
    if (session->memorySnapshot()) {
        report.add("a memory snapshot was given beside a memory snapshot; it is left out", name);
        return result;
    }
    ImportControl quiet;
    quiet.cancel = control.cancel;
    const ImportResult snap = importTraceFile(snapshotPath, quiet);
    if (!snap.session || !snap.session->memorySnapshot()) {
        report.add("the memory snapshot beside the trace could not be read; the trace opens alone",
                   name + ": " + (snap.session ? std::string("not a PyTorch memory snapshot") : snap.error));
        return result;
    }
    const MemorySnapshot& snapshot = *snap.session->memorySnapshot();
    const SnapshotAlignment a = alignSnapshot(snapshot, *session);
    if (a.method == SnapshotAlignment::Method::None) {
        report.add("the memory snapshot beside the trace could not be placed on its clock; the trace opens alone",
                   name + ": " + a.why);
        return result;
    }
    session->setMemorySnapshotDuringImport(std::make_shared<const MemorySnapshot>(shiftedSnapshot(snapshot, a.offsetNs)));
    if (a.method == SnapshotAlignment::Method::Allocations)
        report.addNote("memory snapshot on the trace's clock, by the blocks both recorded",
                       name + ": " + std::to_string(a.pairs) + " allocations paired, offset " + milliseconds(a.offsetNs));
    else
        report.addNote("memory snapshot on the trace's clock, by the shared host clock (no block of it among the "
                       "trace's memory records)",
                       name);
    return result;
}

} // namespace ws
