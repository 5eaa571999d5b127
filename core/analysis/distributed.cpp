#include "analysis/distributed.h"

#include "analysis/trace_summary.h"
#include "model/session.h"

#include <algorithm>
#include <cctype>
#include <string_view>
#include <tuple>
#include <regex>
#include <unordered_map>

namespace ws {

namespace {

std::string baseName(const std::string& path) {
    const size_t slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

// |union of [b, e)|: one linear sweep when the ranges come sorted by start (a node's ranges almost
// always do: its CPU call, then its kernels by start), else sorted in `scratch` first. No allocation
// on the sorted path.
int64_t unionLength(const Interval* b, const Interval* e, std::vector<Interval>& scratch) {
    if (!std::is_sorted(b, e, [](const Interval& x, const Interval& y) { return x.start < y.start; })) {
        scratch.assign(b, e);
        std::sort(scratch.begin(), scratch.end(), [](const Interval& x, const Interval& y) { return x.start < y.start; });
        b = scratch.data();
        e = b + scratch.size();
    }
    int64_t total = 0, curStart = 0, curEnd = 0;
    bool open = false;
    for (const Interval* i = b; i != e; ++i) {
        if (i->end <= i->start)
            continue;
        if (open && i->start <= curEnd) {
            curEnd = std::max(curEnd, i->end);
            continue;
        }
        if (open)
            total += curEnd - curStart;
        curStart = i->start;
        curEnd = i->end;
        open = true;
    }
    return open ? total + curEnd - curStart : total;
}

int64_t unionLength(const std::vector<Interval>& v, std::vector<Interval>& scratch) {
    return unionLength(v.data(), v.data() + v.size(), scratch);
}

} // namespace

int rankFromFileName(const std::string& path) {
    static const std::regex re(R"((?:rank|worker)[-_]?(\d+))", std::regex::icase);
    const std::string name = baseName(path);
    std::smatch m;
    if (!std::regex_search(name, m, re))
        return -1;
    try {
        return std::stoi(m[1].str());
    } catch (const std::exception&) {
        return -1;
    }
}

std::string workerNameFromFileName(const std::string& path) {
    // tb_plugin: ^(.*?)(\.\d+)?\.pt\.trace\.json(?:\.gz)?$
    static const std::regex tb(R"(^(.*?)(\.\d+)?\.pt\.trace\.json(?:\.gz|\.zst)?$)");
    const std::string name = baseName(path);
    std::smatch m;
    if (std::regex_match(name, m, tb))
        return m[1].str();
    for (const char* ext : {".json.gz", ".json.zst", ".json", ".warpscope", ".sqlite", ".nvvp", ".wscap.gz", ".wscap.zst", ".wscap"}) {
        const std::string e = ext;
        if (name.size() > e.size() && name.compare(name.size() - e.size(), e.size(), e) == 0)
            return name.substr(0, name.size() - e.size());
    }
    return name;
}

std::string workerName(const std::string& path) {
    const std::string name = workerNameFromFileName(path);
    const bool pidNamed = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) { return c >= '0' && c <= '9'; }) &&
                          baseName(path).find(".wscap") != std::string::npos;
    return pidNamed ? "pid " + name : name;
}

RankDistributed summarizeRank(const Session& s) { return summarizeRank(s, summarizeSession(s)); }

RankDistributed summarizeRank(const Session& s, const TraceSummary& summary) {
    const StepRanges steps = computeStepRanges(s);
    return summarizeRank(s, summary, steps, stepLabels(s, steps), collectStepRoleRanges(s));
}

