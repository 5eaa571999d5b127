#include "analysis/roofline_json.h"

#include "analysis/kernel_csv.h"
#include "analysis/roofline.h"
#include "model/session.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <ostream>

namespace ws {

namespace {

using nlohmann::json;

json opt(double v) { return std::isnan(v) ? json(nullptr) : json(v); }

json workJson(const RooflineWork& w) {
    return {{"calls", w.kernels}, {"estimated_calls", w.estimated}, {"total_ns", w.totalNs}, {"estimated_ns", w.estimatedNs},
            {"flops", w.flops}, {"bytes", w.bytes}, {"flops_per_byte", opt(w.intensity())},
            {"achieved_tflops", opt(w.tflops())}, {"achieved_gbps", opt(w.gbps())}};
}

json groupJson(const Session& s, const RooflineGroup& g) {
    json j = workJson(g.work);
    j["name"] = std::string(s.str(g.name));
    j["format"] = numberFormatName(g.format);
    j["tensor_cores"] = g.tensorCores;
    j["compute_roof_tflops"] = g.computeRoofTflops > 0 ? json(g.computeRoofTflops) : json(nullptr);
    j["roof_fraction"] = opt(g.roofFraction);
    j["bound"] = boundName(g.bound);
    j["calls_by_bound"] = {{"compute", g.callsByBound[size_t(Bound::Compute)]},
                           {"memory", g.callsByBound[size_t(Bound::Memory)]},
                           {"latency", g.callsByBound[size_t(Bound::Latency)]},
                           {"unknown", g.callsByBound[size_t(Bound::Unknown)]}};
    return j;
}

} // namespace

std::string rooflineToJson(const Session& s, const Roofline& r, size_t maxGroups) {
    json j;
    j["device"] = r.device();
    j["device_name"] = std::string(r.deviceName());
    if (const auto& p = r.peaks())
        j["gpu"] = {{"name", p->name}, {"fp64_tflops", p->fp64}, {"fp32_tflops", p->fp32}, {"tf32_tflops", p->tf32},
                    {"fp16_tflops", p->fp16}, {"fp8_tflops", p->fp8}, {"memory_gbps", p->memoryGBps},
                    {"source", p->source}};
    else
        j["gpu"] = nullptr;
    j["mfu_format"] = numberFormatName(r.mainFormat());
    j["mfu_peak_tflops"] = r.peaks() ? json(r.mfuPeakTflops()) : json(nullptr);
    j["total"] = workJson(r.total());
    json groups = json::array();
    for (size_t i = 0; i < r.groups().size() && i < maxGroups; ++i)
        groups.push_back(groupJson(s, r.groups()[i]));
    j["groups"] = std::move(groups);
    j["groups_total"] = r.groups().size();
    json phases = json::object();
    for (const RooflinePhase& p : r.phases()) {
        phases[inferencePhaseName(p.phase)] = {
            {"steps", p.steps}, {"span_ns", p.spanNs}, {"flops", p.work.flops}, {"bytes", p.work.bytes},
            {"mfu", opt(p.mfu)}, {"mbu", opt(p.mbu)},
            {"measured_sm_active_pct", opt(p.measured[0])}, {"measured_tensor_active_pct", opt(p.measured[1])},
            {"measured_dram_bandwidth_pct", opt(p.measured[2])}};
    }
    j["phases"] = std::move(phases);
    json steps = json::array();
    for (double mfu : r.stepMfu())
        steps.push_back(opt(mfu));
    j["step_mfu"] = std::move(steps); // per inference step, in the inference steps' order
    return j.dump(1);
}

void writeRooflineCsv(std::ostream& out, const Session& s, const Roofline& r) {
    out << "name,format,tensor_cores,calls,estimated_calls,total_ns,estimated_ns,flops,bytes,flops_per_byte,"
           "achieved_tflops,achieved_gbps,compute_roof_tflops,roof_fraction,bound\n";
    auto num = [&](double v) {
        if (!std::isnan(v)) {
            char text[32];
            std::snprintf(text, sizeof text, "%.6g", v);
            out << text;
        }
    };
    for (const RooflineGroup& g : r.groups()) {
        const RooflineWork& w = g.work;
        out << csvField(s.str(g.name)) << ',' << numberFormatName(g.format) << ',' << (g.tensorCores ? "yes" : "no")
            << ',' << w.kernels << ',' << w.estimated << ',' << w.totalNs << ',' << w.estimatedNs << ',';
        num(w.estimated ? w.flops : std::nan(""));
        out << ',';
        num(w.estimated ? w.bytes : std::nan(""));
        out << ',';
        num(w.intensity());
        out << ',';
        num(w.tflops());
        out << ',';
        num(w.gbps());
        out << ',';
        num(g.computeRoofTflops > 0 ? g.computeRoofTflops : std::nan(""));
        out << ',';
        num(g.roofFraction);
        out << ',' << boundName(g.bound) << '\n';
    }
}

} // namespace ws
