#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>

namespace ws {

class Session;

/*
 * Chrome trace export: any session (whatever it was imported from) as Chrome trace JSON that
 * Perfetto, chrome://tracing and Warpscope itself open, in Kineto's dialect so that what Warpscope
 * derives from a Kineto trace survives the trip:
 *
 *   slices -> "X" events with their category, name and arguments (read back from the source in one
 *   pass: Session::forEachEventJson); instants -> "i" (thread, process or global scope); flows ->
 *   "s"/"f" pairs binding to their slices (ac2g, fwdbwd, ...); counters -> "C" events, one per
 *   sample; allocator records -> Kineto's "[memory]" instants; process and thread names, labels
 *   and sort order -> "M" events; devices -> deviceProperties; distributedInfo and the other
 *   top-level members a Kineto trace had are kept.
 *
 * Times: µs with three decimals (exact ns) from baseTimeNanoseconds (the session's base, or 0).
 * Async groups (Chrome b/e events) are written as "X" slices on a row named after the group.
 * A range [from, to) keeps the slices overlapping it (whole), the instants, counter samples and
 * allocator records inside it, and the flows whose two ends are kept.
 */
struct ChromeExportOptions {
    std::optional<int64_t> from; // session ns
    std::optional<int64_t> to;
    const std::atomic<bool>* cancel = nullptr;
};

struct ChromeExportResult {
    bool ok = false;
    bool cancelled = false;
    std::string error;
    uint64_t events = 0; // trace events written
};

ChromeExportResult exportChromeTrace(const Session& session, std::ostream& out, const ChromeExportOptions& options = {});

} // namespace ws
