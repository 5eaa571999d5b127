#include "analysis/range_summary.h"

#include "index/slice_lod.h"
#include "model/session.h"

#include <algorithm>
#include <span>
#include <unordered_map>

namespace ws {

std::vector<RangeSummaryRow> summarizeRange(const Session& session, int64_t start, int64_t end) {
    std::unordered_map<StringId, RangeSummaryRow> byName;
    auto clipped = [&](int64_t s, int64_t e) { return std::max<int64_t>(0, std::min(e, end) - std::max(s, start)); };
    for (const Track& t : session.tracks()) {
        const size_t rows = t.rowCount();
        // First slice of row r that reaches into the range, as an index into the track's columns.
        auto firstInRange = [&](size_t r) {
            const uint32_t b = t.rowBegin[r], n = t.rowBegin[r + 1] - b;
            return b + firstVisible(std::span<const int64_t>(t.start.data() + b, n),
                                    std::span<const int64_t>(t.dur.data() + b, n), start);
        };
        for (size_t r = 0; r < rows; ++r) {
            const uint32_t e = t.rowBegin[r + 1];
            // The child row of row r is the next row of the same lane, one level deeper.
            const bool hasChildRow =
                r + 1 < rows && t.rowLane[r + 1] == t.rowLane[r] && t.rowDepth[r + 1] == t.rowDepth[r] + 1;
            size_t child = hasChildRow ? firstInRange(r + 1) : 0;
            const size_t childEnd = hasChildRow ? t.rowBegin[r + 2] : 0;
            for (size_t i = firstInRange(r); i < e && t.start[i] < end; ++i) {
                const int64_t total = clipped(t.start[i], t.end(i));
                if (total == 0 && t.dur[i] != 0)
                    continue;
                int64_t children = 0;
                // Children lie inside their parent; both rows are sorted, so one forward walk serves all.
                while (hasChildRow && child < childEnd && t.start[child] < t.end(i)) {
                    if (t.start[child] >= t.start[i])
                        children += clipped(t.start[child], t.end(child));
                    ++child;
                }
                RangeSummaryRow& row = byName[t.names[i]];
                row.name = t.names[i];
                row.count += 1;
                row.totalNs += total;
                row.selfNs += std::max<int64_t>(0, total - children);
                row.gpu = row.gpu || t.gpu;
            }
        }
    }
    std::vector<RangeSummaryRow> out;
    out.reserve(byName.size());
    for (auto& [name, row] : byName)
        out.push_back(row);
    std::sort(out.begin(), out.end(), [](const RangeSummaryRow& a, const RangeSummaryRow& b) {
        return a.totalNs != b.totalNs ? a.totalNs > b.totalNs : a.name < b.name;
    });
    return out;
}

} // namespace ws
