#pragma once

#include <cstdint>
#include <vector>

namespace ws {

class Session;

struct RecordedSpan {
    int64_t start = 0;
    int64_t end = 0;
};

/*
 * The spans a session recorded, when it did not record throughout: a capture that followed the
 * program's cudaProfilerStart and cudaProfilerStop (--capture-range=cudaProfilerApi, the stream's
 * Recording records) holds nothing between its spans, and that time is unseen, not idle. Steps and
 * the Overview's window leave it out.
 *
 * Read from the capture's stream list (metadata "warpscopeCapture": streams[].recorded), the spans
 * of all its streams merged, sorted. Empty: the session recorded throughout (every other trace, and
 * a capture without the range). A stream without spans of its own (a launcher that never called
 * cudaProfilerStart) adds none.
 */
std::vector<RecordedSpan> recordedSpans(const Session& session);

// [lo, hi) cut to the recorded spans: the pieces of it that were recorded, in order. With no spans
// (recorded throughout), [lo, hi) itself when hi > lo.
std::vector<RecordedSpan> recordedPieces(const std::vector<RecordedSpan>& spans, int64_t lo, int64_t hi);

// Whether [start, end] lies inside one recorded span (always, with no spans).
bool insideOneSpan(const std::vector<RecordedSpan>& spans, int64_t start, int64_t end);

} // namespace ws
