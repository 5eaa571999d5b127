#include "analysis/distributed_json.h"

#include "analysis/kernel_csv.h"

#include <nlohmann/json.hpp>

#include <cstdio>
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

template <typename T>
std::vector<T> arrayOf(const J& j, const char* key) {
    std::vector<T> out;
    if (auto it = j.find(key); it != j.end() && it->is_array())
        for (const auto& v : *it)
            out.push_back(v.is_null() ? T{} : v.get<T>());
    return out;
}

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
            {"communication_ns", J::array()}, {"overlap_ns", J::array()}};
    for (const RankStep& s : r.steps) {
        st["label"].push_back(s.label);
        st["start_ns"].push_back(s.start);
        st["end_ns"].push_back(s.end);
        st["computation_ns"].push_back(s.computation);
        st["communication_ns"].push_back(s.communication);
        st["overlap_ns"].push_back(s.overlap);
    }
    b["steps"] = std::move(st);
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

std::optional<RankDistributed> rankDistributedFromJson(std::string_view text, std::string* error) {
    auto fail = [&](const std::string& why) -> std::optional<RankDistributed> {
        if (error)
            *error = why;
        return std::nullopt;
    };
    J j = J::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object())
        return fail("not a JSON object");
    if (auto it = j.find("distributed"); it != j.end())
        j = *it;
    if (!j.is_object() || !j.contains("version"))
        return fail("no distributed block (made by an older warpscope-cli summary?)");
    if (j["version"] != kBlockVersion)
        return fail("distributed block version " + j["version"].dump() + " is not supported (expected 1)");
    try {
        RankDistributed r;
        r.worker = j.value("worker", std::string());
        r.path = j.value("path", std::string());
        r.rank = j.value("rank", -1);
        r.worldSize = j.value("world_size", 0);
        r.backend = j.value("backend", std::string());
        if (auto g = j.find("gpu"); g != j.end() && g->is_object()) {
            r.gpuName = g->value("name", std::string());
            if (g->contains("memory_bytes") && (*g)["memory_bytes"].is_number())
                r.gpuMemoryBytes = (*g)["memory_bytes"].get<int64_t>();
            r.computeCapability = g->value("compute_capability", std::string());
        }
        if (j.contains("gpu_utilization") && j["gpu_utilization"].is_number())
            r.gpuUtilization = j["gpu_utilization"].get<double>();
        if (j.contains("peak_memory_bytes") && j["peak_memory_bytes"].is_number())
            r.peakMemoryBytes = j["peak_memory_bytes"].get<int64_t>();
        const J& st = j.at("steps");
        const auto labels = arrayOf<std::string>(st, "label");
        const auto start = arrayOf<int64_t>(st, "start_ns"), end = arrayOf<int64_t>(st, "end_ns");
        const auto comp = arrayOf<int64_t>(st, "computation_ns"), comm = arrayOf<int64_t>(st, "communication_ns"),
                   ovl = arrayOf<int64_t>(st, "overlap_ns");
        const size_t S = labels.size();
        if (start.size() != S || end.size() != S || comp.size() != S || comm.size() != S || ovl.size() != S)
            return fail("step arrays of different lengths");
        for (size_t k = 0; k < S; ++k)
            r.steps.push_back({labels[k], start[k], end[k], comp[k], comm[k], ovl[k]});
        const J& nd = j.at("nodes");
        const auto names = arrayOf<std::string>(nd, "names");
        const auto name = arrayOf<size_t>(nd, "name");
        const auto pg = arrayOf<std::string>(nd, "process_group");
        const auto gs = arrayOf<int>(nd, "group_size");
        const auto step = arrayOf<int>(nd, "step");
        const auto count = arrayOf<size_t>(nd, "range_count");
        const auto ranges = arrayOf<int64_t>(nd, "ranges");
        const J& bytes = nd.at("bytes");
        const size_t N = name.size();
        if (pg.size() != N || gs.size() != N || step.size() != N || count.size() != N || !bytes.is_array() || bytes.size() != N)
            return fail("node arrays of different lengths");
        size_t pos = 0;
        for (size_t n = 0; n < N; ++n) {
            if (name[n] >= names.size() || pos + 2 * count[n] > ranges.size() || count[n] == 0 || step[n] >= static_cast<int>(S))
                return fail("node " + std::to_string(n) + " is out of range");
            CommNode c;
            c.name = names[name[n]];
            c.kind = collectiveKindOf(c.name);
            c.processGroup = pg[n];
            c.groupSize = gs[n];
            if (bytes[n].is_number())
                c.bytes = bytes[n].get<int64_t>();
            c.step = step[n];
            for (size_t k = 0; k < count[n]; ++k, pos += 2)
                c.ranges.push_back({ranges[pos], ranges[pos + 1]});
            r.nodes.push_back(std::move(c));
        }
        return r;
    } catch (const std::exception& e) {
        return fail(std::string("malformed distributed block: ") + e.what());
    }
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
    out["straggler"] = job.straggler ? J({{"rank", job.workers[*job.straggler].rank},
                                          {"worker", job.workers[*job.straggler].worker},
                                          {"mean_wait_ns", round3(job.stragglerMeanWaitNs)}})
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
