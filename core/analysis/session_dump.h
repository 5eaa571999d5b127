#pragma once

#include <cstddef>
#include <string>

namespace ws {

class Session;

/*
 * A stable, human-readable text dump of a session for golden tests ("trace in, text dump out")
 * and debugging: counts, processes, every track with its rows/lanes and first `slicesPerTrack`
 * slices (times relative to the session start), counters, flows, memory events and the import
 * report. Deterministic: independent of thread count and block size.
 */
std::string dumpSession(const Session& session, size_t slicesPerTrack = 3);

} // namespace ws