RankDistributed summarizeRank(const Session& s, const TraceSummary& summary, const StepRanges& stepRanges,
                              const std::vector<std::string>& labels, const StepRoleRanges& roles) {
    RankDistributed r;
    r.path = s.sourcePath();
    r.worker = workerNameFromFileName(r.path);
    if (const auto& d = s.distributedInfo()) {
        r.backend = d->backend;
        r.rank = d->rank.value_or(-1);
        r.worldSize = d->worldSize.value_or(0);
    }
    if (r.rank < 0)
        r.rank = rankFromFileName(r.path);
    r.worker = workerName(r.path);

    const IntervalList* compute = &roles.ranges[static_cast<size_t>(StepRole::Kernel)];
    if (compute->empty()) // tb: no kernels, so computation is CPU execution
        compute = &roles.ranges[static_cast<size_t>(StepRole::CpuExec)];
    const IntervalList& comm = roles.ranges[static_cast<size_t>(StepRole::Communication)];
    const IntervalList both = intersectIntervals(*compute, comm);
    for (size_t k = 0; k < stepRanges.steps.size(); ++k) {
        const StepRange& st = stepRanges.steps[k];
        RankStep rs;
        rs.label = k < labels.size() ? labels[k] : std::string();
        rs.start = st.start;
        rs.end = st.end;
        rs.computation = lengthWithin(*compute, st.start, st.end);
        rs.communication = lengthWithin(comm, st.start, st.end);
        rs.overlap = lengthWithin(both, st.start, st.end);
        r.steps.push_back(std::move(rs));
    }
    r.nodes = collectCommNodes(s, stepRanges.steps);
    // What the host did while the GPU idled, per step: the straggler's account (no argument pass
    // over the trace: a job summarizes every rank).
    IdleGapOptions gapOptions;
    gapOptions.readCallStacks = false;
    const IdleGapReport gaps = computeIdleGaps(s, stepRanges, gapOptions);
    for (const IdleGap& g : gaps.gaps)
        if (g.step < r.steps.size())
            for (size_t k = 0; k < kGapCategoryCount; ++k)
                r.steps[g.step].idle[k] += g.ns[k];
    for (size_t k = 0; k < kGapCategoryCount; ++k)
        if (!gaps.categories[k].lines.empty())
            r.idleTopLine[k] = gapLineText(gaps.lines[gaps.categories[k].lines.front()]);

    // The rank's GPU: the busiest device of the trace.
    const DeviceSummary* gpu = nullptr;
    for (const DeviceSummary& d : summary.devices)
        if (d.gpuUtilization && (!gpu || *d.gpuUtilization > *gpu->gpuUtilization))
            gpu = &d;
    if (!gpu && !summary.devices.empty())
        gpu = &summary.devices.front();
    if (gpu) {
        r.gpuName = gpu->name;
        r.gpuUtilization = gpu->gpuUtilization;
        r.peakMemoryBytes = gpu->peakAllocatedBytes;
        r.gpuMemoryBytes = gpu->totalMemoryBytes;
        for (const DeviceInfo& di : s.devices())
            if (di.id == gpu->id && di.computeMajor && di.computeMinor)
                r.computeCapability = std::to_string(*di.computeMajor) + "." + std::to_string(*di.computeMinor);
    }
    return r;
}

