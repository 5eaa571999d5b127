#include "analysis/inference_steps.h"

#include "analysis/kernel_table.h"
#include "analysis/launch_flows.h"
#include "analysis/op_cost.h"
#include "analysis/program_frames.h"
#include "model/session.h"
#include "model/source_frame.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string_view>
#include <unordered_map>

namespace ws {

namespace {

constexpr uint32_t kNone = InferenceStep::kNone;
constexpr int64_t kMinVocabulary = 1000;
// An idle gap before a prefill's first GEMM that parts the last request's tail (sampling, output)
// from the new request: longer than a launch-bound loop leaves between kernels (10-20 us).
constexpr int64_t kMinRequestGapNs = 100'000;

bool isGemmOp(std::string_view op) {
    return op == "aten::mm" || op == "aten::addmm" || op == "aten::linear" || op == "aten::matmul" ||
           op == "aten::_scaled_mm" || op == "aten::_addmm_activation";
}

// A GEMM kernel by its name, for launches without an operator (cuBLAS, cuBLASLt's nvjet, CUTLASS).
bool isGemmKernel(std::string_view name) {
    for (std::string_view k : {"gemm", "nvjet", "cutlass", "xmma", "Gemm"})
        if (name.find(k) != std::string_view::npos)
            return true;
    return false;
}

int64_t product(const std::vector<int64_t>& dims, size_t from, size_t to) {
    int64_t p = 1;
    for (size_t i = from; i < to; ++i)
        p *= dims[i];
    return p;
}

struct GemmDims {
    int64_t m = 0, n = 0;
};

// Rows and columns of a GEMM operator's output from its input shapes; {0, 0} when they do not say.
GemmDims gemmDims(std::string_view op, const OpInputs& in) {
    const auto& d = in.dims;
    auto matrix = [&](size_t a, size_t b) -> GemmDims { // a [.., M, K] times b [K, N]
        if (d.size() <= std::max(a, b) || d[a].size() < 2 || d[b].size() != 2)
            return {};
        return {product(d[a], 0, d[a].size() - 1), d[b][1]};
    };
    if (op == "aten::mm" || op == "aten::_scaled_mm")
        return matrix(0, 1);
    if (op == "aten::addmm" || op == "aten::_addmm_activation")
        return matrix(1, 2);
    if (op == "aten::matmul")
        return matrix(0, 1);
    if (op == "aten::linear") { // input [.., K], weight [N, K]
        if (d.size() < 2 || d[0].empty() || d[1].size() != 2)
            return {};
        return {product(d[0], 0, d[0].size() - 1), d[1][0]};
    }
    return {};
}

struct AttentionDims {
    int64_t batch = 0, query = 0, context = 0;
};

// The attention operator's batch, query length and keys per sequence from q and k.
AttentionDims attentionDims(std::string_view op, const OpInputs& in) {
    const bool bthd = op.find("_flash_attention_forward") != std::string_view::npos ||
                      op.find("_efficient_attention_forward") != std::string_view::npos;
    const bool bhtd = !bthd && (op.find("scaled_dot_product") != std::string_view::npos ||
                                op.find("cudnn_attention") != std::string_view::npos);
    if ((!bthd && !bhtd) || in.dims.size() < 2 || in.dims[0].size() != 4 || in.dims[1].size() != 4)
        return {};
    const size_t t = bthd ? 1 : 2;
    return {in.dims[0][0], in.dims[0][t], in.dims[1][t]};
}

// Rows of the kernel table that one operator call launched count once: (operator slice) or the row.
uint64_t callKey(const KernelRow& r, uint32_t row) {
    return r.opTrack != KernelRow::kNoInputs ? (uint64_t(r.opTrack) << 32 | r.opSlice) : (uint64_t(1) << 63 | row);
}

struct Head {
    uint32_t row = kNone; // the call's longest kernel
    int64_t start = 0;
    int64_t end = 0;
    int64_t m = 0;
};

// Groups the chosen rows into calls (an operator's kernels), in start order.
std::vector<Head> headsOf(const KernelTable& table, const std::vector<uint32_t>& rows, const std::vector<int64_t>& m) {
    std::unordered_map<uint64_t, size_t> byCall;
    std::vector<Head> heads;
    for (size_t i = 0; i < rows.size(); ++i) {
        const KernelRow& r = table.row(rows[i]);
        auto [it, fresh] = byCall.try_emplace(callKey(r, rows[i]), heads.size());
        if (fresh) {
            heads.push_back({rows[i], r.start, r.start + r.dur, m.empty() ? 0 : m[i]});
            continue;
        }
        Head& h = heads[it->second];
        h.end = std::max(h.end, r.start + r.dur);
        if (r.dur > table.row(h.row).dur)
            h.row = rows[i];
    }
    std::sort(heads.begin(), heads.end(), [](const Head& a, const Head& b) { return a.start < b.start; });
    return heads;
}

// Per CUDA graph replayed with 4 GEMM nodes or more: its costliest GEMM node's kernel in each replay
// (a replay runs every node once; the vocabulary's GEMM is the widest of a decode).
template <class IsGemm>
std::vector<Head> graphHeads(const KernelTable& table, const IsGemm& launchesGemm) {
    struct NodeCost {
        int64_t ns = 0;
        std::vector<uint32_t> rows;
    };
    std::map<std::pair<uint32_t, uint32_t>, NodeCost> nodes; // (graph, node) -> its GEMM kernels
    for (uint32_t i = 0; i < table.size(); ++i) {
        const KernelRow& r = table.row(i);
        if (r.graph == 0 || !launchesGemm(r))
            continue;
        NodeCost& c = nodes[{r.graph, r.graphNode}];
        c.ns += r.dur;
        c.rows.push_back(i);
    }
    std::map<uint32_t, std::pair<size_t, const NodeCost*>> byGraph; // graph -> (GEMM nodes, costliest)
    for (const auto& [key, cost] : nodes) {
        auto& [count, best] = byGraph[key.first];
        ++count;
        if (!best || cost.ns > best->ns)
            best = &cost;
    }
    std::vector<Head> heads;
    for (const auto& [graph, entry] : byGraph) {
        if (entry.first < 4)
            continue;
        for (uint32_t row : entry.second->rows) {
            const KernelRow& r = table.row(row);
            heads.push_back({row, r.start, r.start + r.dur, 0});
        }
    }
    return heads;
}

// Whether these heads (in start order) cut a model's forwards: between two of them run the model's
// layers, so some other GEMM (keyed by its N, or by its launching line) is called twice or more, in
// at least 90 % of the intervals. A model without a vocabulary GEMM (a bare decoder or encoder) has
// its widest or rarest layer GEMM once per layer instead, and between two of those calls every other
// GEMM comes once. others: the other GEMM kernels' (row, key), in row order.
bool layersBetween(const KernelTable& table, const std::vector<Head>& heads,
                   const std::vector<std::pair<uint32_t, uint64_t>>& others) {
    if (heads.size() < 2)
        return false;
    size_t next = 0, passing = 0;
    std::unordered_map<uint64_t, uint32_t> calls;
    for (size_t h = 0; h + 1 < heads.size(); ++h) {
        calls.clear();
        bool repeated = false;
        uint64_t lastCall = UINT64_MAX;
        for (; next < others.size() && table.row(others[next].first).start < heads[h + 1].start; ++next) {
            const auto [row, key] = others[next];
            const KernelRow& r = table.row(row);
            if (r.start <= heads[h].start)
                continue;
            const uint64_t call = callKey(r, row);
            if (call == lastCall)
                continue; // the same operator's next kernel (a split-K reduction)
            lastCall = call;
            repeated |= ++calls[key] >= 2;
        }
        passing += repeated;
    }
    return passing * 10 >= (heads.size() - 1) * 9;
}

struct Shapes {
    std::vector<GemmDims> gemm;           // per inputs index
    std::vector<AttentionDims> attention; // per inputs index
};

} // namespace

const char* inferencePhaseName(InferencePhase phase) { return phase == InferencePhase::Prefill ? "prefill" : "decode"; }

LatencyStats latencyStats(std::vector<int64_t> values) {
    LatencyStats s;
    s.count = values.size();
    if (values.empty())
        return s;
    std::sort(values.begin(), values.end());
    auto at = [&](double q) { // nearest rank
        const size_t i = static_cast<size_t>(std::max(0.0, std::ceil(q * static_cast<double>(values.size())) - 1));
        return values[std::min(i, values.size() - 1)];
    };
    s.min = values.front();
    s.max = values.back();
    s.p50 = at(0.50);
    s.p90 = at(0.90);
    s.p99 = at(0.99);
    double sum = 0;
    for (int64_t v : values)
        sum += static_cast<double>(v);
    s.mean = sum / static_cast<double>(values.size());
    return s;
}

InferenceSteps InferenceSteps::build(const Session& session, const KernelTable& table, const InferenceOptions& options) {
    InferenceSteps out;
    const auto& rows = table.rows();
    // Shapes of each distinct operator input, parsed once.
    Shapes shapes;
    shapes.gemm.assign(table.inputTexts().size(), {});
    shapes.attention.assign(table.inputTexts().size(), {});
    std::vector<bool> parsed(table.inputTexts().size(), false);
    auto gemmOf = [&](const KernelRow& r) -> GemmDims {
        if (r.inputs == KernelRow::kNoInputs)
            return {};
        if (!parsed[r.inputs]) {
            parsed[r.inputs] = true;
            const auto& t = table.inputTexts()[r.inputs];
            const OpInputs in = parseOpInputs(t.shapes, t.types, "");
            const std::string_view op = session.str(r.op);
            shapes.gemm[r.inputs] = gemmDims(op, in);
            shapes.attention[r.inputs] = attentionDims(op, in);
        }
        return shapes.gemm[r.inputs];
    };
    auto attentionOf = [&](const KernelRow& r) -> AttentionDims {
        if (r.inputs == KernelRow::kNoInputs)
            return {};
        gemmOf(r);
        return shapes.attention[r.inputs];
    };
    // Operator names are interned: each GEMM-ness decided once.
    std::unordered_map<StringId, bool> gemmOpCache;
    auto isGemmRow = [&](const KernelRow& r) {
        auto [it, fresh] = gemmOpCache.try_emplace(r.op, false);
        if (fresh)
            it->second = isGemmOp(session.str(r.op));
        return it->second;
    };
    // Kernel names are the table's dense names: each GEMM-ness decided once.
    std::vector<bool> gemmName(table.names().size());
    for (size_t i = 0; i < gemmName.size(); ++i)
        gemmName[i] = isGemmKernel(session.str(table.names()[i]));
    // A GEMM by its operator, or by its kernel's name where the launch had no GEMM operator around it.
    auto launchesGemm = [&](const KernelRow& r) { return isGemmRow(r) || gemmName[r.nameIndex]; };

    // A training run has a backward pass: its forward's LM head would cut it into "forwards" too.
    size_t backward = 0;
    for (const KernelRow& r : rows)
        backward += r.direction == KernelDirection::Backward;
    out.m_training = backward * 20 > rows.size();
    if (rows.empty() || out.m_training)
        return out;

    // 1. The LM head from shapes: the widest N of all GEMM operators.
    int64_t widest = 0;
    for (const KernelRow& r : rows)
        if (isGemmRow(r))
            widest = std::max(widest, gemmOf(r).n);
    std::vector<Head> heads;
    if (widest >= kMinVocabulary) {
        std::vector<uint32_t> chosen;
        std::vector<int64_t> m;
        std::vector<std::pair<uint32_t, uint64_t>> others; // the other GEMMs, keyed by their N
        for (uint32_t i = 0; i < rows.size(); ++i) {
            if (!isGemmRow(rows[i]))
                continue;
            const GemmDims d = gemmOf(rows[i]);
            if (d.n == widest) {
                chosen.push_back(i);
                m.push_back(d.m);
            } else if (d.n > 0) {
                others.emplace_back(i, static_cast<uint64_t>(d.n));
            }
        }
        heads = headsOf(table, chosen, m);
        if (!layersBetween(table, heads, others))
            heads.clear(); // the widest GEMM is a layer's: no LM head in these shapes
        // Replays of a trace's CUDA graphs carry no operator shapes (Kineto records them under the
        // graph launch): a graph none of whose kernels is a head by shape adds its own heads.
        std::set<uint32_t> graphsWithHead;
        for (uint32_t row : chosen)
            if (rows[row].graph)
                graphsWithHead.insert(rows[row].graph);
        for (const Head& g : graphHeads(table, launchesGemm))
            if (!graphsWithHead.count(rows[g.row].graph))
                heads.push_back(g);
        std::sort(heads.begin(), heads.end(), [](const Head& a, const Head& b) { return a.start < b.start; });
        if (heads.size() >= 2) {
            out.m_source = ForwardSource::HeadShapes;
            out.m_vocabulary = static_cast<uint32_t>(widest);
            out.m_headLabel = std::string(session.str(rows[heads.front().row].op)) + " to " + std::to_string(widest) + " columns";
        }
    }
    // 2. Else from the Python line of each GEMM launch: the line launched the fewest times; a CUDA
    // graph's nodes hold no frames of the model when torch.compile made them, so a graph that
    // replays a model (4 GEMM nodes or more) has its costliest GEMM node as its head.
    if (out.m_source == ForwardSource::None) {
        heads = graphHeads(table, launchesGemm);
        const LaunchFlows attribution = LaunchFlows::build(session, LaunchFlows::Follow::Attribution);
        std::vector<uint32_t> gemmRows;
        std::vector<uint64_t> refs;
        for (uint32_t i = 0; i < rows.size(); ++i) {
            const KernelRow& r = rows[i];
            if (r.graph != 0 || (!isGemmRow(r) && !(r.op == kEmptyString && gemmName[r.nameIndex])))
                continue;
            const uint32_t f = attribution.flowOf(r.track, r.slice);
            if (f == LaunchFlows::kNone)
                continue;
            const Flow& flow = session.flows()[f];
            const Track& from = session.tracks()[flow.fromTrack];
            if (flow.fromSlice >= from.argRef.size() || from.argRef[flow.fromSlice] == Track::kNoArgs)
                continue;
            gemmRows.push_back(i);
            refs.push_back(from.argRef[flow.fromSlice]);
        }
        std::vector<uint32_t> lineOf(gemmRows.size(), kNone);
        std::map<std::string, uint32_t> lineIds;
        session.forEachArgValues(
            refs, {"Call stack"},
            [&](size_t i, const std::vector<std::string_view>& v) {
                if (v[0].empty())
                    return;
                const std::vector<StackFrameText> frames = parseCallStackText(v[0]);
                const auto it = programFrame(frames.begin(), frames.end(), [](const StackFrameText& f) { return std::string_view(f.file); });
                if (it == frames.end() || it->line <= 0)
                    return;
                const std::string key = it->function + " (" + shortLocation(it->file, it->line) + ")";
                lineOf[i] = lineIds.try_emplace(key, static_cast<uint32_t>(lineIds.size())).first->second;
            },
            options.cancel);
        // Calls per line (an operator's kernels once), and their GPU time.
        std::vector<std::vector<uint32_t>> rowsOfLine(lineIds.size());
        for (size_t i = 0; i < gemmRows.size(); ++i)
            if (lineOf[i] != kNone)
                rowsOfLine[lineOf[i]].push_back(gemmRows[i]);
        size_t best = kNone;
        size_t bestCalls = 0;
        int64_t bestNs = 0;
        std::vector<std::vector<Head>> headsOfLine(rowsOfLine.size());
        for (size_t l = 0; l < rowsOfLine.size(); ++l) {
            headsOfLine[l] = headsOf(table, rowsOfLine[l], {});
            const size_t calls = headsOfLine[l].size();
            int64_t ns = 0;
            for (uint32_t r : rowsOfLine[l])
                ns += rows[r].dur;
            if (calls < 2)
                continue;
            if (best == kNone || calls < bestCalls || (calls == bestCalls && ns > bestNs)) {
                best = l;
                bestCalls = calls;
                bestNs = ns;
            }
        }
        std::vector<std::pair<uint32_t, uint64_t>> others; // the other lines' GEMMs, keyed by their line
        for (size_t i = 0; i < gemmRows.size(); ++i)
            if (lineOf[i] != kNone && lineOf[i] != best)
                others.emplace_back(gemmRows[i], lineOf[i]);
        if (best != kNone && layersBetween(table, headsOfLine[best], others)) {
            heads.insert(heads.end(), headsOfLine[best].begin(), headsOfLine[best].end());
            for (const auto& [key, id] : lineIds)
                if (id == best)
                    out.m_headLabel = key;
        }
        if (heads.size() >= 2) {
            std::sort(heads.begin(), heads.end(), [](const Head& a, const Head& b) { return a.start < b.start; });
            out.m_source = ForwardSource::HeadLine;
            if (out.m_headLabel.empty())
                out.m_headLabel = "the costliest GEMM node of each CUDA graph replay";
        }
    }
    if (out.m_source == ForwardSource::None)
        return out;

    // The head's device (the one most heads ran on); forwards hold that device's kernels.
    std::map<int32_t, size_t> devices;
    for (const Head& h : heads)
        ++devices[rows[h.row].device];
    out.m_device = std::max_element(devices.begin(), devices.end(), [](const auto& a, const auto& b) { return a.second < b.second; })->first;
    heads.erase(std::remove_if(heads.begin(), heads.end(), [&](const Head& h) { return rows[h.row].device != out.m_device; }),
                heads.end());

    // 3. The forwards: the device's kernels after the previous head, up to this head's end.
    std::vector<uint32_t> deviceRows;
    for (uint32_t i = 0; i < rows.size(); ++i)
        if (rows[i].device == out.m_device)
            deviceRows.push_back(i);
    std::vector<uint32_t> gapAfter(heads.size(), kNone); // first row after the forward's longest idle gap
    std::vector<uint32_t> firstRow(heads.size(), kNone); // the forward's first row (into deviceRows)
    bool anyAttention = false;
    size_t k = 0;
    int64_t previousEnd = INT64_MIN;
    for (size_t h = 0; h < heads.size(); ++h) {
        if (options.cancel && options.cancel->load(std::memory_order_relaxed))
            return InferenceSteps{};
        InferenceStep step;
        step.headRow = heads[h].row;
        step.headTrack = rows[heads[h].row].track;
        step.headSlice = rows[heads[h].row].slice;
        step.end = heads[h].end;
        int64_t gemmRows = 0;
        AttentionDims attention;
        int64_t reach = INT64_MIN, longestGap = kMinRequestGapNs - 1;
        size_t first = k, afterGap = kNone;
        bool gemmSeen = false; // the request's own work starts before its first GEMM
        for (; k < deviceRows.size() && rows[deviceRows[k]].start < heads[h].end; ++k) {
            const KernelRow& r = rows[deviceRows[k]];
            if (r.start + r.dur <= previousEnd)
                continue; // inside the previous head's span (another stream)
            if (!gemmSeen && reach != INT64_MIN && r.start - reach > longestGap) {
                longestGap = r.start - reach;
                afterGap = k;
            }
            reach = std::max(reach, r.start + r.dur);
            const bool gemm = isGemmRow(r);
            gemmSeen |= gemm || gemmName[r.nameIndex];
            if (gemm && callKey(r, deviceRows[k]) != callKey(rows[heads[h].row], heads[h].row))
                gemmRows = std::max(gemmRows, gemmOf(r).m);
            const AttentionDims a = attentionOf(r);
            if (a.batch > 0 && a.query >= attention.query) {
                attention.batch = a.batch;
                attention.query = a.query;
                attention.context = std::max(attention.context, a.context);
            }
        }
        if (first < deviceRows.size())
            step.start = rows[deviceRows[first]].start;
        firstRow[h] = static_cast<uint32_t>(first);
        gapAfter[h] = afterGap == kNone ? static_cast<uint32_t>(first) : static_cast<uint32_t>(afterGap);
        step.tokens = static_cast<uint32_t>(gemmRows);
        step.batch = static_cast<uint32_t>(attention.batch > 0 ? attention.batch : heads[h].m);
        step.queryLength = static_cast<uint32_t>(attention.query);
        step.context = static_cast<uint32_t>(attention.context);
        anyAttention |= attention.batch > 0;
        out.m_steps.push_back(step);
        previousEnd = heads[h].end;
    }
    // 4. Prefill or decode.
    bool anyRows = false;
    uint32_t fewestRows = UINT32_MAX;
    for (const InferenceStep& s : out.m_steps)
        if (s.tokens > 0) {
            anyRows = true;
            fewestRows = std::min(fewestRows, s.tokens);
        }
    // Busy time, kernels and graph-replayed kernels of forward h from row fromRow (into deviceRows)
    // to its head's end.
    struct Busy {
        int64_t ns = 0;
        uint32_t kernels = 0, graphKernels = 0;
    };
    auto busyOf = [&](size_t h, uint32_t fromRow) {
        Busy b;
        for (size_t i = fromRow; i < deviceRows.size(); ++i) {
            const KernelRow& r = rows[deviceRows[i]];
            if (r.start >= out.m_steps[h].end)
                break;
            b.ns += r.dur;
            ++b.kernels;
            b.graphKernels += r.graph != 0;
        }
        return b;
    };
    // Without shapes: the GEMM kernels a forward ran, in order. cuBLAS picks its kernels by the
    // problem's shape, so the decodes (one row per sequence) share one sequence and a prefill differs.
    std::vector<uint64_t> signature(out.m_steps.size(), 0);
    for (size_t h = 0; h < out.m_steps.size(); ++h) {
        uint64_t sig = 0xcbf29ce484222325ull;
        for (size_t i = firstRow[h]; i < deviceRows.size() && rows[deviceRows[i]].start < out.m_steps[h].end; ++i) {
            const KernelRow& r = rows[deviceRows[i]];
            if (launchesGemm(r))
                sig = (sig ^ r.nameIndex) * 0x100000001b3ull;
        }
        signature[h] = sig;
    }
    std::unordered_map<uint64_t, size_t> signatureCounts;
    for (uint64_t sig : signature)
        ++signatureCounts[sig];
    uint64_t modalSignature = 0;
    size_t modalCount = 0;
    for (const auto& [sig, count] : signatureCounts)
        if (count > modalCount || (count == modalCount && sig < modalSignature)) {
            modalSignature = sig;
            modalCount = count;
        }
    out.m_phaseSource = anyAttention ? PhaseSource::AttentionShapes : anyRows ? PhaseSource::GemmRows : PhaseSource::GemmKernels;
    for (size_t h = 0; h < out.m_steps.size(); ++h) {
        InferenceStep& s = out.m_steps[h];
        bool prefill;
        if (s.queryLength > 0)
            prefill = s.queryLength > 1;
        else if (s.tokens > 0)
            prefill = s.tokens > fewestRows;
        else
            prefill = signature[h] != modalSignature;
        s.phase = prefill ? InferencePhase::Prefill : InferencePhase::Decode;
    }
    // 5. Requests, spans and latencies.
    for (size_t h = 0; h < out.m_steps.size(); ++h) {
        InferenceStep& s = out.m_steps[h];
        const bool opens = s.phase == InferencePhase::Prefill || h == 0;
        if (s.phase == InferencePhase::Prefill) {
            const uint32_t from = gapAfter[h];
            if (from < deviceRows.size() && rows[deviceRows[from]].start < s.end)
                s.start = rows[deviceRows[from]].start;
        } else if (h > 0) {
            s.start = out.m_steps[h - 1].end;
            s.latencyNs = s.end - out.m_steps[h - 1].end;
        }
        size_t i = firstRow[h];
        while (i < deviceRows.size() && rows[deviceRows[i]].start < s.start)
            ++i;
        const Busy b = busyOf(h, static_cast<uint32_t>(i));
        s.busyNs = b.ns;
        s.kernels = b.kernels;
        s.graphKernels = b.graphKernels;
        if (opens) {
            InferenceRequest r;
            r.firstStep = static_cast<uint32_t>(h);
            r.hasPrefill = s.phase == InferencePhase::Prefill;
            r.start = s.start;
            r.firstTokenEnd = s.end;
            r.batch = s.batch;
            r.promptTokens = r.hasPrefill ? s.queryLength : 0;
            out.m_requests.push_back(r);
        }
        InferenceRequest& r = out.m_requests.back();
        s.request = static_cast<uint32_t>(out.m_requests.size() - 1);
        ++r.steps;
        ++r.newTokens;
        r.end = s.end;
        if (r.batch == 0)
            r.batch = s.batch;
    }
    return out;
}

LatencyStats InferenceSteps::ttft() const {
    std::vector<int64_t> v;
    for (const InferenceRequest& r : m_requests)
        if (r.hasPrefill)
            v.push_back(r.ttftNs());
    return latencyStats(std::move(v));
}

LatencyStats InferenceSteps::timePerToken() const {
    std::vector<int64_t> v;
    for (const InferenceStep& s : m_steps)
        if (s.phase == InferencePhase::Decode && s.latencyNs > 0)
            v.push_back(s.latencyNs);
    return latencyStats(std::move(v));
}

double InferenceSteps::tokensPerSecond() const {
    double tokens = 0, ns = 0;
    for (const InferenceRequest& r : m_requests) {
        tokens += static_cast<double>(std::max<uint32_t>(r.batch, 1)) * r.newTokens;
        ns += static_cast<double>(r.end - r.start);
    }
    return ns > 0 ? tokens / ns * 1e9 : 0;
}

PhaseTotals InferenceSteps::totals(InferencePhase phase) const {
    PhaseTotals t;
    for (const InferenceStep& s : m_steps) {
        if (s.phase != phase)
            continue;
        ++t.steps;
        t.spanNs += s.end - s.start;
        t.busyNs += s.busyNs;
        t.tokens += s.tokens;
    }
    return t;
}

} // namespace ws
