#include "analysis/session_diff_text.h"

#include "analysis/step_breakdown.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <sstream>

namespace ws {

namespace {

std::string csvField(const std::string& s) {
    if (s.find_first_of(",\"\n") == std::string::npos)
        return s;
    std::string out = "\"";
    for (char c : s)
        out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

// Steps side by side: step i of each run, or null past a run's last step.
size_t stepCount(const SessionDiff& d) { return std::max(d.breakdown[0].steps.size(), d.breakdown[1].steps.size()); }
const StepCosts* stepAt(const SessionDiff& d, size_t side, size_t i) {
    return i < d.breakdown[side].steps.size() ? &d.breakdown[side].steps[i] : nullptr;
}

nlohmann::json optional(const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); }

} // namespace

std::string sessionDiffCsv(const SessionDiff& diff, DiffTable table) {
    std::ostringstream out;
    switch (table) {
    case DiffTable::Operators:
        out << "name,input_shapes,input_types,call_stack,presence,calls_a,calls_b,host_total_ns_a,host_total_ns_b,"
               "host_self_ns_a,host_self_ns_b,device_total_ns_a,device_total_ns_b,device_self_ns_a,device_self_ns_b,"
               "delta_ns\n";
        for (const OperatorDiffRow& r : diff.operators)
            out << csvField(r.name) << ',' << csvField(r.shapes) << ',' << csvField(r.types) << ','
                << csvField(r.callStack) << ',' << diffPresenceName(r.presence) << ',' << r.calls[0] << ','
                << r.calls[1] << ',' << r.hostTotalNs[0] << ',' << r.hostTotalNs[1] << ',' << r.hostSelfNs[0] << ','
                << r.hostSelfNs[1] << ',' << r.deviceTotalNs[0] << ',' << r.deviceTotalNs[1] << ','
                << r.deviceSelfNs[0] << ',' << r.deviceSelfNs[1] << ',' << r.deltaNs << '\n';
        break;
    case DiffTable::Kernels:
    case DiffTable::OperatorKernels:
        out << (table == DiffTable::OperatorKernels ? "operator," : "")
            << "normalized_name,presence,name_a,name_b,variants_a,variants_b,calls_a,calls_b,total_ns_a,total_ns_b,"
               "delta_ns\n";
        for (const KernelDiffRow& r : table == DiffTable::OperatorKernels ? diff.operatorKernels : diff.kernels)
            out << (table == DiffTable::OperatorKernels ? csvField(r.op) + ',' : std::string()) << csvField(r.key) << ',' << diffPresenceName(r.presence) << ',' << csvField(r.names[0]) << ','
                << csvField(r.names[1]) << ',' << r.variants[0] << ',' << r.variants[1] << ',' << r.calls[0] << ','
                << r.calls[1] << ',' << r.totalNs[0] << ',' << r.totalNs[1] << ',' << r.deltaNs << '\n';
        break;
    case DiffTable::Steps:
        out << "index,step_a,step_b,total_ns_a,total_ns_b";
        for (size_t role = 0; role < kStepRoleCount; ++role)
            for (const char* side : {"_a", "_b"})
                out << ',' << stepRoleName(static_cast<StepRole>(role)) << side;
        out << '\n';
        for (size_t i = 0; i < stepCount(diff); ++i) {
            const std::array<const StepCosts*, 2> step{stepAt(diff, 0, i), stepAt(diff, 1, i)};
            out << i;
            for (const StepCosts* st : step)
                out << ',' << (st ? csvField(st->label) : std::string());
            for (const StepCosts* st : step)
                out << ',' << (st ? std::to_string(st->total()) : std::string());
            for (size_t role = 0; role < kStepRoleCount; ++role)
                for (const StepCosts* st : step)
                    out << ',' << (st ? std::to_string(st->cost[role]) : std::string());
            out << '\n';
        }
        break;
    case DiffTable::Headline:
        out << "metric,unit,a,b,change_percent\n";
        for (const DiffMetric& m : diff.headline) {
            auto text = [](const std::optional<double>& v) {
                std::ostringstream s;
                if (v)
                    s << *v;
                return s.str();
            };
            out << csvField(m.name) << ',' << m.unit << ',' << text(m.value[0]) << ',' << text(m.value[1]) << ','
                << text(m.percentChange()) << '\n';
        }
        break;
    }
    return out.str();
}

std::string sessionDiffJson(const SessionDiff& diff) {
    nlohmann::json j;
    j["headline"] = nlohmann::json::array();
    for (const DiffMetric& m : diff.headline)
        j["headline"].push_back({{"metric", m.name}, {"unit", m.unit}, {"a", optional(m.value[0])},
                                 {"b", optional(m.value[1])}, {"change_percent", optional(m.percentChange())}});
    j["steps_a"] = diff.steps[0];
    j["steps_b"] = diff.steps[1];
    j["step_time_change_percent"] = optional(diff.stepTimeChangePercent);
    j["operator_delta"] = diff.deviceTimes ? "device_self_ns" : "host_self_ns";
    j["operators"] = nlohmann::json::array();
    for (const OperatorDiffRow& r : diff.operators)
        j["operators"].push_back({{"name", r.name}, {"input_shapes", r.shapes}, {"input_types", r.types},
                                  {"call_stack", r.callStack}, {"presence", diffPresenceName(r.presence)},
                                  {"calls", r.calls}, {"host_total_ns", r.hostTotalNs}, {"host_self_ns", r.hostSelfNs},
                                  {"device_total_ns", r.deviceTotalNs}, {"device_self_ns", r.deviceSelfNs},
                                  {"delta_ns", r.deltaNs}});
    auto kernels = [](const std::vector<KernelDiffRow>& rows, bool withOperator) {
        nlohmann::json out = nlohmann::json::array();
        for (const KernelDiffRow& r : rows) {
            nlohmann::json row = {{"normalized_name", r.key}, {"names", r.names}, {"variants", r.variants},
                                  {"presence", diffPresenceName(r.presence)}, {"calls", r.calls},
                                  {"total_ns", r.totalNs}, {"delta_ns", r.deltaNs}};
            if (withOperator)
                row["operator"] = r.op;
            out.push_back(std::move(row));
        }
        return out;
    };
    j["kernels"] = kernels(diff.kernels, false);
    j["operator_kernels"] = kernels(diff.operatorKernels, true);
    j["operator_grouping"] = diff.operatorGrouping == OperatorGrouping::Name                ? "name"
                             : diff.operatorGrouping == OperatorGrouping::NameAndInputShape ? "shape"
                                                                                           : "stack";
    j["call_stacks"] = {diff.callStacks[0], diff.callStacks[1]};
    j["steps"] = nlohmann::json::array();
    for (size_t i = 0; i < stepCount(diff); ++i) {
        const std::array<const StepCosts*, 2> step{stepAt(diff, 0, i), stepAt(diff, 1, i)};
        nlohmann::json row = {{"labels", {step[0] ? step[0]->label : "", step[1] ? step[1]->label : ""}}};
        for (size_t s = 0; s < 2; ++s)
            row[s == 0 ? "total_ns_a" : "total_ns_b"] = step[s] ? nlohmann::json(step[s]->total()) : nlohmann::json(nullptr);
        j["steps"].push_back(std::move(row));
    }
    return j.dump(1) + "\n";
}

} // namespace ws
