#include "analysis/step_breakdown.h"

#include "analysis/host_gaps.h"
#include "model/session.h"

#include <algorithm>
#include <unordered_set>

namespace ws {

namespace {

const char* const kRoleNames[kStepRoleCount] = {"Kernel",  "Memcpy",     "Memset",   "Communication",
                                                "Runtime", "DataLoader", "CPU Exec", "Other"};

bool startsWith(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }
bool endsWith(std::string_view s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// What a host op / annotation name means for the breakdown, decided once per distinct name.
enum NameClass : uint8_t { kUnknown, kPlain, kProfilerStep, kDataLoader, kCommOp, kParamComms };

NameClass classifyHostName(std::string_view n) {
    if (startsWith(n, "ProfilerStep#"))
        return kProfilerStep;
    if ((startsWith(n, "enumerate(DataLoader)#") && endsWith(n, ".__next__")) || startsWith(n, "enumerate(DataPipe)#"))
        return kDataLoader;
    if (startsWith(n, "nccl:") || startsWith(n, "gloo:"))
        return kCommOp;
    if (n == "record_param_comms")
        return kParamComms;
    return kPlain;
}

} // namespace

bool isCommunicationKernelName(std::string_view n) {
    if (startsWith(n, "void "))
        n.remove_prefix(5);
    return n.size() >= 4 && (n[0] == 'n' || n[0] == 'N') && (n[1] == 'c' || n[1] == 'C') &&
           (n[2] == 'c' || n[2] == 'C') && (n[3] == 'l' || n[3] == 'L');
}


const char* stepRoleName(StepRole role) { return kRoleNames[static_cast<size_t>(role)]; }

void mergeIntervals(IntervalList& list) {
    sortRuns(list, [](const Interval& a, const Interval& b) { return a.start < b.start; });
    size_t out = 0;
    for (const Interval& iv : list) {
        if (iv.end <= iv.start)
            continue;
        if (out > 0 && iv.start <= list[out - 1].end)
            list[out - 1].end = std::max(list[out - 1].end, iv.end);
        else
            list[out++] = iv;
    }
    list.resize(out);
}

IntervalList intersectIntervals(const IntervalList& a, const IntervalList& b) {
    IntervalList out;
    size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        const int64_t s = std::max(a[i].start, b[j].start), e = std::min(a[i].end, b[j].end);
        if (s < e)
            out.push_back({s, e});
        if (a[i].end < b[j].end)
            ++i;
        else
            ++j;
    }
    return out;
}

IntervalList subtractIntervals(const IntervalList& a, const IntervalList& b) {
    IntervalList out;
    size_t j = 0;
    for (const Interval& iv : a) {
        int64_t cur = iv.start;
        while (j < b.size() && b[j].end <= cur)
            ++j;
        size_t k = j;
        while (k < b.size() && b[k].start < iv.end) {
            if (b[k].start > cur)
                out.push_back({cur, b[k].start});
            cur = std::max(cur, b[k].end);
            if (b[k].end > iv.end)
                break;
            ++k;
        }
        if (cur < iv.end)
            out.push_back({cur, iv.end});
    }
    return out;
}

int64_t totalLength(const IntervalList& merged) {
    int64_t total = 0;
    for (const Interval& iv : merged)
        total += iv.end - iv.start;
    return total;
}

int64_t lengthWithin(const IntervalList& merged, int64_t lo, int64_t hi) {
    if (hi <= lo)
        return 0;
    auto it = std::upper_bound(merged.begin(), merged.end(), lo,
                               [](int64_t v, const Interval& iv) { return v < iv.end; });
    int64_t total = 0;
    for (; it != merged.end() && it->start < hi; ++it)
        total += std::min(it->end, hi) - std::max(it->start, lo);
    return total;
}

StepRoleRanges collectStepRoleRanges(const Session& s) {
    StepRoleRanges out;
    auto& r = out.ranges;
    std::vector<uint8_t> nameClass(s.strings().size(), kUnknown);
    auto classOf = [&](StringId id) {
        uint8_t& c = nameClass[id];
        if (c == kUnknown)
            c = classifyHostName(s.str(id));
        return static_cast<NameClass>(c);
    };
    // Host side first: the External ids of communication ops decide which kernels communicate.
    // Rows are walked parent row first (Track keeps each row sorted by start and row r-1 holds
    // the parents of row r): a slice whose enclosing slice is already covered by a role of equal
    // or higher priority adds nothing to the attribution and is not collected. This drops most
    // nested cpu_ops before the sort (a 1 GB trace: 1.5 M host slices, far fewer intervals).
    constexpr uint8_t kNoRole = 0xff;
    {
        // Room for each role's most intervals up front: a list grown by doubling touches about
        // twice its memory and copies it, and fresh pages are most of this pass on a 10 GB trace.
        // Room never written costs no memory.
        size_t calls = 0, ops = 0, kernels = 0, copies = 0, sets = 0;
        for (const Track& t : s.tracks())
            for (size_t i = 0; i < t.sliceCount(); ++i) {
                const EventKind k = s.kindOf(t, i);
                calls += k == EventKind::Runtime;
                ops += k == EventKind::CpuOp || k == EventKind::UserAnnotation;
                kernels += k == EventKind::Kernel;
                copies += k == EventKind::Memcpy;
                sets += k == EventKind::Memset;
            }
        r[size_t(StepRole::Runtime)].reserve(calls);
        r[size_t(StepRole::CpuExec)].reserve(ops);
        r[size_t(StepRole::DataLoader)].reserve(ops);
        r[size_t(StepRole::Communication)].reserve(ops + kernels);
        r[size_t(StepRole::Kernel)].reserve(kernels);
        r[size_t(StepRole::Memcpy)].reserve(copies);
        r[size_t(StepRole::Memset)].reserve(sets);
    }
    std::unordered_set<uint32_t> commExternalIds;
    std::vector<uint8_t> cover;
    // A capture's launching threads: the time between two CUDA calls is the code that ran (host_gaps.h).
    const bool capture = isWarpscopeCapture(s);
    for (const Track& t : s.tracks()) {
        if (t.gpu)
            continue;
        if (capture)
            for (const HostCall& c : hostCalls(s, t))
                if (c.gapNs > 0)
                    r[size_t(StepRole::CpuExec)].push_back({c.gapStart, c.gapStart + c.gapNs});
        cover.assign(t.sliceCount(), kNoRole);
        for (size_t row = 0; row < t.rowCount(); ++row) {
            const bool nested = t.rowDepth[row] > 0;
            size_t p = nested ? t.rowBegin[row - 1] : 0;
            const size_t pEnd = nested ? t.rowBegin[row] : 0;
            for (size_t i = t.rowBegin[row]; i < t.rowBegin[row + 1]; ++i) {
                uint8_t parentCover = kNoRole;
                if (nested) {
                    while (p + 1 < pEnd && t.start[p + 1] <= t.start[i])
                        ++p;
                    if (p < pEnd && t.start[p] <= t.start[i] && t.end(p) >= t.end(i))
                        parentCover = cover[p];
                }
                const EventKind k = s.kindOf(t, i);
                uint8_t role = kNoRole;
                if (k == EventKind::Runtime) {
                    role = uint8_t(StepRole::Runtime);
                } else if (k == EventKind::CpuOp || k == EventKind::UserAnnotation) {
                    switch (classOf(t.names[i])) {
                    case kProfilerStep: break;
                    case kDataLoader: role = uint8_t(StepRole::DataLoader); break;
                    case kCommOp:
                    case kParamComms:
                        role = uint8_t(classOf(t.names[i]) == kCommOp ? StepRole::Communication : StepRole::CpuExec);
                        if (!t.externalId.empty() && t.externalId[i] != Track::kNoId)
                            commExternalIds.insert(t.externalId[i]);
                        break;
                    default: role = uint8_t(StepRole::CpuExec); break;
                    }
                }
                cover[i] = std::min(role, parentCover);
                if (role != kNoRole && role < parentCover)
                    r[role].push_back({t.start[i], t.end(i)});
            }
        }
    }
    std::vector<uint8_t> commKernel(s.strings().size(), 2); // 2 = not decided yet
    for (const Track& t : s.tracks()) {
        if (!t.gpu)
            continue;
        for (size_t i = 0; i < t.sliceCount(); ++i) {
            const EventKind k = s.kindOf(t, i);
            const Interval iv{t.start[i], t.end(i)};
            if (k == EventKind::Kernel) {
                uint8_t& byName = commKernel[t.names[i]];
                if (byName == 2)
                    byName = isCommunicationKernelName(s.str(t.names[i])) ? 1 : 0;
                const bool comm = byName == 1 || (!commExternalIds.empty() && !t.externalId.empty() &&
                                                  t.externalId[i] != Track::kNoId &&
                                                  commExternalIds.count(t.externalId[i]) > 0);
                r[size_t(comm ? StepRole::Communication : StepRole::Kernel)].push_back(iv);
            } else if (k == EventKind::Memcpy) {
                r[size_t(StepRole::Memcpy)].push_back(iv);
            } else if (k == EventKind::Memset) {
                r[size_t(StepRole::Memset)].push_back(iv);
            }
        }
    }
    out.anyDeviceActivity = !r[size_t(StepRole::Kernel)].empty() || !r[size_t(StepRole::Memcpy)].empty() ||
                            !r[size_t(StepRole::Memset)].empty() || !r[size_t(StepRole::Runtime)].empty();
    out.anyCommunication = !r[size_t(StepRole::Communication)].empty();
    for (IntervalList& list : r)
        mergeIntervals(list);
    return out;
}

double StepBreakdown::averageShare(StepRole role) const {
    return averageTotal > 0 ? average[size_t(role)] / averageTotal : 0.0;
}

namespace {

// The first interval of a merged list at or after `from` that ends after `now` (ends are sorted).
size_t firstEndingAfter(const IntervalList& list, size_t from, int64_t now) {
    size_t i = from;
    for (int k = 0; k < 8 && i < list.size() && list[i].end <= now; ++k)
        ++i;
    if (i < list.size() && list[i].end <= now)
        i = static_cast<size_t>(std::partition_point(list.begin() + static_cast<std::ptrdiff_t>(i), list.end(),
                                                     [now](const Interval& iv) { return iv.end <= now; }) -
                                list.begin());
    return i;
}

} // namespace

StepBreakdown computeStepBreakdown(const StepRoleRanges& roles, std::vector<StepCosts> steps) {
    StepBreakdown out;
    out.anyDeviceActivity = roles.anyDeviceActivity;
    out.anyCommunication = roles.anyCommunication;
    // One sweep over time: each moment inside some step goes to the first role (in priority
    // order) whose merged ranges cover it, else to Other, and counts in every step open then.
    // Same sums as peeling the roles off the steps one after another, without building a list
    // per role: a 10 GB trace has millions of kernel intervals.
    struct Edge {
        int64_t t;
        uint32_t step;
        bool opens;
    };
    std::vector<Edge> edges;
    edges.reserve(steps.size() * 2);
    for (uint32_t k = 0; k < steps.size(); ++k)
        if (steps[k].end > steps[k].start) {
            edges.push_back({steps[k].start, k, true});
            edges.push_back({steps[k].end, k, false});
        }
    std::sort(edges.begin(), edges.end(), [](const Edge& x, const Edge& y) { return x.t < y.t; });
    constexpr size_t kOther = size_t(StepRole::Other);
    std::array<size_t, kStepRoleCount - 1> at{}; // per role: first interval ending after `now`
    std::vector<uint32_t> open;                   // steps open now (usually one)
    for (size_t e = 0; e < edges.size();) {
        int64_t now = edges[e].t;
        for (; e < edges.size() && edges[e].t == now; ++e) {
            if (edges[e].opens)
                open.push_back(edges[e].step);
            else
                open.erase(std::find(open.begin(), open.end(), edges[e].step));
        }
        if (open.empty() || e == edges.size())
            continue;
        const int64_t stop = edges[e].t;
        while (now < stop) {
            // The owner of `now` and when that can change: the owner's end, or the start of a role
            // before it. Roles after the owner do not matter until then.
            size_t owner = kOther;
            int64_t next = stop;
            for (size_t r = 0; r < at.size() && owner == kOther; ++r) {
                const IntervalList& list = roles.ranges[r];
                at[r] = firstEndingAfter(list, at[r], now);
                if (at[r] == list.size())
                    continue;
                const Interval& iv = list[at[r]];
                if (iv.start <= now) {
                    owner = r;
                    next = std::min(next, iv.end);
                } else {
                    next = std::min(next, iv.start);
                }
            }
            for (uint32_t k : open)
                steps[k].cost[owner] += next - now;
            now = next;
        }
    }
    if (!steps.empty()) {
        const double n = static_cast<double>(steps.size());
        for (const StepCosts& st : steps) {
            for (size_t role = 0; role < kStepRoleCount; ++role)
                out.average[role] += static_cast<double>(st.cost[role]) / n;
            out.averageTotal += static_cast<double>(st.total()) / n;
        }
    }
    out.steps = std::move(steps);
    return out;
}

std::vector<std::string> stepLabels(const Session&, const StepRanges& steps) {
    std::vector<std::string> labels = steps.labels;
    labels.resize(steps.steps.size());
    return labels;
}

StepBreakdown computeStepBreakdown(const Session& s) {
    const StepRanges ranges = computeStepRanges(s);
    const std::vector<std::string> labels = stepLabels(s, ranges);
    std::vector<StepCosts> steps;
    for (size_t i = 0; i < ranges.steps.size(); ++i) {
        StepCosts c;
        c.label = labels[i];
        c.start = ranges.steps[i].start;
        c.end = ranges.steps[i].end;
        steps.push_back(std::move(c));
    }
    return computeStepBreakdown(collectStepRoleRanges(s), std::move(steps));
}

} // namespace ws
