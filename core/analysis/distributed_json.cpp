#include "analysis/distributed_json.h"

#include "analysis/kernel_csv.h"

#include <nlohmann/json.hpp>

// simdjson's inlined iterator code trips -Wnull-dereference in its own header; not ours to fix.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wnull-dereference"
#include <simdjson.h>
#pragma GCC diagnostic pop

#include <cstdio>
#include <type_traits>
#include <unordered_map>

namespace ws {

namespace {

using J = nlohmann::ordered_json;

template <typename T>
J opt(const std::optional<T>& v) {
    return v ? J(*v) : J(nullptr);
}

constexpr int kBlockVersion = 1;

// Rounded to 3 decimals: means are shown in µs with ns precision at most.
double round3(double v) { return static_cast<double>(static_cast<int64_t>(v * 1000.0 + (v < 0 ? -0.5 : 0.5))) / 1000.0; }


// Fixed-point text with `decimals` digits (CSV cells).
std::string fixed(int decimals, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

} // namespace

std::string rankDistributedToJson(const RankDistributed& r) {
    J b;
    b["version"] = kBlockVersion;
    b["worker"] = r.worker;
    b["path"] = r.path;
    b["rank"] = r.rank;
    b["world_size"] = r.worldSize;
    b["backend"] = r.backend;
    b["gpu"] = {{"name", r.gpuName}, {"memory_bytes", opt(r.gpuMemoryBytes)}, {"compute_capability", r.computeCapability}};
    b["gpu_utilization"] = opt(r.gpuUtilization);
    b["peak_memory_bytes"] = opt(r.peakMemoryBytes);
    J st = {{"label", J::array()}, {"start_ns", J::array()}, {"end_ns", J::array()}, {"computation_ns", J::array()},
            {"communication_ns", J::array()}, {"overlap_ns", J::array()}, {"idle_ns", J::array()}};
    for (const RankStep& s : r.steps) {
        st["label"].push_back(s.label);
        st["start_ns"].push_back(s.start);
        st["end_ns"].push_back(s.end);
        st["computation_ns"].push_back(s.computation);
        st["communication_ns"].push_back(s.communication);
        st["overlap_ns"].push_back(s.overlap);
        st["idle_ns"].push_back(s.idle); // by cause, in GapCategory order
    }
    b["steps"] = std::move(st);
    b["idle_top_lines"] = r.idleTopLine;
    J names = J::array(), name = J::array(), pg = J::array(), gs = J::array(), bytes = J::array(), step = J::array(),
      count = J::array(), ranges = J::array();
    std::unordered_map<std::string, size_t> ids;
    for (const CommNode& n : r.nodes) {
        auto [it, fresh] = ids.try_emplace(n.name, ids.size());
        if (fresh)
            names.push_back(n.name);
        name.push_back(it->second);
        pg.push_back(n.processGroup);
        gs.push_back(n.groupSize);
        bytes.push_back(opt(n.bytes));
        step.push_back(n.step);
        count.push_back(n.ranges.size());
        for (const Interval& iv : n.ranges) {
            ranges.push_back(iv.start);
            ranges.push_back(iv.end);
        }
    }
    b["nodes"] = {{"names", std::move(names)}, {"name", std::move(name)},   {"process_group", std::move(pg)},
                  {"group_size", std::move(gs)}, {"bytes", std::move(bytes)}, {"step", std::move(step)},
                  {"range_count", std::move(count)}, {"ranges", std::move(ranges)}};
    return b.dump(-1, ' ', false, J::error_handler_t::replace);
}

namespace {

namespace dom = simdjson::dom;

// Typed array readers over a simdjson DOM array; false when an element has another type (null reads
// as empty for optional columns).
template <typename T>
bool readArray(dom::object o, const char* key, std::vector<T>& out) {
    dom::array a;
    if (o[key].get_array().get(a))
        return false;
    out.reserve(a.size());
    for (dom::element e : a) {
        T v{};
        if constexpr (std::is_same_v<T, std::string>) {
            std::string_view sv;
            if (e.get_string().get(sv))
                return false;
            v = std::string(sv);
        } else if constexpr (std::is_same_v<T, std::optional<int64_t>>) {
            int64_t x = 0;
            if (!e.is_null()) {
                if (e.get_int64().get(x))
                    return false;
                v = x;
            }
        } else {
            int64_t x = 0;
            if (e.get_int64().get(x))
                return false;
            v = static_cast<T>(x);
        }
        out.push_back(std::move(v));
    }
    return true;
}

std::string stringOr(dom::object o, const char* key) {
    std::string_view sv;
    return o[key].get_string().get(sv) ? std::string() : std::string(sv);
}

template <typename T>
T intOr(dom::object o, const char* key, T fallback) {
    int64_t v = 0;
    return o[key].get_int64().get(v) ? fallback : static_cast<T>(v);
}

} // namespace

// simdjson's DOM (not nlohmann): a job of a thousand ranks brings a thousand blocks of tens of
// thousands of numbers each; this reads them at several hundred MB/s.
std::optional<RankDistributed> rankDistributedFromJson(std::string_view text, std::string* error) {
    auto fail = [&](const std::string& why) -> std::optional<RankDistributed> {
        if (error)
            *error = why;
        return std::nullopt;
    };
    thread_local dom::parser parser;
    const simdjson::padded_string padded(text);
    dom::element doc;
    if (parser.parse(padded).get(doc))
        return fail("not valid JSON");
    dom::object b;
    if (doc.get_object().get(b))
        return fail("not a JSON object");
    if (dom::object inner; !b["distributed"].get_object().get(inner))
        b = inner;
    int64_t version = 0;
    if (b["version"].get_int64().get(version))
        return fail("no distributed block (made by an older warpscope-cli summary?)");
    if (version != kBlockVersion)
        return fail("distributed block version " + std::to_string(version) + " is not supported (expected 1)");
    RankDistributed r;
    r.worker = stringOr(b, "worker");
    r.path = stringOr(b, "path");
    r.rank = intOr(b, "rank", -1);
    r.worldSize = intOr(b, "world_size", 0);
    r.backend = stringOr(b, "backend");
    if (dom::object g; !b["gpu"].get_object().get(g)) {
        r.gpuName = stringOr(g, "name");
        if (int64_t m = 0; !g["memory_bytes"].get_int64().get(m))
            r.gpuMemoryBytes = m;
        r.computeCapability = stringOr(g, "compute_capability");
    }
    if (double u = 0; !b["gpu_utilization"].get_double().get(u))
        r.gpuUtilization = u;
    if (int64_t m = 0; !b["peak_memory_bytes"].get_int64().get(m))
        r.peakMemoryBytes = m;
    dom::object st, nd;
    if (b["steps"].get_object().get(st) || b["nodes"].get_object().get(nd))
        return fail("malformed distributed block: no steps or nodes");
    std::vector<std::string> labels;
    std::vector<int64_t> start, end, comp, comm, ovl;
    if (!readArray(st, "label", labels) || !readArray(st, "start_ns", start) || !readArray(st, "end_ns", end) ||
        !readArray(st, "computation_ns", comp) || !readArray(st, "communication_ns", comm) || !readArray(st, "overlap_ns", ovl))
        return fail("malformed distributed block: bad step arrays");
    const size_t S = labels.size();
    if (start.size() != S || end.size() != S || comp.size() != S || comm.size() != S || ovl.size() != S)
        return fail("step arrays of different lengths");
    r.steps.reserve(S);
    for (size_t k = 0; k < S; ++k)
        r.steps.push_back({std::move(labels[k]), start[k], end[k], comp[k], comm[k], ovl[k]});
    // The idle gaps by cause (absent in summaries written before them: zero).
    if (dom::array idle; !st["idle_ns"].get_array().get(idle) && idle.size() == S) {
        size_t k = 0;
        for (dom::element step : idle) {
            size_t c = 0;
            if (dom::array v; !step.get_array().get(v))
                for (dom::element x : v)
                    if (int64_t n = 0; c < kGapCategoryCount && !x.get_int64().get(n))
                        r.steps[k].idle[c++] = n;
            ++k;
        }
    }
    if (dom::array lines; !b["idle_top_lines"].get_array().get(lines)) {
        size_t c = 0;
        for (dom::element x : lines)
            if (std::string_view v; c < kGapCategoryCount && !x.get_string().get(v))
                r.idleTopLine[c++] = std::string(v);
    }
    std::vector<std::string> names, pg;
    std::vector<size_t> name, count;
    std::vector<int> gs, step;
    std::vector<int64_t> ranges;
    std::vector<std::optional<int64_t>> bytes;
    if (!readArray(nd, "names", names) || !readArray(nd, "name", name) || !readArray(nd, "process_group", pg) ||
        !readArray(nd, "group_size", gs) || !readArray(nd, "step", step) || !readArray(nd, "range_count", count) ||
        !readArray(nd, "ranges", ranges) || !readArray(nd, "bytes", bytes))
        return fail("malformed distributed block: bad node arrays");
    const size_t N = name.size();
    if (pg.size() != N || gs.size() != N || step.size() != N || count.size() != N || bytes.size() != N)
        return fail("node arrays of different lengths");
    std::vector<CollectiveKind> kinds;
    for (const std::string& n : names)
        kinds.push_back(collectiveKindOf(n));
    r.nodes.reserve(N);
    size_t pos = 0;
    for (size_t n = 0; n < N; ++n) {
        if (name[n] >= names.size() || count[n] == 0 || count[n] > (ranges.size() - pos) / 2 || step[n] >= static_cast<int>(S))
            return fail("node " + std::to_string(n) + " is out of range");
        CommNode c;
        c.name = names[name[n]];
        c.kind = kinds[name[n]];
        c.processGroup = std::move(pg[n]);
        c.groupSize = gs[n];
        c.bytes = bytes[n];
        c.step = step[n];
        c.ranges.reserve(count[n]);
        for (size_t k = 0; k < count[n]; ++k, pos += 2)
            c.ranges.push_back({ranges[pos], ranges[pos + 1]});
        r.nodes.push_back(std::move(c));
    }
    return r;
}

std::string jobDistributedToJson(const JobDistributed& job) {
    J out;
    J workers = J::array();
    for (size_t w = 0; w < job.workers.size(); ++w) {
        const RankDistributed& r = job.workers[w];
        const WorkerSteps& ws = job.steps[w];
        J steps = J::array();
        for (size_t k = 0; k < r.steps.size(); ++k) {
            const RankStep& s = r.steps[k];
            steps.push_back({{"label", s.label},
                             {"start_ns", s.start},
                             {"end_ns", s.end},
                             {"computation_ns", s.computation},
                             {"communication_ns", s.communication},
                             {"overlap_ns", s.overlap},
                             {"other_ns", s.other()},
                             {"sync_ns", ws.sync[k]},
                             {"transfer_ns", ws.transfer[k]}});
        }
        workers.push_back({{"rank", r.rank},
                           {"worker", r.worker},
                           {"path", r.path},
                           {"gpu", r.gpuName},
                           {"gpu_memory_bytes", opt(r.gpuMemoryBytes)},
                           {"compute_capability", r.computeCapability},
                           {"gpu_utilization", opt(r.gpuUtilization)},
                           {"peak_memory_bytes", opt(r.peakMemoryBytes)},
                           {"mean_step_ns", round3(ws.meanStepNs)},
                           {"mean",
                            {{"computation_ns", round3(ws.meanComputation)},
                             {"communication_ns", round3(ws.meanCommunication)},
                             {"overlap_ns", round3(ws.meanOverlap)},
                             {"other_ns", round3(ws.meanOther)},
                             {"sync_ns", round3(ws.meanSync)},
                             {"transfer_ns", round3(ws.meanTransfer)}}},
                           {"slowest", job.slowestWorker == w},
                           {"fastest", job.fastestWorker == w},
                           {"straggler", job.straggler == w},
                           {"steps", std::move(steps)}});
    }
    out["workers"] = std::move(workers);
    J ops = J::array();
    for (const CommOpStats& op : job.ops) {
        const double calls = static_cast<double>(op.calls);
        ops.push_back({{"rank", job.workers[op.worker].rank},
                       {"process_group", op.processGroup},
                       {"name", op.name},
                       {"collective", collectiveKindName(op.kind)},
                       {"group_size", op.groupSize},
                       {"calls", op.calls},
                       {"total_bytes", op.bytesKnown ? J(op.totalBytes) : J(nullptr)},
                       {"avg_bytes", op.bytesKnown ? J(round3(static_cast<double>(op.totalBytes) / calls)) : J(nullptr)},
                       {"total_latency_ns", op.latencyNs},
                       {"avg_latency_ns", round3(static_cast<double>(op.latencyNs) / calls)},
                       {"transfer_ns", op.transferNs},
                       {"kernel_ns", op.kernelNs},
                       {"algbw_gbps", opt(op.algBwGBps)},
                       {"busbw_gbps", opt(op.busBwGBps)}});
    }
    out["ops"] = std::move(ops);
    J stragglers = J::array();
    for (const StepStraggler& s : job.stragglers)
        stragglers.push_back({{"step", s.step}, {"rank", job.workers[s.worker].rank}, {"wait_ns", round3(s.waitNs)}});
    out["stragglers"] = std::move(stragglers);
    J idle = J::object(), othersIdle = J::object(), lines = J::object();
    if (job.straggler)
        for (size_t k = 0; k < kGapCategoryCount; ++k) {
            const char* id = gapCategoryId(static_cast<GapCategory>(k));
            idle[id] = round3(job.stragglerIdleNs[k]);
            othersIdle[id] = round3(job.othersIdleNs[k]);
            lines[id] = job.workers[*job.straggler].idleTopLine[k];
        }
    out["straggler"] = job.straggler ? J({{"rank", job.workers[*job.straggler].rank},
                                          {"worker", job.workers[*job.straggler].worker},
                                          {"mean_wait_ns", round3(job.stragglerMeanWaitNs)},
                                          {"idle_ns_per_step", std::move(idle)},
                                          {"others_idle_ns_per_step", std::move(othersIdle)},
                                          {"idle_top_lines", std::move(lines)}})
                                     : J(nullptr);
    out["unmatched_nodes"] = job.unmatchedNodes;
    return out.dump(1, ' ', false, J::error_handler_t::replace);
}

std::string jobDistributedToCsv(const JobDistributed& job, DistributedTable table) {
    std::string out;
    auto us = [](double ns) { return fixed(3, ns / 1000.0); };
    switch (table) {
    case DistributedTable::Workers:
        out = "rank,worker,gpu,steps,mean_step_us,computation_us,overlap_us,communication_us,other_us,sync_us,"
              "transfer_us,gpu_utilization_pct,peak_memory_bytes,mark\n";
        for (size_t w = 0; w < job.workers.size(); ++w) {
            const RankDistributed& r = job.workers[w];
            const WorkerSteps& s = job.steps[w];
            std::string mark;
            if (job.slowestWorker == w)
                mark = "slowest";
            if (job.fastestWorker == w)
                mark = "fastest";
            if (job.straggler == w)
                mark += mark.empty() ? "straggler" : " straggler";
            out += std::to_string(r.rank) + "," + csvField(r.worker) + "," + csvField(r.gpuName) + "," +
                   std::to_string(r.steps.size()) + "," + us(s.meanStepNs) + "," + us(s.meanComputation - s.meanOverlap) + "," +
                   us(s.meanOverlap) + "," + us(s.meanCommunication - s.meanOverlap) + "," + us(s.meanOther) + "," +
                   us(s.meanSync) + "," + us(s.meanTransfer) + "," +
                   (r.gpuUtilization ? fixed(2, *r.gpuUtilization * 100.0) : std::string()) + "," +
                   (r.peakMemoryBytes ? std::to_string(*r.peakMemoryBytes) : std::string()) + "," + mark + "\n";
        }
        break;
    case DistributedTable::Steps:
        out = "rank,step,start_ns,end_ns,computation_ns,communication_ns,overlap_ns,other_ns,sync_ns,transfer_ns\n";
        for (size_t w = 0; w < job.workers.size(); ++w)
            for (size_t k = 0; k < job.workers[w].steps.size(); ++k) {
                const RankStep& s = job.workers[w].steps[k];
                out += std::to_string(job.workers[w].rank) + "," + csvField(s.label) + "," + std::to_string(s.start) + "," +
                       std::to_string(s.end) + "," + std::to_string(s.computation) + "," + std::to_string(s.communication) +
                       "," + std::to_string(s.overlap) + "," + std::to_string(s.other()) + "," +
                       std::to_string(job.steps[w].sync[k]) + "," + std::to_string(job.steps[w].transfer[k]) + "\n";
            }
        break;
    case DistributedTable::Ops:
        out = "rank,process_group,name,collective,group_size,calls,total_bytes,avg_bytes,total_latency_us,avg_latency_us,"
              "transfer_us,algbw_gbps,busbw_gbps\n";
        for (const CommOpStats& op : job.ops) {
            const double calls = static_cast<double>(op.calls);
            out += std::to_string(job.workers[op.worker].rank) + "," + csvField(op.processGroup) + "," + csvField(op.name) +
                   "," + collectiveKindName(op.kind) + "," + std::to_string(op.groupSize) + "," + std::to_string(op.calls) +
                   "," + (op.bytesKnown ? std::to_string(op.totalBytes) : std::string()) + "," +
                   (op.bytesKnown ? fixed(1, static_cast<double>(op.totalBytes) / calls) : std::string()) + "," +
                   us(static_cast<double>(op.latencyNs)) + "," + us(static_cast<double>(op.latencyNs) / calls) + "," +
                   us(static_cast<double>(op.transferNs)) + "," + (op.algBwGBps ? fixed(3, *op.algBwGBps) : std::string()) +
                   "," + (op.busBwGBps ? fixed(3, *op.busBwGBps) : std::string()) + "\n";
        }
        break;
    }
    return out;
}

} // namespace ws
