#include "analysis/ncu_results.h"

#include "analysis/ncu_command.h"
#include "io/input_stream.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <optional>

namespace ws {

namespace {

// One CSV record (RFC 4180: quoted fields, doubled quotes, line breaks inside quotes); `at` moves
// past it. False at the end of the text.
bool nextRecord(std::string_view text, size_t& at, std::vector<std::string>& fields) {
    fields.clear();
    if (at >= text.size())
        return false;
    std::string field;
    bool quoted = false, any = false;
    while (at < text.size()) {
        const char c = text[at++];
        any = true;
        if (quoted) {
            if (c == '"') {
                if (at < text.size() && text[at] == '"') {
                    field.push_back('"');
                    ++at;
                } else {
                    quoted = false;
                }
            } else {
                field.push_back(c);
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            fields.push_back(std::move(field));
            field.clear();
        } else if (c == '\n' || c == '\r') {
            if (c == '\r' && at < text.size() && text[at] == '\n')
                ++at;
            break;
        } else {
            field.push_back(c);
        }
    }
    if (any)
        fields.push_back(std::move(field));
    return true;
}

// "8,893" and "5,768.11" as numbers; nullopt for "no data", "n/a" and other text.
std::optional<double> number(std::string_view text) {
    std::string digits;
    for (char c : text)
        if (c != ',' && c != ' ')
            digits.push_back(c);
    if (digits.empty())
        return std::nullopt;
    double v = 0;
    const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
    if (ec != std::errc() || ptr != digits.data() + digits.size())
        return std::nullopt;
    return v;
}

// Factor to ns of a time unit; 0 when not one.
double timeScale(std::string_view unit) {
    if (unit == "ns" || unit == "nsecond")
        return 1;
    if (unit == "us" || unit == "usecond")
        return 1e3;
    if (unit == "ms" || unit == "msecond")
        return 1e6;
    if (unit == "s" || unit == "second")
        return 1e9;
    return 0;
}

// Factor to GB/s of a rate unit; 0 when not one.
double rateScale(std::string_view unit) {
    static const std::map<std::string_view, double> kScales = {
        {"byte/s", 1e-9}, {"Kbyte/s", 1e-6}, {"Mbyte/s", 1e-3}, {"Gbyte/s", 1}, {"Tbyte/s", 1e3}};
    const auto it = kScales.find(unit);
    return it == kScales.end() ? 0 : it->second;
}

// The metric a value sets, by raw metric name or by (section, details name, unit kind).
enum class Field { None, Duration, Sm, Memory, Dram, DramRate, Occupancy, Tensor, Registers };

Field rawField(std::string_view name) {
    if (name == "gpu__time_duration.sum")
        return Field::Duration;
    if (name == "sm__throughput.avg.pct_of_peak_sustained_elapsed")
        return Field::Sm;
    if (name == "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed")
        return Field::Memory;
    if (name == "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed" ||
        name == "dram__throughput.avg.pct_of_peak_sustained_elapsed")
        return Field::Dram;
    if (name == "dram__bytes.sum.per_second")
        return Field::DramRate;
    if (name == "sm__warps_active.avg.pct_of_peak_sustained_active")
        return Field::Occupancy;
    if (name == "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_elapsed")
        return Field::Tensor;
    if (name == "launch__registers_per_thread")
        return Field::Registers;
    return Field::None;
}

Field detailsField(std::string_view section, std::string_view name, std::string_view unit) {
    if (name == "Duration")
        return Field::Duration;
    if (name == "Compute (SM) Throughput")
        return Field::Sm;
    if (name == "Memory Throughput")
        return unit == "%" ? Field::Memory : section == "Memory Workload Analysis" ? Field::DramRate : Field::None;
    if (name == "DRAM Throughput")
        return Field::Dram;
    if (name == "Achieved Occupancy")
        return Field::Occupancy;
    if (name == "Registers Per Thread")
        return Field::Registers;
    return Field::None;
}

// Sets a metric that no earlier export gave: the raw page's full precision is kept over the
// details page's rounded figures when both are read, raw first.
void setField(NcuResult& r, Field f, double value, std::string_view unit) {
    auto set = [](double& field, double v) {
        if (std::isnan(field))
            field = v;
    };
    switch (f) {
    case Field::Duration:
        if (const double s = timeScale(unit); s > 0)
            set(r.durationNs, value * s);
        break;
    case Field::Sm: set(r.smThroughputPct, value); break;
    case Field::Memory: set(r.memoryThroughputPct, value); break;
    case Field::Dram: set(r.dramThroughputPct, value); break;
    case Field::DramRate:
        if (const double s = rateScale(unit); s > 0)
            set(r.dramGBps, value * s);
        break;
    case Field::Occupancy: set(r.achievedOccupancyPct, value); break;
    case Field::Tensor: set(r.tensorPipePct, value); break;
    case Field::Registers: set(r.registers, value); break;
    case Field::None: break;
    }
}

struct Columns {
    std::map<std::string, size_t, std::less<>> index;
    std::optional<size_t> at(std::string_view name) const {
        const auto it = index.find(name);
        return it == index.end() ? std::nullopt : std::optional<size_t>(it->second);
    }
};

const std::string& cell(const std::vector<std::string>& row, std::optional<size_t> column) {
    static const std::string kEmpty;
    return column && *column < row.size() ? row[*column] : kEmpty;
}

// The launch of this ID in `into`, added with the identifying columns when new.
NcuResult& launchOf(NcuResults& into, uint32_t id, const std::vector<std::string>& row, const Columns& c) {
    auto it = std::lower_bound(into.results.begin(), into.results.end(), id,
                               [](const NcuResult& r, uint32_t v) { return r.id < v; });
    if (it == into.results.end() || it->id != id) {
        NcuResult r;
        r.id = id;
        r.kernelName = cell(row, c.at("Kernel Name"));
        r.function = kernelFunctionName(r.kernelName);
        if (const auto pid = number(cell(row, c.at("Process ID"))))
            r.pid = static_cast<int64_t>(*pid);
        parseNcuDim3(cell(row, c.at("Grid Size")), r.grid);
        parseNcuDim3(cell(row, c.at("Block Size")), r.block);
        it = into.results.insert(it, std::move(r));
    }
    return *it;
}

} // namespace

bool readNcuCsvFile(const std::string& path, NcuResults& into, std::string& error) {
    InputStream in;
    if (!in.open(path)) {
        error = "cannot open " + path;
        return false;
    }
    std::string text;
    char buffer[1 << 16];
    while (const size_t n = in.read(buffer, sizeof buffer))
        text.append(buffer, n);
    return readNcuCsv(text, into, error);
}

bool parseNcuDim3(std::string_view text, std::array<int32_t, 3>& out) {
    std::array<int32_t, 3> d{1, 1, 1};
    size_t n = 0;
    for (size_t i = 0; i < text.size();) {
        if (text[i] >= '0' && text[i] <= '9') {
            if (n == 3)
                return false;
            const auto [ptr, ec] = std::from_chars(text.data() + i, text.data() + text.size(), d[n]);
            if (ec != std::errc())
                return false;
            ++n;
            i = static_cast<size_t>(ptr - text.data());
        } else {
            ++i;
        }
    }
    if (n == 0)
        return false;
    out = d;
    return true;
}

bool readNcuCsv(std::string_view text, NcuResults& into, std::string& error) {
    size_t at = 0;
    std::vector<std::string> row;
    // ncu may print "==PROF==" lines before the table when its output was redirected whole.
    Columns c;
    while (nextRecord(text, at, row)) {
        if (!row.empty() && row[0] == "ID") {
            for (size_t i = 0; i < row.size(); ++i)
                c.index.emplace(row[i], i);
            break;
        }
    }
    if (c.index.empty()) {
        error = "not an Nsight Compute CSV export: no header starting with \"ID\" (export with ncu --import REPORT "
                "--csv --page raw, or --page details)";
        return false;
    }
    const auto idColumn = c.at("ID");
    const bool details = c.at("Metric Name") && c.at("Metric Value");
    if (details) {
        ++into.detailFiles;
        const auto section = c.at("Section Name"), name = c.at("Metric Name"), unit = c.at("Metric Unit"),
                   value = c.at("Metric Value"), rule = c.at("Rule Name"), type = c.at("Rule Type"),
                   description = c.at("Rule Description"), speedup = c.at("Estimated Speedup");
        while (nextRecord(text, at, row)) {
            const auto id = number(cell(row, idColumn));
            if (!id || *id < 0) {
                into.skippedRows += !(row.size() == 1 && row[0].empty());
                continue;
            }
            NcuResult& r = launchOf(into, static_cast<uint32_t>(*id), row, c);
            if (!cell(row, rule).empty()) {
                NcuRule finding{cell(row, rule), cell(row, type), cell(row, description), std::nan("")};
                if (const auto s = number(cell(row, speedup)))
                    finding.speedupPct = *s;
                r.rules.push_back(std::move(finding));
                continue;
            }
            const Field f = detailsField(cell(row, section), cell(row, name), cell(row, unit));
            if (const auto v = number(cell(row, value)); f != Field::None && v)
                setField(r, f, *v, cell(row, unit));
        }
        return true;
    }
    ++into.rawFiles;
    std::vector<std::pair<size_t, Field>> fields;
    for (const auto& [name, i] : c.index)
        if (const Field f = rawField(name); f != Field::None)
            fields.emplace_back(i, f);
    std::vector<std::string> units;
    while (nextRecord(text, at, row)) {
        const auto id = number(cell(row, idColumn));
        if (!id || *id < 0) {
            if (units.empty() && !row.empty() && cell(row, idColumn).empty())
                units = row; // the row of units under the header
            else
                into.skippedRows += !(row.size() == 1 && row[0].empty());
            continue;
        }
        NcuResult& r = launchOf(into, static_cast<uint32_t>(*id), row, c);
        for (const auto& [i, f] : fields)
            if (const auto v = number(cell(row, i)))
                setField(r, f, *v, i < units.size() ? std::string_view(units[i]) : std::string_view());
    }
    return true;
}

} // namespace ws
