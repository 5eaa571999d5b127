#include "analysis/ncu_match.h"

#include "analysis/kernel_table.h"
#include "analysis/ncu_command.h"
#include "model/session.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <map>
#include <ostream>

namespace ws {

namespace {

bool sameShape(const KernelRow& row, const NcuResult& r) { return row.grid == r.grid && row.block == r.block; }

} // namespace

Bound ncuSpeedOfLightBound(const NcuResult& r) {
    if (std::isnan(r.smThroughputPct) || std::isnan(r.memoryThroughputPct))
        return Bound::Unknown;
    if (std::max(r.smThroughputPct, r.memoryThroughputPct) < 60)
        return Bound::Latency;
    return r.smThroughputPct >= r.memoryThroughputPct ? Bound::Compute : Bound::Memory;
}

NcuMatch matchNcuResults(const Session& session, const KernelTable& table, const NcuResults& results,
                         const NcuMatchOptions& options) {
    NcuMatch match;
    match.launches.resize(results.results.size());
    std::map<std::string, std::vector<uint32_t>> byFunction; // results of each function name, ID order
    for (uint32_t i = 0; i < results.results.size(); ++i) {
        match.launches[i].result = i;
        match.launches[i].measuredBound = ncuSpeedOfLightBound(results.results[i]);
        byFunction[results.results[i].function].push_back(i);
    }
    std::vector<std::string> functionOfName(table.names().size());
    for (size_t n = 0; n < functionOfName.size(); ++n)
        functionOfName[n] = kernelFunctionName(session.str(table.names()[n]));
    for (const auto& [function, ids] : byFunction) {
        std::vector<uint32_t> rows;
        for (uint32_t r = 0; r < table.size(); ++r)
            if (functionOfName[table.row(r).nameIndex] == function)
                rows.push_back(r);
        if (rows.empty())
            continue;
        // The placement whose grid and block sizes agree with the most results.
        const size_t n = ids.size();
        const size_t last = rows.size() >= n ? rows.size() - n : 0;
        size_t bestScore = 0, ties = 0;
        std::vector<size_t> best;
        for (size_t o = 0; o <= last; ++o) {
            size_t score = 0;
            for (size_t i = 0; i < n && o + i < rows.size(); ++i)
                score += sameShape(table.row(rows[o + i]), results.results[ids[i]]);
            if (score > bestScore || best.empty()) {
                bestScore = score;
                best.assign(1, o);
            } else if (score == bestScore) {
                best.push_back(o);
            }
        }
        ties = best.size();
        size_t offset = best.front();
        if (options.skipHint && std::find(best.begin(), best.end(), *options.skipHint) != best.end())
            offset = *options.skipHint;
        match.ambiguousFunctions += ties > 1 && !(options.skipHint && offset == *options.skipHint);
        for (size_t i = 0; i < n && offset + i < rows.size(); ++i) {
            NcuMatchedLaunch& m = match.launches[ids[i]];
            m.row = rows[offset + i];
            m.launch = offset + i;
            m.shapesAgree = sameShape(table.row(rows[offset + i]), results.results[ids[i]]);
        }
    }
    return match;
}

std::vector<NcuKernelMeasure> ncuByKernelName(const KernelTable& table, const NcuResults& results, const NcuMatch& match) {
    std::map<uint32_t, NcuKernelMeasure> byName;
    auto mean = [](double& sum, double v, uint32_t n) { sum += (std::isnan(v) ? 0 : v - sum) / n; };
    for (const NcuMatchedLaunch& m : match.launches) {
        if (!m.row)
            continue;
        const KernelRow& k = table.row(*m.row);
        const NcuResult& r = results.results[m.result];
        NcuKernelMeasure& g = byName[k.nameIndex];
        g.nameIndex = k.nameIndex;
        const uint32_t n = ++g.launches;
        mean(g.durationNs, r.durationNs, n);
        mean(g.smThroughputPct, r.smThroughputPct, n);
        mean(g.memoryThroughputPct, r.memoryThroughputPct, n);
        mean(g.dramGBps, r.dramGBps, n);
        mean(g.achievedOccupancyPct, r.achievedOccupancyPct, n);
        if (!std::isnan(k.flops) && !std::isnan(r.dramGBps) && !std::isnan(r.durationNs)) {
            g.flops += k.flops;
            g.dramBytes += r.dramGBps * r.durationNs; // GB/s x ns = bytes
            g.estimatedNs += r.durationNs;
        }
        for (const NcuRule& rule : r.rules)
            if ((rule.type == "OPT" || rule.type == "WRN") &&
                std::none_of(g.rules.begin(), g.rules.end(), [&](const NcuRule& x) { return x.name == rule.name; }))
                g.rules.push_back(rule);
    }
    std::vector<NcuKernelMeasure> out;
    for (auto& [name, g] : byName) {
        NcuResult averaged;
        averaged.smThroughputPct = g.smThroughputPct;
        averaged.memoryThroughputPct = g.memoryThroughputPct;
        g.bound = ncuSpeedOfLightBound(averaged);
        out.push_back(std::move(g));
    }
    return out;
}

namespace {

using nlohmann::json;

json opt(double v) { return std::isnan(v) ? json(nullptr) : json(v); }

} // namespace

std::string ncuMatchToJson(const Session& session, const KernelTable& table, const NcuResults& results,
                           const NcuMatch& match) {
    json out = json::array();
    for (const NcuMatchedLaunch& m : match.launches) {
        const NcuResult& r = results.results[m.result];
        json j = {{"id", r.id}, {"ncu_kernel", r.kernelName}, {"function", r.function},
                  {"grid", r.grid}, {"block", r.block},
                  {"measured", {{"duration_ns", opt(r.durationNs)}, {"sm_throughput_pct", opt(r.smThroughputPct)},
                                {"memory_throughput_pct", opt(r.memoryThroughputPct)},
                                {"dram_throughput_pct", opt(r.dramThroughputPct)}, {"dram_gbps", opt(r.dramGBps)},
                                {"achieved_occupancy_pct", opt(r.achievedOccupancyPct)},
                                {"tensor_pipe_pct", opt(r.tensorPipePct)}, {"registers", opt(r.registers)},
                                {"bound", boundName(m.measuredBound)}}}};
        json rules = json::array();
        for (const NcuRule& rule : r.rules)
            rules.push_back({{"name", rule.name}, {"type", rule.type}, {"description", rule.description},
                             {"estimated_speedup_pct", opt(rule.speedupPct)}});
        j["rules"] = std::move(rules);
        if (m.row) {
            const KernelRow& k = table.row(*m.row);
            j["kernel"] = {{"row", *m.row}, {"name", std::string(session.str(k.name))}, {"launch", m.launch},
                           {"start_ns", k.start}, {"duration_ns", k.dur}, {"shapes_agree", m.shapesAgree},
                           {"flops", opt(k.flops)}, {"bytes", opt(k.bytes)}, {"estimated_bound", boundName(k.bound)}};
        } else {
            j["kernel"] = nullptr;
        }
        out.push_back(std::move(j));
    }
    return json{{"results", std::move(out)}, {"raw_files", results.rawFiles}, {"details_files", results.detailFiles},
                {"skipped_rows", results.skippedRows}, {"ambiguous_functions", match.ambiguousFunctions}}
        .dump(1);
}

void printNcuMatch(std::ostream& out, const Session& session, const KernelTable& table, const NcuResults& results,
                   const NcuMatch& match) {
    char line[512];
    std::snprintf(line, sizeof line, "%4s %9s %9s %6s %6s %6s %6s %9s %-9s %-9s %s\n", "id", "ncu us", "trace us", "SM %",
                  "mem %", "DRAM %", "occ %", "launch", "measured", "estimate", "kernel");
    out << line;
    for (const NcuMatchedLaunch& m : match.launches) {
        const NcuResult& r = results.results[m.result];
        const KernelRow* k = m.row ? &table.row(*m.row) : nullptr;
        std::string name = k ? std::string(session.str(k->name)) : r.kernelName + " (no launch of it in this run)";
        if (name.size() > 80)
            name = name.substr(0, 77) + "...";
        auto f = [](double v) {
            char t[32];
            std::snprintf(t, sizeof t, "%.1f", v);
            return std::isnan(v) ? std::string("-") : std::string(t);
        };
        std::snprintf(line, sizeof line, "%4u %9s %9s %6s %6s %6s %6s %9s %-9s %-9s %s%s\n", r.id, f(r.durationNs / 1e3).c_str(),
                      k ? f(static_cast<double>(k->dur) / 1e3).c_str() : "-", f(r.smThroughputPct).c_str(),
                      f(r.memoryThroughputPct).c_str(), f(r.dramThroughputPct).c_str(), f(r.achievedOccupancyPct).c_str(),
                      k ? std::to_string(m.launch).c_str() : "-", boundName(m.measuredBound), k ? boundName(k->bound) : "",
                      name.c_str(), k && !m.shapesAgree ? "  [grid/block differ]" : "");
        out << line;
        for (const NcuRule& rule : r.rules)
            if (rule.type == "OPT" || rule.type == "WRN")
                out << "       " << rule.type << ' ' << rule.name
                    << (std::isnan(rule.speedupPct) ? std::string() : " (est. speedup " + f(rule.speedupPct) + " %)") << ": "
                    << rule.description.substr(0, 200) << '\n';
    }
    if (match.ambiguousFunctions)
        out << match.ambiguousFunctions
            << " function name(s) fit several launches equally (a loop repeats its shapes): placed at the first; pass "
               "--skip with the ncu run's --launch-skip to place them exactly\n";
}

} // namespace ws
