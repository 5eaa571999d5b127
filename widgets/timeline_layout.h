#pragma once

#include <QString>

#include <cstdint>
#include <vector>

namespace ws {

class Session;

/*
 * TimelineLayout: which rows the timeline shows, in which order, at which y.
 *
 * Groups are the session's processes: GPU devices first, then host processes (by Kineto sort index,
 * else pid), then string-pid groups ("Spans"); inside a group its non-empty tracks by sort index
 * and tid, each with one row per track row (depth/lane) plus an instants row when it has instants,
 * then the group's counter series (recorded and derived). A collapsed group keeps only its header
 * row, which then draws a density summary of all its tracks. Groups can be reordered; pinned groups
 * come first and form a band the view keeps fixed while the rest scrolls. Rows are contiguous in y, so rowAt(y) is a binary search.
 */
class TimelineLayout {
public:
    struct Group {
        uint32_t process = 0;
        QString label;
        bool gpu = false;
        bool collapsed = false;
        bool pinned = false; // drawn in the fixed band above the scrolled rows
        std::vector<uint32_t> tracks;
        std::vector<uint32_t> counters;
    };

    // Query: a lane of a track made from a query's result (query_track.h), above every group.
    enum class RowKind { GroupHeader, Slices, Instants, Counter, Query };

    struct Row {
        RowKind kind = RowKind::GroupHeader;
        int group = 0;
        uint32_t track = 0;   // Slices, Instants
        uint32_t trackRow = 0; // Slices: row index inside the track; Query: the lane
        uint32_t counter = 0; // Counter: index into the view's counter sources; Query: the query track
        int y = 0;
        int height = 0;
        bool firstOfTrack = false; // carries the track's label
    };

    static constexpr int kHeaderHeight = 22;
    static constexpr int kSliceHeight = 18;
    static constexpr int kInstantHeight = 12;
    static constexpr int kCounterHeight = 36;

    // counterProcesses[c] is the process under which counter row source c is drawn (the view's
    // list of counters: the session's own series, then derived ones).
    void build(const Session& session, const std::vector<uint32_t>& counterProcesses);
    // The query tracks' lane counts, in order: their rows come first, in the pinned band (a track the
    // user made from a query is what they are looking at). Rows of kind Query have group -1.
    void setQueryTracks(std::vector<uint32_t> laneCounts);
    void setCollapsed(int group, bool collapsed);
    void setAllCollapsed(bool collapsed);
    void setPinned(int group, bool pinned);
    // Moves a group one place up (delta < 0) or down among the groups of the same band.
    void moveGroup(int group, int delta);
    // Height of the pinned band: rows with y < pinnedHeight() belong to pinned groups.
    int pinnedHeight() const { return m_pinnedHeight; }

    const std::vector<Group>& groups() const { return m_groups; }
    const std::vector<Row>& rows() const { return m_rows; }
    int totalHeight() const { return m_totalHeight; }
    // Index of the row containing y (content coordinates), or -1.
    int rowAt(int y) const;
    // First row of a track (its label row), or -1 when hidden in a collapsed group.
    int firstRowOfTrack(uint32_t track) const;
    // Row showing slice `slice` of `track`, or -1.
    int rowOfSlice(const Session& session, uint32_t track, uint32_t slice) const;

private:
    void relayout();

    const Session* m_session = nullptr;
    std::vector<Group> m_groups;
    std::vector<Row> m_rows;
    std::vector<int> m_trackFirstRow; // per session track, -1 when not shown
    std::vector<int> m_order; // display order of m_groups (indices), pinned or not
    std::vector<uint32_t> m_queryLanes; // per query track
    int m_totalHeight = 0;
    int m_pinnedHeight = 0;
};

} // namespace ws
