#pragma once

#include "analysis/idle_gaps.h"

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

namespace ws {

class Session;

/*
 * The classifier behind computeIdleGaps (idle_gaps.h, whose comment gives the rules): for each GPU
 * idle gap, the launching thread of the work after it, and the gap split into stretches each with one
 * class (GapCategory) and one line (an index into the lines it returns). What the stretches add up to
 * per step, category and line is idle_gaps.cpp's.
 */

/* A GPU idle interval of one device, and the busy interval that ends it. */
struct GapSpan {
    int device = 0;
    int64_t start = 0;
    int64_t end = 0;
    const IntervalList* busy = nullptr; // the device's GPU busy time
    int64_t nextStart = 0;              // the busy interval after the gap
    int64_t nextEnd = 0;
};

/* One stretch of a gap with one class and one line. */
struct GapSegment {
    int64_t start;
    int64_t end;
    uint8_t category; // GapCategory
    uint32_t line;    // ClassifiedGaps::lines index
};

struct ClassifiedGap {
    int device = 0;
    int64_t start = 0;
    int64_t end = 0;
    uint32_t thread = IdleGap::kNone;
    uint32_t launchTrack = IdleGap::kNone;
    uint32_t launchSlice = IdleGap::kNone;
    // The synchronization that drained the GPU's queue before or in the gap (a line of the Sync
    // class), IdleGap::kNone when none did.
    uint32_t drainedBy = IdleGap::kNone;
    std::vector<GapSegment> segments;
};

struct ClassifiedGaps {
    std::vector<ClassifiedGap> gaps; // in the order of the spans
    std::vector<GapLine> lines;      // ns and gaps still 0: the caller counts them
    bool callStacksRead = false;
};

// streamsByDevice: the GPU tracks of each device id. nullopt when o.cancel was set meanwhile.
std::optional<ClassifiedGaps> classifyGaps(const Session& s, const IdleGapOptions& o, const std::vector<GapSpan>& spans,
                                           const std::map<int, std::vector<uint32_t>>& streamsByDevice);

} // namespace ws
