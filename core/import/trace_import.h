#pragma once

#include "import/nsys_report_export.h"
#include "model/import_report.h"
#include "model/import_revision.h"
#include "model/trace_format.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ws {

class GrowingFile;
class Session;


TraceFormat detectFormat(const std::string& path);
// Whether text (a file's first bytes, decompressed) starts like a JSON trace: '{' or '[' after
// whitespace and a byte-order mark.
bool looksLikeJsonText(const char* text, size_t length);

/*
 * How a caller watches and stops an import. Plain C++ so core stays Qt-free; the widgets layer
 * bridges it to signals. `progress` receives a fraction in [0, 1] and is only ever called on the
 * thread that called importTraceFile. Setting *cancel makes the import return soon with
 * `cancelled` set and no session.
 */
struct ImportControl {
    std::function<void(double fraction)> progress;
    const std::atomic<bool>* cancel = nullptr;
    unsigned threads = 0; // 0: all hardware threads
    size_t blockBytes = 0; // text per parse block; 0: default (4 MiB). Small values exercise block seams.
    // A streamed import (remote_import.h): the trace's text is read from this file while it is
    // still being downloaded; the path given to the importer is where it will be once complete
    // (the session's source for later argument reads).
    std::shared_ptr<GrowingFile> growing;
    // An Nsight Systems report (.nsys-rep) is converted by nsys first (nsys_report_export.h): which
    // nsys, and where the exports are kept. Its progress is the first half of `progress`.
    NsysExportOptions nsysExport;
    // One process of an export that holds several (MPI ranks, torchrun workers under one nsys): only
    // that process's rows are imported, so the process is one rank of a job. -1: the whole file.
    int64_t process = -1;
    // The session is going to be stored (SessionStore::write): how much of the store a JSON import
    // prepares on its pass through the source (Session::storePreparation, until dropped).
    enum class StorePrep : uint8_t {
        None,
        // Where each event's args lie (12 bytes per event): the store copies them from the source
        // instead of cutting every event object again. For an import whose first view someone waits
        // for (the app): the import is not slowed, and the store follows in the background.
        Spans,
        // Also each event's args packed as the session file keeps them, on the parse threads, and the
        // file hashed on its reads: the store does not read the source again. For a caller that waits
        // for the stored file (the CLI's import, the library's open): on the 1 GB trace and 2 cores,
        // about 0.2 s more import and 0.25 s less store. About 25 bytes per event.
        Packed,
    };
    StorePrep forStore = StorePrep::None;
    // Reads a Warpscope session file (a stored session given as a trace, or fetched from a URL).
    // The importers sit below the session store, so the layer that knows both
    // (library/open_trace.h, openTraceFile) hands the store's reader in; unset, a session file is
    // refused with a message saying so.
    std::function<std::shared_ptr<Session>(const std::string& path, std::string* error)> readSession;
};

struct ImportResult {
    std::shared_ptr<const Session> session; // null when the file could not be imported at all
    std::string error;                      // why session is null (human-readable, one sentence)
    bool cancelled = false;
    std::vector<std::pair<std::string, double>> timings; // seconds per import phase (benchmarks)
    uint64_t textBytes = 0;                               // size of the (decompressed) text read
};

// Imports any supported trace file. Problems inside a readable file go to the session's
// ImportReport; only an unreadable or unsupported file yields an error.
ImportResult importTraceFile(const std::string& path, const ImportControl& control = {});

} // namespace ws
