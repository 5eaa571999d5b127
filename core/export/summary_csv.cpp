#include "export/summary_csv.h"

#include "analysis/kernel_csv.h"
#include "model/session.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

namespace ws {

namespace {

struct Stats {
    std::vector<int64_t> values;
    int64_t total = 0;
};

std::string fmt(double v, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

// One nsys-style table: a row per name with the statistics of its values (ns, or bytes shown as MB).
std::string table(const std::map<std::string, Stats>& groups, bool sizes, const char* nameColumn) {
    std::vector<std::pair<std::string, const Stats*>> rows;
    int64_t all = 0;
    for (const auto& [name, st] : groups) {
        rows.emplace_back(name, &st);
        all += st.total;
    }
    std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
        return a.second->total != b.second->total ? a.second->total > b.second->total : a.first < b.first;
    });
    const double unit = sizes ? 1e6 : 1.0; // nsys reports sizes in MB (10^6 bytes)
    const int decimals = sizes ? 3 : 1;
    std::string out = sizes ? "Total (MB),Count,Avg (MB),Med (MB),Min (MB),Max (MB),StdDev (MB)," + std::string(nameColumn) + "\n"
                            : "Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns)," +
                                  std::string(nameColumn) + "\n";
    for (auto& [name, st] : rows) {
        std::vector<int64_t> v = st->values;
        std::sort(v.begin(), v.end());
        const size_t n = v.size();
        const double mean = static_cast<double>(st->total) / static_cast<double>(n);
        const double median =
            n % 2 ? static_cast<double>(v[n / 2]) : (static_cast<double>(v[n / 2 - 1]) + static_cast<double>(v[n / 2])) / 2;
        double sq = 0;
        for (int64_t x : v)
            sq += (static_cast<double>(x) - mean) * (static_cast<double>(x) - mean);
        const double stddev = n > 1 ? std::sqrt(sq / static_cast<double>(n - 1)) : 0.0;
        if (!sizes)
            out += fmt(all > 0 ? 100.0 * static_cast<double>(st->total) / static_cast<double>(all) : 0.0, 1) + ',';
        out += (sizes ? fmt(static_cast<double>(st->total) / unit, decimals) : std::to_string(st->total)) + ',' +
               std::to_string(n) + ',' + fmt(mean / unit, decimals) + ',' + fmt(median / unit, decimals) + ',' +
               fmt(static_cast<double>(v.front()) / unit, decimals) + ',' + fmt(static_cast<double>(v.back()) / unit, decimals) +
               ',' + fmt(stddev / unit, decimals) + ',' + csvField(name) + '\n';
    }
    return out;
}

} // namespace

std::vector<SummaryCsvFile> summaryCsvFiles(const Session& s, std::optional<int64_t> from, std::optional<int64_t> to) {
    std::map<std::string, Stats> kernels, api, memTime, memSize;
    for (const Track& t : s.tracks())
        for (size_t i = 0; i < t.sliceCount(); ++i) {
            if ((from && t.start[i] < *from) || (to && t.start[i] >= *to))
                continue;
            const EventKind k = s.kindOf(t, i);
            std::map<std::string, Stats>* g = k == EventKind::Kernel                                ? &kernels
                                              : k == EventKind::Runtime || k == EventKind::Driver ? &api
                                              : k == EventKind::Memcpy || k == EventKind::Memset  ? &memTime
                                                                                                  : nullptr;
            if (!g)
                continue;
            Stats& st = (*g)[std::string(s.str(t.names[i]))];
            st.values.push_back(t.dur[i]);
            st.total += t.dur[i];
            if (g == &memTime && !t.bytes.empty() && t.bytes[i] >= 0) {
                Stats& sz = memSize[std::string(s.str(t.names[i]))];
                sz.values.push_back(t.bytes[i]);
                sz.total += t.bytes[i];
            }
        }
    return {{"cuda_gpu_kern_sum.csv", table(kernels, false, "Name")},
            {"cuda_api_sum.csv", table(api, false, "Name")},
            {"cuda_gpu_mem_time_sum.csv", table(memTime, false, "Operation")},
            {"cuda_gpu_mem_size_sum.csv", table(memSize, true, "Operation")}};
}

} // namespace ws