JobDistributed computeJobDistributed(const std::vector<RankDistributed>& ranks, const StepFilter& keep) {
    JobDistributed job;
    std::vector<size_t> order(ranks.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        if ((ranks[a].rank < 0) != (ranks[b].rank < 0))
            return ranks[a].rank >= 0;
        return ranks[a].rank < ranks[b].rank;
    });
    const size_t W = order.size();
    // The workers' headers with the kept steps (no nodes: they stay in `ranks`, read in place), and
    // each original step's index among the kept ones (-1: filtered out).
    std::vector<std::vector<int>> stepMap(W);
    for (size_t w = 0; w < W; ++w) {
        const RankDistributed& src = ranks[order[w]];
        RankDistributed header;
        header.worker = src.worker;
        header.path = src.path;
        header.rank = src.rank;
        header.worldSize = src.worldSize;
        header.backend = src.backend;
        header.gpuName = src.gpuName;
        header.gpuMemoryBytes = src.gpuMemoryBytes;
        header.computeCapability = src.computeCapability;
        header.gpuUtilization = src.gpuUtilization;
        header.peakMemoryBytes = src.peakMemoryBytes;
        header.idleTopLine = src.idleTopLine;
        stepMap[w].assign(src.steps.size(), -1);
        for (size_t k = 0; k < src.steps.size(); ++k)
            if (!keep || keep(order[w], src.steps[k])) {
                stepMap[w][k] = static_cast<int>(header.steps.size());
                header.steps.push_back(src.steps[k]);
            }
        job.workers.push_back(std::move(header));
    }
    auto nodesOf = [&](size_t w) -> const std::vector<CommNode>& { return ranks[order[w]].nodes; };
    auto stepOf = [&](size_t w, const CommNode& n) {
        return n.step >= 0 && static_cast<size_t>(n.step) < stepMap[w].size() ? stepMap[w][static_cast<size_t>(n.step)] : -1;
    };

    // Match nodes across workers by (name, occurrence among the worker's in-step nodes), then take
    // the shortest duration of each range over the workers: what remains of a range after waiting
    // for the slowest rank is data transfer (tb's "real" range [end - min_dur, end]). Keys are dense
    // integers (names interned once) so a thousand ranks of hundreds of ops merge in well under a
    // second; the string views point into `ranks`.
    std::unordered_map<std::string_view, uint32_t> nameIds;
    std::unordered_map<uint64_t, uint32_t> keyIds;      // (name id, occurrence) -> dense key
    std::vector<std::vector<uint32_t>> keys(W);         // per worker, per node (kNoKey when not in a step)
    constexpr uint32_t kNoKey = ~uint32_t(0);
    std::vector<std::vector<int64_t>> minDur;           // per dense key, per range index
    std::vector<uint32_t> keyWorkers;                   // per dense key
    std::vector<uint32_t> occurrence;                   // scratch: per name id
    for (size_t w = 0; w < W; ++w) {
        const auto& nodes = nodesOf(w);
        keys[w].assign(nodes.size(), kNoKey);
        occurrence.assign(nameIds.size(), 0);
        for (size_t n = 0; n < nodes.size(); ++n) {
            if (stepOf(w, nodes[n]) < 0)
                continue;
            const uint32_t id = nameIds.try_emplace(nodes[n].name, static_cast<uint32_t>(nameIds.size())).first->second;
            if (id >= occurrence.size())
                occurrence.resize(id + 1, 0);
            const uint64_t raw = (uint64_t(id) << 32) | occurrence[id]++;
            const auto [it, fresh] = keyIds.try_emplace(raw, static_cast<uint32_t>(minDur.size()));
            if (fresh) {
                minDur.emplace_back();
                keyWorkers.push_back(0);
            }
            const uint32_t key = it->second;
            keys[w][n] = key;
            ++keyWorkers[key];
            auto& mins = minDur[key];
            const auto& r = nodes[n].ranges;
            if (mins.size() < r.size())
                mins.resize(r.size(), INT64_MAX);
            for (size_t j = 0; j < r.size(); ++j)
                mins[j] = std::min(mins[j], r[j].end - r[j].start);
        }
    }
    for (uint32_t count : keyWorkers)
        if (count < W)
            job.unmatchedNodes += count;

    job.steps.resize(W);
    std::unordered_map<std::string_view, uint32_t> groupIds;
    std::vector<Interval> realRanges, scratch;
    for (size_t w = 0; w < W; ++w) {
        const RankDistributed& rd = job.workers[w];
        WorkerSteps& ws = job.steps[w];
        const size_t S = rd.steps.size();
        std::vector<std::vector<Interval>> total(S), real(S);
        // This worker's ops rows by (process group id, name id), in first-seen order, sorted below.
        std::unordered_map<uint64_t, size_t> opIndex;
        std::vector<CommOpStats> workerOps;
        const auto& nodes = nodesOf(w);
        for (size_t n = 0; n < nodes.size(); ++n) {
            const CommNode& node = nodes[n];
            const int step = stepOf(w, node);
            if (keys[w][n] == kNoKey || step < 0)
                continue;
            const auto& mins = minDur[keys[w][n]];
            realRanges.clear();
            for (size_t j = 0; j < node.ranges.size(); ++j)
                realRanges.push_back({node.ranges[j].end - mins[j], node.ranges[j].end});
            auto& t = total[static_cast<size_t>(step)];
            t.insert(t.end(), node.ranges.begin(), node.ranges.end());
            auto& r = real[static_cast<size_t>(step)];
            r.insert(r.end(), realRanges.begin(), realRanges.end());

            const uint32_t pg = groupIds.try_emplace(node.processGroup, static_cast<uint32_t>(groupIds.size())).first->second;
            const uint64_t opKey = (uint64_t(pg) << 32) | nameIds.at(node.name);
            const auto [slot, added] = opIndex.try_emplace(opKey, workerOps.size());
            if (added) {
                CommOpStats row;
                row.worker = w;
                row.processGroup = node.processGroup;
                row.name = node.name;
                row.kind = node.kind;
                row.groupSize = node.groupSize > 0 ? node.groupSize : (rd.worldSize > 0 ? rd.worldSize : static_cast<int>(W));
                workerOps.push_back(std::move(row));
            }
            CommOpStats& op = workerOps[slot->second];
            ++op.calls;
            if (node.bytes) {
                op.totalBytes += *node.bytes;
                op.bytesKnown = true;
            }
            op.latencyNs += unionLength(node.ranges, scratch);
            op.transferNs += unionLength(realRanges, scratch);
            op.kernelNs += unionLength(node.ranges.data() + 1, node.ranges.data() + node.ranges.size(), scratch);
        }
        std::sort(workerOps.begin(), workerOps.end(), [](const CommOpStats& a, const CommOpStats& b) {
            return std::tie(a.processGroup, a.name) < std::tie(b.processGroup, b.name);
        });
        for (CommOpStats& op : workerOps)
            job.ops.push_back(std::move(op));
        ws.sync.assign(S, 0);
        ws.transfer.assign(S, 0);
        for (size_t k = 0; k < S; ++k) {
            const int64_t tot = unionLength(total[k], scratch);
            ws.transfer[k] = unionLength(real[k], scratch);
            ws.sync[k] = tot - ws.transfer[k];
        }
        if (S > 0) {
            const double d = static_cast<double>(S);
            for (size_t k = 0; k < S; ++k) {
                const RankStep& st = rd.steps[k];
                ws.meanComputation += static_cast<double>(st.computation) / d;
                ws.meanCommunication += static_cast<double>(st.communication) / d;
                ws.meanOverlap += static_cast<double>(st.overlap) / d;
                ws.meanOther += static_cast<double>(st.other()) / d;
                ws.meanSync += static_cast<double>(ws.sync[k]) / d;
                ws.meanTransfer += static_cast<double>(ws.transfer[k]) / d;
                ws.meanStepNs += static_cast<double>(st.end - st.start) / d;
            }
        }
    }
    for (CommOpStats& op : job.ops) {
        const int64_t time = op.kernelNs > 0 ? op.kernelNs : op.latencyNs;
        if (op.bytesKnown && time > 0) {
            op.algBwGBps = static_cast<double>(collectiveSizeBytes(op.kind, op.totalBytes, op.groupSize)) / static_cast<double>(time);
            if (const auto f = busBandwidthFactor(op.kind, op.groupSize))
                op.busBwGBps = *op.algBwGBps * *f;
        }
    }

    // Stragglers: per step common to all workers, the one that waited least (others waited on it).
    if (W >= 2) {
        std::vector<std::unordered_map<std::string, size_t>> stepIndex(W);
        for (size_t w = 0; w < W; ++w)
            for (size_t k = 0; k < job.workers[w].steps.size(); ++k)
                stepIndex[w].try_emplace(job.workers[w].steps[k].label, k);
        std::vector<uint64_t> times(W, 0);
        std::vector<double> waits(W, 0);
        for (size_t k = 0; k < job.workers[0].steps.size(); ++k) {
            const std::string& label = job.workers[0].steps[k].label;
            std::vector<int64_t> sync(W);
            bool everywhere = true;
            for (size_t w = 0; w < W && everywhere; ++w) {
                auto it = stepIndex[w].find(label);
                everywhere = it != stepIndex[w].end();
                if (everywhere)
                    sync[w] = job.steps[w].sync[it->second];
            }
            // Nobody waited (no collective, or none matched): no straggler in this step.
            if (!everywhere || std::all_of(sync.begin(), sync.end(), [](int64_t v) { return v <= 0; }))
                continue;
            const size_t s = static_cast<size_t>(std::min_element(sync.begin(), sync.end()) - sync.begin());
            double others = 0;
            for (size_t w = 0; w < W; ++w)
                if (w != s)
                    others += static_cast<double>(sync[w]);
            const double wait = others / static_cast<double>(W - 1);
            job.stragglers.push_back({label, s, wait});
            ++times[s];
            waits[s] += wait;
        }
        if (!job.stragglers.empty()) {
            size_t best = 0;
            for (size_t w = 1; w < W; ++w)
                if (times[w] > times[best] || (times[w] == times[best] && waits[w] > waits[best]))
                    best = w;
            job.straggler = best;
            job.stragglerMeanWaitNs = waits[best] / static_cast<double>(times[best]);
            // Its GPU's idle time by cause in the steps it straggled, and the others' in the same steps.
            double others = 0;
            for (const StepStraggler& st : job.stragglers) {
                if (st.worker != best)
                    continue;
                for (size_t w = 0; w < W; ++w) {
                    auto it = stepIndex[w].find(st.step);
                    if (it == stepIndex[w].end())
                        continue;
                    const RankStep& rs = job.workers[w].steps[it->second];
                    for (size_t k = 0; k < kGapCategoryCount; ++k)
                        (w == best ? job.stragglerIdleNs[k] : job.othersIdleNs[k]) += static_cast<double>(rs.idle[k]);
                    if (w != best)
                        others += 1;
                }
            }
            for (size_t k = 0; k < kGapCategoryCount; ++k) {
                job.stragglerIdleNs[k] /= static_cast<double>(times[best]);
                if (others > 0)
                    job.othersIdleNs[k] /= others;
            }
        }
        size_t slow = W, fast = W;
        for (size_t w = 0; w < W; ++w) {
            if (job.workers[w].steps.empty())
                continue;
            if (slow == W || job.steps[w].meanStepNs > job.steps[slow].meanStepNs)
                slow = w;
            if (fast == W || job.steps[w].meanStepNs < job.steps[fast].meanStepNs)
                fast = w;
        }
        // Marks only for a real difference: steps that end together differ by noise alone.
        if (slow != W && slow != fast && job.steps[slow].meanStepNs > 1.01 * job.steps[fast].meanStepNs) {
            job.slowestWorker = slow;
            job.fastestWorker = fast;
        }
    }
    return job;
}

std::vector<GapCategory> stragglerIdleCauses(const JobDistributed& job) {
    std::vector<GapCategory> out;
    if (!job.straggler)
        return out;
    double total = 0;
    for (double v : job.stragglerIdleNs)
        total += v;
    for (size_t k = 0; k < kGapCategoryCount; ++k)
        if (total > 0 && job.stragglerIdleNs[k] >= 0.1 * total)
            out.push_back(static_cast<GapCategory>(k));
    std::stable_sort(out.begin(), out.end(), [&](GapCategory a, GapCategory b) {
        return job.stragglerIdleNs[size_t(a)] > job.stragglerIdleNs[size_t(b)];
    });
    if (out.size() > 3)
        out.resize(3);
    return out;
}

std::vector<size_t> jobWorkerIndices(const std::vector<RankDistributed>& processes) {
    const bool anyRank = std::any_of(processes.begin(), processes.end(), [](const RankDistributed& r) { return r.rank >= 0; });
    std::vector<size_t> keep;
    for (size_t i = 0; i < processes.size(); ++i)
        if (!anyRank || processes[i].rank >= 0 || !processes[i].nodes.empty())
            keep.push_back(i);
    return keep;
}

} // namespace ws
