#pragma once

#include "time_viewport.h"

#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

namespace ws {

/*
 * QueryTrack: a timeline track made from a query's result ("Add as track" in the Query tab, like
 * Perfetto's debug tracks): one interval per row with a time and a duration, labelled with the
 * row's name. Overlapping intervals go to further lanes (up to kMaxLanes; the last takes the rest),
 * each lane sorted by start and free of overlaps, so the timeline folds a lane as it folds a row of
 * slices. An interval may point at the session slice its row came from (an `id` column).
 */
struct QueryTrack {
    static constexpr size_t kMaxLanes = 8;
    struct Interval {
        int64_t start = 0;
        int64_t dur = 0;
        QString label;
        std::optional<SliceRef> slice;
    };
    struct Lane {
        std::vector<int64_t> start;
        std::vector<int64_t> dur;
        std::vector<uint32_t> interval; // index into intervals
    };

    QString name;
    std::vector<Interval> intervals;
    std::vector<Lane> lanes;

    // Intervals with a negative duration are dropped (a NULL end); the rest are laid out in lanes.
    static QueryTrack build(QString name, std::vector<Interval> intervals);
    // The interval of `lane` at time t (within slack ns), or nullptr.
    const Interval* at(size_t lane, int64_t t, int64_t slack) const;
};

} // namespace ws
