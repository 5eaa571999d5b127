#include "analysis/kernel_groups.h"

#include <algorithm>
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
    std::vector<KernelGroup> groups;
    std::unordered_map<GroupKey, uint32_t, GroupKeyHash> index;
    for (uint32_t i = 0; i < table.size(); ++i) {
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
            groups.push_back(g);
        }
        KernelGroup& g = groups[it->second];
        ++g.calls;
        g.totalNs += r.dur;
        g.minNs = std::min(g.minNs, r.dur);
        g.maxNs = std::max(g.maxNs, r.dur);
    }
    const double total = static_cast<double>(table.totalNs());
    for (KernelGroup& g : groups) {
        g.meanNs = static_cast<double>(g.totalNs) / static_cast<double>(g.calls);
        g.percentOfGpu = total > 0 ? 100.0 * static_cast<double>(g.totalNs) / total : 0.0;
    }
    std::sort(groups.begin(), groups.end(), [](const KernelGroup& a, const KernelGroup& b) {
        return a.totalNs != b.totalNs ? a.totalNs > b.totalNs : a.firstRow < b.firstRow;
    });
    return groups;
}

} // namespace ws
