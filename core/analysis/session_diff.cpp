#include "analysis/session_diff.h"
#include "model/saturating.h"

#include "analysis/operator_tree.h"
#include "analysis/overview.h"
#include "analysis/session_analyses.h"
#include "analysis/session_results.h"
#include "analysis/step_breakdown.h"
#include "analysis/step_ranges.h"
#include "model/session.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <map>
#include <thread>
#include <unordered_map>

namespace ws {

namespace {

bool isDigit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

// A configuration token of a cuBLAS/CUTLASS kernel name: digits joined by 'x' (128x128x32, 64x2,
// 5x), or a word that names a configuration followed by digits (tilesize128x128x32,
// warpgroupsize1x1x1, stages3, splitk4).
bool isConfigToken(std::string_view t) {
    if (t.empty())
        return false;
    size_t i = 0;
    for (std::string_view word : {"tilesize", "warpgroupsize", "clustersize", "stages", "stage", "splitk", "sliced", "tile",
                                  "warps"})
        if (t.substr(0, word.size()) == word && t.size() > word.size() && isDigit(t[word.size()])) {
            i = word.size();
            break;
        }
    if (i == 0 && !isDigit(t[0]))
        return false;
    bool sawX = false;
    for (; i < t.size(); ++i) {
        if (t[i] == 'x')
            sawX = true;
        else if (!isDigit(t[i]))
            return false;
    }
    return sawX || !isDigit(t[0]); // a bare number (f32, sm90's 90) is not configuration
}

int64_t sumRole(const StepBreakdown& b, StepRole role) {
    return static_cast<int64_t>(std::llround(b.average[static_cast<size_t>(role)]));
}

// The device the headline reports: the one with the most kernel time.
const DeviceOverview* mainDevice(const OverviewReport& report) {
    const DeviceOverview* best = nullptr;
    for (const DeviceOverview& d : report.devices)
        if (!best || d.kernelNs > best->kernelNs)
            best = &d;
    return best;
}

template <typename Row>
void sortByDelta(std::vector<Row>& rows, auto key) {
    std::sort(rows.begin(), rows.end(), [&](const Row& a, const Row& b) {
        const int64_t da = a.deltaNs < 0 ? -a.deltaNs : a.deltaNs, db = b.deltaNs < 0 ? -b.deltaNs : b.deltaNs;
        return da != db ? da > db : key(a) < key(b);
    });
}

DiffPresence presenceOf(bool inBaseline, bool inCompared) {
    return inBaseline && inCompared ? DiffPresence::Both : inCompared ? DiffPresence::New : DiffPresence::Vanished;
}

} // namespace

std::string normalizeKernelName(std::string_view name) {
    if (name.substr(0, 5) == "void ")
        name.remove_prefix(5);
    // The parameter list (outside template arguments) goes: it repeats the template's types.
    std::string text;
    int angle = 0, paren = 0;
    for (char c : name) {
        if (paren == 0) {
            angle += c == '<' ? 1 : c == '>' && angle > 0 ? -1 : 0;
            if (c == '(' && angle == 0) {
                ++paren;
                continue;
            }
            text += c;
        } else if (c == '(') {
            ++paren;
        } else if (c == ')') {
            --paren;
        }
    }
    while (!text.empty() && text.back() == ' ')
        text.pop_back();
    const size_t templateStart = std::min(text.find('<'), text.size());
    // The base name: underscore-separated configuration tokens become '*'.
    std::string out;
    const std::string_view base = std::string_view(text).substr(0, templateStart);
    for (size_t i = 0; i <= base.size();) {
        const size_t end = std::min(base.find('_', i), base.size());
        const std::string_view token = base.substr(i, end - i);
        out += isConfigToken(token) ? std::string_view("*") : token;
        if (end < base.size())
            out += '_';
        i = end + 1;
    }
    // Template arguments stay (they name the functor and the types), but their numbers (vector
    // widths, tile sizes, unroll factors, lambda ordinals) become '*'.
    const std::string_view args = std::string_view(text).substr(templateStart);
    for (size_t i = 0; i < args.size();) {
        const bool startsNumber = isDigit(args[i]) &&
                                  (i == 0 || !(std::isalnum(static_cast<unsigned char>(args[i - 1])) || args[i - 1] == '_'));
        if (!startsNumber) {
            out += args[i++];
            continue;
        }
        while (i < args.size() && isDigit(args[i]))
            ++i;
        while (i < args.size() && (args[i] == 'u' || args[i] == 'l' || args[i] == 'U' || args[i] == 'L'))
            ++i;
        out += '*';
    }
    return out;
}

std::optional<double> DiffMetric::percentChange() const {
    if (!value[0] || !value[1] || *value[0] == 0)
        return std::nullopt;
    return 100.0 * (*value[1] - *value[0]) / std::fabs(*value[0]);
}

const char* diffPresenceName(DiffPresence presence) {
    switch (presence) {
    case DiffPresence::Both: return "both";
    case DiffPresence::New: return "new";
    case DiffPresence::Vanished: return "vanished";
    }
    return "both";
}

namespace {

// Kernel rows keyed by (launching operator, normalized name); each side keeps the name of its
// longest raw variant.
class KernelRows {
public:
    void add(size_t side, const std::string& op, const std::string& raw, uint64_t calls, int64_t ns) {
        std::string key = normalizeKernelName(raw);
        KernelDiffRow& d = m_rows[op + '\x1f' + key];
        if (d.key.empty()) {
            d.op = op;
            d.key = std::move(key);
        }
        d.calls[side] += calls;
        d.totalNs[side] += ns;
        ++d.variants[side];
        auto [it, fresh] = m_longest.emplace(std::make_pair(&d, side), ns);
        if (fresh || ns > it->second || (ns == it->second && raw < d.names[side])) {
            it->second = ns;
            d.names[side] = raw;
        }
    }
    std::vector<KernelDiffRow> take() {
        std::vector<KernelDiffRow> rows;
        rows.reserve(m_rows.size());
        for (auto& [key, d] : m_rows) {
            d.presence = presenceOf(d.calls[0] > 0, d.calls[1] > 0);
            d.deltaNs = d.totalNs[1] - d.totalNs[0];
            rows.push_back(std::move(d));
        }
        sortByDelta(rows, [](const KernelDiffRow& r) { return std::tie(r.key, r.op); });
        return rows;
    }

private:
    std::map<std::string, KernelDiffRow> m_rows;
    std::map<std::pair<const KernelDiffRow*, size_t>, int64_t> m_longest; // total of the variant named so far
};

} // namespace

std::optional<DiffWindow> stepWindow(const Session& session, const std::string& label) {
    const StepRanges steps = computeStepRanges(session);
    if (!label.empty() && label[0] == '#') {
        const long k = std::strtol(label.c_str() + 1, nullptr, 10);
        if (k >= 1 && static_cast<size_t>(k) <= steps.steps.size())
            return DiffWindow{steps.steps[static_cast<size_t>(k - 1)].start, steps.steps[static_cast<size_t>(k - 1)].end};
        return std::nullopt;
    }
    for (size_t i = 0; i < steps.steps.size() && i < steps.labels.size(); ++i)
        if (steps.labels[i] == label)
            return DiffWindow{steps.steps[i].start, steps.steps[i].end};
    return std::nullopt;
}

SessionDiff computeSessionDiff(const Session& baseline, const Session& compared, const SessionDiffOptions& options) {
    // Caches that do not own the sessions (aliasing constructor, no control block), dropped after.
    SessionAnalyses a(std::shared_ptr<const Session>(std::shared_ptr<const Session>(), &baseline));
    SessionAnalyses b(std::shared_ptr<const Session>(std::shared_ptr<const Session>(), &compared));
    return computeSessionDiff(a, b, options);
}

namespace {

// The digest of one side: the session's stored one (session_results.h) when it answers the
// question as computing would, else computed from its analyses.
RunDigest sideDigest(SessionAnalyses& analyses, const SessionDiffOptions& options, size_t side) {
    if (const std::shared_ptr<const SessionResults> stored = analyses.storedResults())
        if (std::optional<RunDigest> digest = storedDigestFor(*stored, options, side))
            return std::move(*digest);
    const std::optional<DiffWindow>& window = options.window[side];
    std::array<bool, 3> groupings{};
    groupings[static_cast<size_t>(options.operatorGrouping)] = true;
    return digestRun(analyses, window ? std::optional<DigestWindow>(DigestWindow{window->from, window->to}) : std::nullopt,
                     groupings, options.readArgs);
}

} // namespace

std::optional<RunDigest> storedDigestFor(const SessionResults& stored, const SessionDiffOptions& options, size_t side) {
    const size_t g = static_cast<size_t>(options.operatorGrouping);
    const bool needsArgs = options.readArgs && options.operatorGrouping != OperatorGrouping::Name;
    if (options.window[side] || !stored.run.operators[g].present || !stored.run.operators[0].present ||
        (needsArgs && !stored.run.argsRead))
        return std::nullopt;
    RunDigest digest = stored.run;
    if (!needsArgs) // computed without the argument pass, only Python stacks would be seen
        digest.callStacks = digest.pyStacks;
    return digest;
}

SessionDiff computeSessionDiff(SessionAnalyses& baseline, SessionAnalyses& compared, const SessionDiffOptions& options) {
    std::array<RunDigest, 2> runs;
    {
        std::thread other([&] { runs[1] = sideDigest(compared, options, 1); });
        runs[0] = sideDigest(baseline, options, 0);
        other.join();
    }
    return diffRunDigests(runs[0], runs[1], options);
}

SessionDiff diffRunDigests(const RunDigest& baseline, const RunDigest& compared, const SessionDiffOptions& options) {
    SessionDiff diff;
    const std::array<const RunDigest*, 2> runs{&baseline, &compared};
    std::array<const OverviewReport*, 2> overviewOf{&baseline.overview, &compared.overview};

    auto metric = [&](std::string name, std::string unit, auto get) {
        DiffMetric m{std::move(name), std::move(unit), {}};
        for (size_t s = 0; s < 2; ++s)
            m.value[s] = get(*overviewOf[s]);
        diff.headline.push_back(std::move(m));
    };
    auto device = [](auto field) {
        return [field](const OverviewReport& r) -> std::optional<double> {
            const DeviceOverview* d = mainDevice(r);
            return d ? field(*d) : std::nullopt;
        };
    };
    auto perStep = [](StepRole role) {
        return [role](const OverviewReport& r) -> std::optional<double> {
            if (r.breakdown.steps.empty())
                return std::nullopt;
            return static_cast<double>(sumRole(r.breakdown, role));
        };
    };
    metric("steps", "count", [](const OverviewReport& r) -> std::optional<double> {
        return static_cast<double>(r.breakdown.steps.size());
    });
    metric("step time", "ns", [](const OverviewReport& r) -> std::optional<double> {
        if (r.breakdown.steps.empty())
            return r.valid ? std::optional<double>(static_cast<double>(r.windowEnd - r.windowStart)) : std::nullopt;
        return r.breakdown.averageTotal;
    });
    metric("GPU utilization", "%", device([](const DeviceOverview& d) -> std::optional<double> {
        return d.gpuUtilization ? std::optional<double>(100.0 * *d.gpuUtilization) : std::nullopt;
    }));
    metric("Est. SM efficiency", "%", device([](const DeviceOverview& d) -> std::optional<double> {
        return d.smEfficiency ? std::optional<double>(100.0 * *d.smEfficiency) : std::nullopt;
    }));
    metric("achieved occupancy", "%", device([](const DeviceOverview& d) { return d.achievedOccupancy; }));
    metric("Tensor Core share", "%", device([](const DeviceOverview& d) -> std::optional<double> {
        return d.tensorCoreShare ? std::optional<double>(100.0 * *d.tensorCoreShare) : std::nullopt;
    }));
    metric("peak allocated memory", "bytes", device([](const DeviceOverview& d) -> std::optional<double> {
        return d.peakAllocatedBytes ? std::optional<double>(static_cast<double>(*d.peakAllocatedBytes)) : std::nullopt;
    }));
    metric("kernel time per step", "ns", perStep(StepRole::Kernel));
    metric("memcpy time per step", "ns", perStep(StepRole::Memcpy));
    metric("communication time per step", "ns", perStep(StepRole::Communication));
    metric("CPU exec time per step", "ns", perStep(StepRole::CpuExec));
    for (size_t s = 0; s < 2; ++s) {
        diff.steps[s] = overviewOf[s]->breakdown.steps.size();
        diff.breakdown[s] = overviewOf[s]->breakdown;
    }
    diff.stepTimeChangePercent = diff.headline[1].percentChange();
    // Operators, matched by the grouping's key text.
    for (size_t s = 0; s < 2; ++s)
        diff.callStacks[s] = runs[s]->callStacks;
    diff.operatorGrouping = options.operatorGrouping == OperatorGrouping::NameAndCallStack &&
                                    !(diff.callStacks[0] && diff.callStacks[1])
                                ? OperatorGrouping::Name
                                : options.operatorGrouping;
    std::map<std::string, OperatorDiffRow> ops;
    std::array<bool, 2> hasDevice{};
    for (size_t s = 0; s < 2; ++s) {
        const DigestOperators& table = runs[s]->operators[static_cast<size_t>(diff.operatorGrouping)];
        hasDevice[s] = table.hasDevice;
        for (const DigestOperatorRow& row : table.rows) {
            OperatorDiffRow& d = ops[row.name + '\x1f' + row.shapes + '\x1f' + row.types + '\x1f' + row.callStack];
            d.name = row.name;
            d.shapes = row.shapes;
            d.types = row.types;
            d.callStack = row.callStack;
            d.calls[s] += row.calls;
            d.hostTotalNs[s] += row.hostTotalNs;
            d.hostSelfNs[s] += row.hostSelfNs;
            d.deviceTotalNs[s] += row.deviceTotalNs;
            d.deviceSelfNs[s] += row.deviceSelfNs;
        }
    }
    diff.deviceTimes = hasDevice[0] || hasDevice[1];
    for (auto& [key, d] : ops) {
        d.presence = presenceOf(d.calls[0] > 0, d.calls[1] > 0);
        d.deltaNs = diff.deviceTimes ? d.deviceSelfNs[1] - d.deviceSelfNs[0] : d.hostSelfNs[1] - d.hostSelfNs[0];
        diff.operators.push_back(std::move(d));
    }
    sortByDelta(diff.operators, [](const OperatorDiffRow& r) { return std::tie(r.name, r.shapes, r.types, r.callStack); });

    // Kernels, matched by normalized name, and by launching operator + normalized name.
    KernelRows byName, byOperator;
    for (size_t s = 0; s < 2; ++s) {
        std::unordered_map<std::string, std::pair<uint64_t, int64_t>> launchedByKernel; // calls, ns
        for (const DigestKernel& l : runs[s]->launched) {
            byOperator.add(s, l.op, l.name, l.calls, l.ns);
            auto& [calls, ns] = launchedByKernel[l.name];
            calls += l.calls;
            ns += l.ns;
        }
        for (const DigestKernel& k : runs[s]->kernels) {
            byName.add(s, std::string(), k.name, k.calls, k.ns);
            // What no operator launched (no flow from a runtime call inside an operator).
            const auto it = launchedByKernel.find(k.name);
            const uint64_t rest = k.calls - (it == launchedByKernel.end() ? 0 : it->second.first);
            if (rest > 0)
                byOperator.add(s, std::string(), k.name, rest, k.ns - (it == launchedByKernel.end() ? 0 : it->second.second));
        }
    }
    diff.kernels = byName.take();
    diff.operatorKernels = byOperator.take();
    return diff;
}

} // namespace ws
