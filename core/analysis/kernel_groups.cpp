#include "analysis/kernel_groups.h"
#include "model/saturating.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace ws {

namespace {

struct GroupKey {
    uint32_t nameIndex = 0;
    StringId op = kEmptyString;
    std::array<int32_t, 3> grid{};
    std::array<int32_t, 3> block{};
    bool operator==(const GroupKey&) const = default;
};

struct GroupKeyHash {
    size_t operator()(const GroupKey& k) const noexcept {
        uint64_t h = k.nameIndex * 0x9e3779b97f4a7c15ull ^ k.op;
        for (int32_t v : k.grid)
            h = h * 1000003u ^ static_cast<uint32_t>(v);
        for (int32_t v : k.block)
            h = h * 1000003u ^ static_cast<uint32_t>(v);
        return static_cast<size_t>(h);
    }
};

} // namespace

std::vector<KernelGroup> groupKernels(const KernelTable& table, KernelGrouping grouping) {
    std::vector<uint32_t> rows(table.size());
    for (uint32_t i = 0; i < rows.size(); ++i)
        rows[i] = i;
    return groupKernels(table, grouping, rows);
}

std::vector<KernelGroup> groupKernels(const KernelTable& table, KernelGrouping grouping,
                                      const std::vector<uint32_t>& rows) {
    std::vector<KernelGroup> groups;
    // Weighted sums of blocks per SM and occupancy, and whether any call had them, per group.
    struct Weighted {
        double blocks = 0, occupancy = 0;
        bool hasBlocks = false, hasOccupancy = false;
    };
    std::vector<Weighted> weighted;
    std::unordered_map<GroupKey, uint32_t, GroupKeyHash> index;
    int64_t total = 0;
    for (const uint32_t i : rows) {
        const KernelRow& r = table.row(i);
        GroupKey key;
        key.nameIndex = r.nameIndex;
        if (grouping == KernelGrouping::NameOpGridBlock) {
            key.op = r.op;
            key.grid = r.grid;
            key.block = r.block;
        }
        auto [it, fresh] = index.try_emplace(key, static_cast<uint32_t>(groups.size()));
        if (fresh) {
            KernelGroup g;
            g.name = r.name;
            g.op = key.op;
            g.grid = key.grid;
            g.block = key.block;
            g.firstRow = i;
            g.minNs = r.dur;
            g.maxNs = r.dur;
            g.tensorCores = r.tensorCores;
            groups.push_back(g);
            weighted.emplace_back();
        }
        KernelGroup& g = groups[it->second];
        ++g.calls;
        addSaturating(g.totalNs, r.dur);
        addSaturating(total, r.dur);
        g.minNs = std::min(g.minNs, r.dur);
        g.maxNs = std::max(g.maxNs, r.dur);
        Weighted& w = weighted[it->second];
        const double dur = static_cast<double>(r.dur);
        if (!std::isnan(r.blocksPerSm)) {
            w.blocks += r.blocksPerSm * dur;
            w.hasBlocks = true;
        }
        if (!std::isnan(r.occupancy)) {
            w.occupancy += r.occupancy * dur;
            w.hasOccupancy = true;
        }
    }
    for (size_t i = 0; i < groups.size(); ++i) {
        KernelGroup& g = groups[i];
        const double groupNs = static_cast<double>(g.totalNs);
        g.meanNs = groupNs / static_cast<double>(g.calls);
        g.percentOfGpu = total > 0 ? 100.0 * groupNs / static_cast<double>(total) : 0.0;
        if (weighted[i].hasBlocks && groupNs > 0)
            g.meanBlocksPerSm = weighted[i].blocks / groupNs;
        if (weighted[i].hasOccupancy && groupNs > 0)
            g.meanOccupancy = weighted[i].occupancy / groupNs;
    }
    std::sort(groups.begin(), groups.end(), [](const KernelGroup& a, const KernelGroup& b) {
        return a.totalNs != b.totalNs ? a.totalNs > b.totalNs : a.firstRow < b.firstRow;
    });
    return groups;
}

} // namespace ws
