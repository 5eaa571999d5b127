#include "analysis/kernel_csv.h"

#include "model/session.h"

#include <cmath>
#include <cstdio>

namespace ws {

namespace {

std::string dimCsv(const std::array<int32_t, 3>& d) { return csvField(dim3Text(d)); }

std::string fixed1(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.1f", v);
    return buf;
}

std::string fixed3(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.3f", v);
    return buf;
}

// Empty for an absent (NaN) value.
std::string optFixed2(double v) {
    if (std::isnan(v))
        return {};
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2f", v);
    return buf;
}

} // namespace

std::string csvField(std::string_view text) {
    const bool quote = text.find_first_of(",\"\r\n") != std::string_view::npos ||
                       (!text.empty() && (text.front() == ' ' || text.back() == ' '));
    if (!quote)
        return std::string(text);
    std::string out = "\"";
    for (char c : text) {
        if (c == '"')
            out += '"';
        out += c;
    }
    out += '"';
    return out;
}

void writeKernelCsv(std::ostream& out, const Session& session, const KernelTable& table,
                    const std::vector<uint32_t>& order) {
    for (size_t c = 0; c < kKernelColumnCount; ++c)
        out << (c ? "," : "") << kernelColumnName(static_cast<KernelColumn>(c));
    out << '\n';
    std::string line;
    for (uint32_t r : order) {
        line.clear();
        for (size_t c = 0; c < kKernelColumnCount; ++c) {
            if (c)
                line += ',';
            line += csvField(table.text(session, r, static_cast<KernelColumn>(c)));
        }
        line += '\n';
        out << line;
    }
}

void writeKernelGroupCsv(std::ostream& out, const Session& session, const std::vector<KernelGroup>& groups,
                         KernelGrouping grouping) {
    const bool byOp = grouping == KernelGrouping::NameOpGridBlock;
    out << (byOp ? "kernel,operator,grid,block," : "kernel,")
        << "calls,total_ns,mean_ns,min_ns,max_ns,pct_gpu_time,mean_blocks_per_sm,mean_est_achieved_occupancy_pct,"
           "tensor_cores\n";
    for (const KernelGroup& g : groups) {
        out << csvField(session.str(g.name)) << ',';
        if (byOp)
            out << csvField(session.str(g.op)) << ',' << dimCsv(g.grid) << ',' << dimCsv(g.block) << ',';
        out << g.calls << ',' << g.totalNs << ',' << fixed1(g.meanNs) << ',' << g.minNs << ',' << g.maxNs
            << ',' << fixed3(g.percentOfGpu) << ',' << optFixed2(g.meanBlocksPerSm) << ','
            << optFixed2(g.meanOccupancy) << ',' << (g.tensorCores ? "yes" : "no") << '\n';
    }
}

} // namespace ws
