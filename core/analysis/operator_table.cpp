#include "analysis/operator_table.h"
#include "model/saturating.h"

#include "analysis/ascii_lower.h"
#include "analysis/key_order.h"
#include "analysis/run_digest.h"

#include "model/session.h"

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <tuple>

namespace ws {

namespace {

constexpr int64_t kMissing = kMissingSortKey;

const char* const kColumnNames[kOperatorColumnCount] = {
    "name",          "input_shapes", "input_types",    "call_stack",   "calls",        "host_total_ns",
    "host_self_ns",  "device_total_ns", "device_self_ns", "tc_eligible", "tc_self_pct", "tc_total_pct",
};

struct GroupKey {
    StringId name;
    uint32_t a; // shapes or call-stack arg
    uint32_t b; // types or python stack
    bool operator==(const GroupKey&) const = default;
};

struct GroupKeyHash {
    size_t operator()(const GroupKey& k) const {
        uint64_t h = k.name * 0x9e3779b97f4a7c15ull;
        h ^= (uint64_t(k.a) << 32 | k.b) + 0x7f4a7c159e3779b9ull + (h << 6) + (h >> 2);
        return static_cast<size_t>(h ^ (h >> 29));
    }
};

// Byte-order ranks of a per-row text column: equal texts get equal ranks.
std::vector<uint32_t> ranksOf(const std::vector<std::string>& texts) {
    std::vector<uint32_t> order(texts.size());
    std::iota(order.begin(), order.end(), 0u);
    std::sort(order.begin(), order.end(), [&](uint32_t x, uint32_t y) { return texts[x] < texts[y]; });
    std::vector<uint32_t> rank(texts.size());
    uint32_t r = 0;
    for (size_t i = 0; i < order.size(); ++i) {
        if (i > 0 && texts[order[i]] != texts[order[i - 1]])
            ++r;
        rank[order[i]] = r;
    }
    return rank;
}

std::string percentText(std::optional<double> f) {
    if (!f)
        return {};
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", *f * 100.0);
    return buf;
}

} // namespace

const char* operatorColumnName(OperatorColumn column) { return kColumnNames[static_cast<size_t>(column)]; }

bool operatorColumnInGrouping(OperatorColumn column, OperatorGrouping grouping) {
    switch (column) {
    case OperatorColumn::InputShapes:
    case OperatorColumn::InputTypes:
        return grouping == OperatorGrouping::NameAndInputShape;
    case OperatorColumn::CallStack:
        return grouping == OperatorGrouping::NameAndCallStack;
    default:
        return true;
    }
}

std::optional<double> OperatorRow::tcSelfFraction() const {
    if (deviceSelfNs <= 0)
        return std::nullopt;
    return static_cast<double>(tcSelfNs) / static_cast<double>(deviceSelfNs);
}

std::optional<double> OperatorRow::tcTotalFraction() const {
    if (deviceTotalNs <= 0)
        return std::nullopt;
    return static_cast<double>(tcTotalNs) / static_cast<double>(deviceTotalNs);
}

OperatorTable OperatorTable::build(const Session& session, const OperatorTree& tree, OperatorGrouping grouping,
                                   std::optional<OperatorTimeRange> range) {
    OperatorTable table;
    table.m_grouping = grouping;
    table.m_range = range;
    table.m_hasDevice = tree.hasGpuActivity();
    std::unordered_map<GroupKey, uint32_t, GroupKeyHash> index;
    std::unordered_map<StringId, bool> eligible;
    std::vector<int64_t> longestNs; // per row: the host time of its longestNode
    // One node of track `track` into its row.
    auto add = [&](uint32_t i, const Track& track) {
        const OperatorNode& n = tree.node(i);
        if (!n.counted())
            return;
        if (range)
            if (const int64_t start = track.start[n.slice]; start < range->from || start >= range->to)
                return;
        GroupKey key{n.name, 0, 0};
        if (grouping == OperatorGrouping::NameAndInputShape) {
            key.a = tree.args(n).shapes;
            key.b = tree.args(n).types;
        } else if (grouping == OperatorGrouping::NameAndCallStack) {
            // The argument wins; the python ancestry is only the fallback.
            key.a = tree.args(n).callStack;
            key.b = key.a ? 0 : n.pyStack;
        }
        auto [it, fresh] = index.try_emplace(key, static_cast<uint32_t>(table.m_rows.size()));
        if (fresh) {
            OperatorRow row;
            row.name = n.name;
            if (grouping == OperatorGrouping::NameAndInputShape) {
                row.shapes = key.a;
                row.types = key.b;
            } else if (grouping == OperatorGrouping::NameAndCallStack) {
                row.callStackArg = key.a;
                row.pyStack = key.b;
            }
            auto [e, freshName] = eligible.try_emplace(n.name, false);
            if (freshName)
                e->second = operatorIsTensorCoreEligible(session.str(n.name));
            row.tensorCoreEligible = e->second;
            table.m_rows.push_back(row);
            longestNs.push_back(0);
        }
        OperatorRow& row = table.m_rows[it->second];
        ++row.calls;
        const int64_t hostNs = track.dur[n.slice];
        addSaturating(row.hostTotalNs, hostNs);
        const OperatorTimes times = tree.times(i);
        addSaturating(row.hostSelfNs, times.selfHostNs);
        addSaturating(row.deviceTotalNs, times.deviceNs);
        addSaturating(row.deviceSelfNs, times.selfDeviceNs);
        addSaturating(row.tcSelfNs, times.selfTcNs);
        addSaturating(row.tcTotalNs, times.tcNs);
        if (row.longestNode == OperatorNode::kNone || longestNs[it->second] < hostNs) {
            row.longestNode = i;
            longestNs[it->second] = hostNs;
        }
        ++table.m_totalCalls;
    };
    for (uint32_t t = 0; t < session.tracks().size(); ++t)
        for (uint32_t i = tree.trackBegin(t); i < tree.trackBegin(t + 1); ++i)
            add(i, session.tracks()[t]);

    // Default order: self device time (self host time without GPU) descending, then name.
    const bool device = table.m_hasDevice;
    std::vector<std::string> names(table.m_rows.size());
    for (size_t r = 0; r < table.m_rows.size(); ++r)
        names[r] = std::string(session.str(table.m_rows[r].name));
    std::vector<uint32_t> order(table.m_rows.size());
    std::iota(order.begin(), order.end(), 0u);
    std::sort(order.begin(), order.end(), [&](uint32_t x, uint32_t y) {
        const OperatorRow& a = table.m_rows[x];
        const OperatorRow& b = table.m_rows[y];
        const int64_t ka = device ? a.deviceSelfNs : a.hostSelfNs;
        const int64_t kb = device ? b.deviceSelfNs : b.hostSelfNs;
        if (ka != kb)
            return ka > kb;
        if (a.hostSelfNs != b.hostSelfNs)
            return a.hostSelfNs > b.hostSelfNs;
        return std::tie(names[x], x) < std::tie(names[y], y);
    });
    std::vector<OperatorRow> sorted;
    std::vector<std::string> sortedNames;
    sorted.reserve(order.size());
    sortedNames.reserve(order.size());
    for (uint32_t r : order) {
        sorted.push_back(table.m_rows[r]);
        sortedNames.push_back(std::move(names[r]));
    }
    table.m_rows = std::move(sorted);

    table.m_nameRank = ranksOf(sortedNames);
    table.m_lowerNames.reserve(sortedNames.size());
    for (const std::string& s : sortedNames)
        table.m_lowerNames.push_back(asciiLower(s));
    const size_t n = table.m_rows.size();
    std::vector<std::string> texts(n);
    if (grouping == OperatorGrouping::NameAndInputShape) {
        for (size_t r = 0; r < n; ++r)
            texts[r] = std::string(tree.text(table.m_rows[r].shapes));
        table.m_shapeRank = ranksOf(texts);
        for (size_t r = 0; r < n; ++r)
            texts[r] = std::string(tree.text(table.m_rows[r].types));
        table.m_typeRank = ranksOf(texts);
    } else if (grouping == OperatorGrouping::NameAndCallStack) {
        for (size_t r = 0; r < n; ++r) {
            const OperatorRow& row = table.m_rows[r];
            texts[r] = row.callStackArg ? std::string(tree.text(row.callStackArg))
                                        : tree.pyStackText(session, row.pyStack);
        }
        table.m_stackRank = ranksOf(texts);
    }
    return table;
}

std::optional<OperatorTable> OperatorTable::fromStoredRows(const Session& session, const DigestOperators& stored) {
    if (!stored.present)
        return std::nullopt;
    OperatorTable table;
    table.m_grouping = OperatorGrouping::Name;
    table.m_hasDevice = stored.hasDevice;
    table.m_rows.reserve(stored.rows.size());
    std::vector<std::string> names;
    names.reserve(stored.rows.size());
    for (const DigestOperatorRow& d : stored.rows) {
        OperatorRow row;
        row.name = session.strings().find(d.name);
        if (row.name == StringTable::kNotFound)
            return std::nullopt;
        row.calls = d.calls;
        row.hostTotalNs = d.hostTotalNs;
        row.hostSelfNs = d.hostSelfNs;
        row.deviceTotalNs = d.deviceTotalNs;
        row.deviceSelfNs = d.deviceSelfNs;
        row.tcSelfNs = d.tcSelfNs;
        row.tcTotalNs = d.tcTotalNs;
        row.tensorCoreEligible = d.tensorCoreEligible;
        table.m_totalCalls += d.calls;
        table.m_rows.push_back(row);
        names.push_back(d.name);
    }
    table.m_nameRank = ranksOf(names);
    table.m_lowerNames.reserve(names.size());
    for (const std::string& s : names)
        table.m_lowerNames.push_back(asciiLower(s));
    return table;
}

std::vector<uint32_t> OperatorTable::sortedOrder(OperatorColumn column, bool descending) const {
    const size_t n = m_rows.size();
    auto rankKey = [&](const std::vector<uint32_t>& ranks, size_t r, bool present) -> int64_t {
        return ranks.empty() || !present ? kMissing : int64_t(ranks[r]);
    };
    auto keyOf = [&](size_t r) -> int64_t {
        const OperatorRow& row = m_rows[r];
        switch (column) {
        case OperatorColumn::Name: return m_nameRank[r];
        case OperatorColumn::InputShapes: return rankKey(m_shapeRank, r, row.shapes != 0);
        case OperatorColumn::InputTypes: return rankKey(m_typeRank, r, row.types != 0);
        case OperatorColumn::CallStack: return rankKey(m_stackRank, r, row.callStackArg != 0 || row.pyStack != 0);
        case OperatorColumn::Calls: return static_cast<int64_t>(row.calls);
        case OperatorColumn::HostTotal: return row.hostTotalNs;
        case OperatorColumn::HostSelf: return row.hostSelfNs;
        case OperatorColumn::DeviceTotal: return m_hasDevice ? row.deviceTotalNs : kMissing;
        case OperatorColumn::DeviceSelf: return m_hasDevice ? row.deviceSelfNs : kMissing;
        case OperatorColumn::TensorCoreEligible: return row.tensorCoreEligible ? 1 : 0;
        case OperatorColumn::TcSelfPercent: {
            const auto f = row.tcSelfFraction();
            return f ? static_cast<int64_t>(*f * 1e9) : kMissing;
        }
        case OperatorColumn::TcTotalPercent: {
            const auto f = row.tcTotalFraction();
            return f ? static_cast<int64_t>(*f * 1e9) : kMissing;
        }
        }
        return kMissing;
    };
    std::vector<int64_t> keys(n);
    for (size_t r = 0; r < n; ++r)
        keys[r] = keyOf(r);
    return orderByKeys(std::move(keys), descending);
}

std::vector<uint32_t> OperatorTable::filterByName(const std::vector<uint32_t>& order, std::string_view needle) const {
    if (needle.empty())
        return order;
    const std::string lower = asciiLower(needle);
    std::vector<uint32_t> out;
    for (uint32_t r : order)
        if (m_lowerNames[r].find(lower) != std::string::npos)
            out.push_back(r);
    return out;
}

std::string OperatorTable::text(const Session& session, const OperatorTree& tree, size_t index,
                                OperatorColumn column) const {
    const OperatorRow& r = m_rows[index];
    switch (column) {
    case OperatorColumn::Name: return std::string(session.str(r.name));
    case OperatorColumn::InputShapes: return std::string(tree.text(r.shapes));
    case OperatorColumn::InputTypes: return std::string(tree.text(r.types));
    case OperatorColumn::CallStack:
        return r.callStackArg ? std::string(tree.text(r.callStackArg)) : tree.pyStackText(session, r.pyStack);
    case OperatorColumn::Calls: return std::to_string(r.calls);
    case OperatorColumn::HostTotal: return std::to_string(r.hostTotalNs);
    case OperatorColumn::HostSelf: return std::to_string(r.hostSelfNs);
    case OperatorColumn::DeviceTotal: return m_hasDevice ? std::to_string(r.deviceTotalNs) : std::string();
    case OperatorColumn::DeviceSelf: return m_hasDevice ? std::to_string(r.deviceSelfNs) : std::string();
    case OperatorColumn::TensorCoreEligible: return r.tensorCoreEligible ? "yes" : "no";
    case OperatorColumn::TcSelfPercent: return m_hasDevice ? percentText(r.tcSelfFraction()) : std::string();
    case OperatorColumn::TcTotalPercent: return m_hasDevice ? percentText(r.tcTotalFraction()) : std::string();
    }
    return {};
}

} // namespace ws
