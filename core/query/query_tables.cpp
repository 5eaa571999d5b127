#include "query/query_tables.h"

#include "analysis/idle_gaps.h"
#include "analysis/kernel_table.h"
#include "analysis/launch_flows.h"
#include "analysis/operator_tree.h"
#include "analysis/session_analyses.h"
#include "analysis/step_ranges.h"
#include "model/session.h"

#include <algorithm>
#include <mutex>
#include <unordered_map>

namespace ws {

namespace {

using Type = QueryValue::Type;
constexpr uint32_t kNone = Track::kNoId;

std::string idText(const Session& s, const IdValue& v) {
    return v.isString ? std::string(s.str(v.string)) : std::to_string(v.number);
}

const char* trackKindName(Track::Kind k) {
    switch (k) {
    case Track::Kind::Thread: return "thread";
    case Track::Kind::GpuStream: return "gpu_stream";
    case Track::Kind::Async: return "async";
    case Track::Kind::ProcessInstants: return "process_instants";
    case Track::Kind::GlobalInstants: return "global_instants";
    }
    return "";
}

} // namespace

/*
 * What the tables read: the session, its slice ids, and the analyses, each built on the first read
 * of a table that needs it. One engine runs one statement at a time, so the builds need no lock.
 */
struct QueryTables::State {
    std::shared_ptr<const Session> session;
    std::shared_ptr<SessionAnalyses> analyses;
    const std::atomic<bool>* cancel = nullptr;
    std::vector<uint64_t> trackBase; // slice id of each track's first slice; tracks + 1 entries

    // The last slice id decoded, for scans that read several columns of a row.
    int64_t lastId = -1;
    uint32_t lastTrack = 0, lastSlice = 0;

    std::optional<StepRanges> steps;
    std::unique_ptr<KernelTable> kernels;
    bool kernelsIncomplete = false;
    std::vector<std::pair<int64_t, uint32_t>> kernelById; // (slice id, row), sorted
    std::shared_ptr<const OperatorTree> tree;
    std::vector<uint32_t> operatorNodes;   // counted nodes, in tree order: the rows of `operators`
    std::vector<uint32_t> operatorRowOfNode;
    std::unordered_map<int64_t, uint32_t> operatorOfGpuSlice; // slice id -> node that launched it
    bool gpuOperatorsBuilt = false;
    std::vector<std::pair<uint32_t, uint32_t>> memcpys; // (track, slice)
    std::vector<std::pair<uint32_t, uint32_t>> pythonFrames;
    std::vector<uint64_t> counterBase;
    std::optional<IdleGapReport> gaps;

    const Session& s() const { return *session; }
    // Before a statement: what a cancelled one left half-built goes.
    void dropIncomplete() {
        if (kernelsIncomplete) {
            kernels.reset();
            kernelById.clear();
            kernelsIncomplete = false;
            kernelStacksBuilt = false;
        }
        if (kernelStacksBuilt && cancelledStacks)
            kernelStacksBuilt = cancelledStacks = false;
    }
    bool cancelled() const { return cancel && cancel->load(std::memory_order_relaxed); }

    int64_t sliceId(uint32_t track, uint32_t slice) const { return int64_t(trackBase[track] + slice); }
    bool decode(int64_t id, uint32_t& track, uint32_t& slice) {
        if (id == lastId) {
            track = lastTrack, slice = lastSlice;
            return true;
        }
        if (id < 0 || uint64_t(id) >= trackBase.back())
            return false;
        const auto it = std::upper_bound(trackBase.begin(), trackBase.end(), uint64_t(id));
        track = uint32_t(it - trackBase.begin() - 1);
        slice = uint32_t(uint64_t(id) - trackBase[track]);
        lastId = id, lastTrack = track, lastSlice = slice;
        return true;
    }
    const Track& track(uint32_t t) const { return s().tracks()[t]; }

    // The slice's nesting depth in its lane, and the slice enclosing it (the last one of the row
    // above that starts at or before it), kNone at depth 0.
    uint32_t depthOf(const Track& t, uint32_t slice) const { return t.rowDepth[t.rowOf(slice)]; }
    uint32_t parentOf(const Track& t, uint32_t slice) const {
        const uint32_t row = t.rowOf(slice);
        if (t.rowDepth[row] == 0)
            return kNone;
        const auto first = t.start.begin() + t.rowBegin[row - 1], last = t.start.begin() + t.rowBegin[row];
        const auto it = std::upper_bound(first, last, t.start[slice]);
        return it == first ? kNone : uint32_t(it - t.start.begin() - 1);
    }

    const StepRanges& stepRanges() {
        if (!steps)
            steps = computeStepRanges(s());
        return *steps;
    }
    // Index of the step whose range holds ts; -1 when none does.
    int64_t stepAt(int64_t ts) {
        const std::vector<StepRange>& r = stepRanges().steps;
        const auto it = std::upper_bound(r.begin(), r.end(), ts, [](int64_t t, const StepRange& x) { return t < x.start; });
        if (it == r.begin())
            return -1;
        const size_t i = size_t(it - r.begin() - 1);
        return ts < r[i].end ? int64_t(i) : -1;
    }

    const KernelTable& kernelTable() {
        if (!kernels) {
            KernelTableOptions options;
            options.cancel = cancel;
            kernels = std::make_unique<KernelTable>(KernelTable::build(s(), options));
            kernelsIncomplete = cancelled(); // the statement is stopping; the next one builds again
        }
        return *kernels;
    }
    std::optional<size_t> kernelRowOfId(int64_t id) {
        const KernelTable& k = kernelTable();
        if (kernelById.size() != k.size()) {
            kernelById.clear();
            kernelById.reserve(k.size());
            for (uint32_t i = 0; i < k.size(); ++i)
                kernelById.emplace_back(sliceId(k.row(i).track, k.row(i).slice), i);
            std::sort(kernelById.begin(), kernelById.end());
        }
        const auto it = std::lower_bound(kernelById.begin(), kernelById.end(), std::make_pair(id, uint32_t(0)));
        if (it == kernelById.end() || it->first != id)
            return std::nullopt;
        return it->second;
    }

    const OperatorTree* operatorTree() {
        if (!tree) {
            tree = analyses->operatorTree(true, cancel);
            if (!tree)
                return nullptr;
            operatorRowOfNode.assign(tree->size(), kNone);
            for (uint32_t n = 0; n < tree->size(); ++n)
                if (tree->node(n).counted()) {
                    operatorRowOfNode[n] = uint32_t(operatorNodes.size());
                    operatorNodes.push_back(n);
                }
        }
        return tree.get();
    }
    int64_t operatorSliceId(uint32_t node) const { return sliceId(tree->trackOf(node), tree->node(node).slice); }
    // The operator whose runtime call launched GPU slice `id`; kNone without one.
    uint32_t launchingOperator(int64_t id) {
        if (!gpuOperatorsBuilt) {
            if (!operatorTree())
                return kNone;
            for (const OperatorTree::Launch& l : tree->launches())
                operatorOfGpuSlice.emplace(sliceId(l.gpuTrack, l.gpuSlice), l.node);
            gpuOperatorsBuilt = true;
        }
        const auto it = operatorOfGpuSlice.find(id);
        return it == operatorOfGpuSlice.end() ? kNone : it->second;
    }

    // The runtime or driver call that launched GPU slice (track, slice): the start of its flow
    // from another track; nullopt when it has none.
    std::optional<std::pair<uint32_t, uint32_t>> launchOf(uint32_t track, uint32_t slice) const {
        const uint32_t f = LaunchFlows::flowOfSlice(s(), track, slice, LaunchFlows::Follow::Launch);
        if (f == LaunchFlows::kNone)
            return std::nullopt;
        return std::make_pair(s().flows()[f].fromTrack, s().flows()[f].fromSlice);
    }

    // Per kernel row, the Python stack of the call the kernel table attributes it to (a replayed
    // graph node: where it was captured), innermost first: the python_function slices around it
    // ("file(line): function", as operators.python_stack), else the `Call stack` argument of the
    // call or of its innermost enclosing operator (with_stack traces, captures with --py-stacks),
    // read for all kernels in one pass over the arguments. Built on the column's first read.
    std::vector<uint32_t> kernelStack; // per kernel row: index into stackTexts, 0 = none
    std::vector<std::string> stackTexts;
    bool kernelStacksBuilt = false;
    bool cancelledStacks = false;
    const std::string* launchStackOf(size_t row) {
        if (!kernelStacksBuilt)
            buildKernelStacks();
        const uint32_t id = row < kernelStack.size() ? kernelStack[row] : 0;
        return id ? &stackTexts[id] : nullptr;
    }
    void buildKernelStacks() {
        kernelStacksBuilt = true;
        const KernelTable& k = kernelTable();
        kernelStack.assign(k.size(), 0);
        stackTexts.assign(1, std::string());
        std::unordered_map<std::string, uint32_t> ids;
        auto intern = [&](std::string text) {
            auto [it, added] = ids.emplace(std::move(text), uint32_t(stackTexts.size()));
            if (added)
                stackTexts.push_back(it->first);
            return it->second;
        };
        const LaunchFlows launches = LaunchFlows::build(s(), LaunchFlows::Follow::Attribution);
        std::vector<uint32_t> chain;
        std::vector<uint64_t> refs;
        std::vector<std::pair<uint32_t, uint32_t>> which; // (kernel row, rank: 0 the call, 1.. its operators)
        for (uint32_t r = 0; r < k.size(); ++r) {
            const uint32_t f = launches.flowOf(k.row(r).track, k.row(r).slice);
            if (f == LaunchFlows::kNone)
                continue;
            const Flow& flow = s().flows()[f];
            const Track& t = track(flow.fromTrack);
            s().ancestors(t, flow.fromSlice, chain);
            std::string stack;
            for (auto it = chain.rbegin(); it != chain.rend(); ++it)
                if (s().kindOf(t, *it) == EventKind::PythonFunction) {
                    if (!stack.empty())
                        stack += ';';
                    stack += s().str(t.names[*it]);
                }
            if (!stack.empty()) {
                kernelStack[r] = intern(std::move(stack));
                continue;
            }
            auto argRef = [&](uint32_t slice) { return slice < t.argRef.size() ? t.argRef[slice] : Track::kNoArgs; };
            refs.push_back(argRef(flow.fromSlice));
            which.emplace_back(r, 0);
            uint32_t rank = 1;
            for (auto it = chain.rbegin(); it != chain.rend() && rank < 3; ++it)
                if (s().kindOf(t, *it) == EventKind::CpuOp) {
                    refs.push_back(argRef(*it));
                    which.emplace_back(r, rank++);
                }
        }
        if (refs.empty())
            return;
        std::vector<uint32_t> bestRank(k.size(), UINT32_MAX);
        s().forEachArgValues(
            refs, {"Call stack"},
            [&](size_t i, const std::vector<std::string_view>& v) {
                const auto [r, rank] = which[i];
                if (v[0].empty() || rank >= bestRank[r])
                    return;
                bestRank[r] = rank;
                kernelStack[r] = intern(std::string(v[0]));
            },
            cancel);
        cancelledStacks = cancelled();
    }

    const IdleGapReport& idleGaps() {
        if (!gaps)
            gaps = computeIdleGaps(s(), IdleGapOptions{});
        return *gaps;
    }
};

namespace {

using State = QueryTables::State;

// findKey of a table whose key is its row index, [0, size()).
std::function<std::optional<size_t>(int64_t)> rowIndexKey(std::function<size_t()> size) {
    return [size = std::move(size)](int64_t id) -> std::optional<size_t> {
        if (id < 0 || uint64_t(id) >= size())
            return std::nullopt;
        return size_t(id);
    };
}

QueryColumn col(std::string name, Type type, std::string doc, std::function<void(size_t, SqlCell&)> get) {
    return QueryColumn{std::move(name), type, std::move(doc), std::move(get)};
}

// Columns every table of slices has: id, ts, dur, end, name, track_id, read through `at(row)`.
template <typename At>
void addSliceColumns(std::vector<QueryColumn>& c, State* st, At at, bool withDepth) {
    c.push_back(col("id", Type::Integer, "slice id (unique over all tracks; slices.id)", [st, at](size_t r, SqlCell& v) {
        const auto [t, s] = at(r);
        v.integer(st->sliceId(t, s));
    }));
    c.push_back(col("ts", Type::Integer, "start, ns on the session clock", [st, at](size_t r, SqlCell& v) {
        const auto [t, s] = at(r);
        v.integer(st->track(t).start[s]);
    }));
    c.push_back(col("dur", Type::Integer, "duration, ns", [st, at](size_t r, SqlCell& v) {
        const auto [t, s] = at(r);
        v.integer(st->track(t).dur[s]);
    }));
    c.push_back(col("end", Type::Integer, "ts + dur", [st, at](size_t r, SqlCell& v) {
        const auto [t, s] = at(r);
        v.integer(st->track(t).end(s));
    }));
    c.push_back(col("name", Type::Text, "event name", [st, at](size_t r, SqlCell& v) {
        const auto [t, s] = at(r);
        v.text(st->s().str(st->track(t).names[s]));
    }));
    c.push_back(col("track_id", Type::Integer, "tracks.id", [at](size_t r, SqlCell& v) { v.integer(at(r).first); }));
    if (!withDepth)
        return;
    c.push_back(col("depth", Type::Integer, "nesting level in its track (0: outermost)", [st, at](size_t r, SqlCell& v) {
        const auto [t, s] = at(r);
        v.integer(st->depthOf(st->track(t), s));
    }));
    c.push_back(col("parent_id", Type::Integer, "the enclosing slice's id; NULL at depth 0", [st, at](size_t r, SqlCell& v) {
        const auto [t, s] = at(r);
        const uint32_t p = st->parentOf(st->track(t), s);
        p == kNone ? v.null() : v.integer(st->sliceId(t, p));
    }));
}

QueryTable slicesTable(State* st) {
    QueryTable t{"slices", "every slice of every track (CPU calls, operators, Python frames, GPU work)", {}, {}, 0, {}, {}};
    auto at = [st](size_t r) {
        uint32_t tr = 0, s = 0;
        st->decode(int64_t(r), tr, s);
        return std::make_pair(tr, s);
    };
    addSliceColumns(t.columns, st, at, true);
    t.columns.push_back(col("category", Type::Text, "the trace's category (cat)", [st, at](size_t r, SqlCell& v) {
        const auto [tr, s] = at(r);
        v.text(st->s().str(st->s().categories()[st->track(tr).category[s]].name));
    }));
    t.columns.push_back(col("kind", Type::Text,
                            "what it is: cpu_op, user_annotation, python_function, runtime, driver, kernel, memcpy, memset, "
                            "gpu_user_annotation, sync, event, graph_node, cuda_graph, other, ...",
                            [st, at](size_t r, SqlCell& v) {
                                const auto [tr, s] = at(r);
                                v.text(eventKindName(st->s().kindOf(st->track(tr), s)));
                            }));
    t.columns.push_back(col("correlation", Type::Integer, "CUPTI correlation id (GPU work and its launch); NULL when absent",
                            [st, at](size_t r, SqlCell& v) {
                                const auto [tr, s] = at(r);
                                const Track& k = st->track(tr);
                                const bool has = !k.correlation.empty() && k.correlation[s] != Track::kNoId;
                                v.integerOrNull(has ? k.correlation[s] : 0, has);
                            }));
    t.rowCount = [st] { return size_t(st->trackBase.back()); };
    t.findKey = rowIndexKey([st] { return size_t(st->trackBase.back()); });
    return t;
}

// What each column of the kernel table holds (KernelColumn order), for the schema.
const char* const kKernelColumnDocs[kKernelColumnCount] = {
    "kernel name",
    "innermost operator (cpu_op) enclosing the launch",
    "innermost user annotation enclosing the launch (a module, a record_function range)",
    "fwd or bwd (backward when launched under autograd's engine); empty when unknown",
    "the launching operator's Input Dims (record_shapes)",
    "the launching operator's Input type",
    "duration, ns",
    "start, ns on the session clock",
    "GPU index",
    "stream id",
    "grid size \"[x, y, z]\"",
    "block size \"[x, y, z]\"",
    "registers per thread",
    "static + dynamic shared memory per block, bytes",
    "blocks per SM (from the trace, or computed from the launch)",
    "estimated achieved occupancy, %",
    "yes when its name is a Tensor Core kernel's",
    "estimated FLOPs of its operator (on the operator's longest kernel)",
    "estimated bytes its operator moves (on the operator's longest kernel)",
    "flops / duration, TFLOP/s",
    "bytes / duration, GB/s",
    "number of the CUDA graph it was replayed from (the Graphs view's)",
    "its node in that graph, from 1",
    "flops / bytes",
    "what bounds it on its GPU's roofline: compute, memory or latency",
};

QueryTable kernelsTable(State* st) {
    QueryTable t{"kernels", "one row per kernel call, the kernel table's columns (warpscope-cli kernels --csv) and ids to join on",
                 {}, {}, 0, {}, {}};
    auto row = [st](size_t r) -> const KernelRow& { return st->kernelTable().row(r); };
    t.columns.push_back(col("id", Type::Integer, "slice id of the kernel (slices.id)", [st, row](size_t r, SqlCell& v) {
        v.integer(st->sliceId(row(r).track, row(r).slice));
    }));
    for (size_t c = 0; c < kKernelColumnCount; ++c) {
        const auto column = static_cast<KernelColumn>(c);
        Type type = Type::Text;
        switch (column) {
        case KernelColumn::Duration:
        case KernelColumn::Start:
        case KernelColumn::Device:
        case KernelColumn::Stream:
        case KernelColumn::Registers:
        case KernelColumn::SharedMemory:
        case KernelColumn::Flops:
        case KernelColumn::Bytes:
        case KernelColumn::Graph:
        case KernelColumn::GraphNode: type = Type::Integer; break;
        case KernelColumn::BlocksPerSm:
        case KernelColumn::Occupancy:
        case KernelColumn::Tflops:
        case KernelColumn::GBps:
        case KernelColumn::Intensity: type = Type::Real; break;
        default: break;
        }
        std::function<void(size_t, SqlCell&)> get;
        if (column == KernelColumn::Kernel)
            get = [st, row](size_t r, SqlCell& v) { v.text(st->s().str(row(r).name)); };
        else if (column == KernelColumn::Operator)
            get = [st, row](size_t r, SqlCell& v) { v.text(st->s().str(row(r).op)); };
        else if (column == KernelColumn::Layer)
            get = [st, row](size_t r, SqlCell& v) { v.text(st->s().str(row(r).layer)); };
        else if (column == KernelColumn::Duration)
            get = [row](size_t r, SqlCell& v) { v.integer(row(r).dur); };
        else if (column == KernelColumn::Start)
            get = [row](size_t r, SqlCell& v) { v.integer(row(r).start); };
        else if (type == Type::Integer)
            get = [st, column](size_t r, SqlCell& v) { v.integerFromText(st->kernelTable().text(st->s(), r, column)); };
        else if (type == Type::Real)
            get = [st, column](size_t r, SqlCell& v) { v.realFromText(st->kernelTable().text(st->s(), r, column)); };
        else
            get = [st, column](size_t r, SqlCell& v) { v.textCopy(st->kernelTable().text(st->s(), r, column)); };
        t.columns.push_back(col(kernelColumnName(column), type, kKernelColumnDocs[c], std::move(get)));
    }
    t.columns.push_back(col("end_ns", Type::Integer, "start_ns + duration_ns", [row](size_t r, SqlCell& v) {
        v.integer(row(r).start + row(r).dur);
    }));
    t.columns.push_back(col("track_id", Type::Integer, "tracks.track_id of its GPU stream", [row](size_t r, SqlCell& v) { v.integer(row(r).track); }));
    t.columns.push_back(col("op_id", Type::Integer, "operators.id of the launching operator; NULL without one",
                            [st, row](size_t r, SqlCell& v) {
                                const KernelRow& k = row(r);
                                k.opTrack == kNone ? v.null() : v.integer(st->sliceId(k.opTrack, k.opSlice));
                            }));
    t.columns.push_back(col("launch_id", Type::Integer, "slices.id of the runtime or driver call that launched it; NULL when unknown",
                            [st, row](size_t r, SqlCell& v) {
                                const KernelRow& k = row(r);
                                const auto launch = st->launchOf(k.track, k.slice);
                                launch ? v.integer(st->sliceId(launch->first, launch->second)) : v.null();
                            }));
    t.columns.push_back(col("launch_stack", Type::Text,
                            "Python stack of the launch (a replayed graph node: where it was captured), innermost first, "
                            "\"file(line): function\" joined by ';'; NULL without one",
                            [st](size_t r, SqlCell& v) {
                                const std::string* stack = st->launchStackOf(r);
                                stack ? v.text(*stack) : v.null();
                            }));
    t.columns.push_back(col("step", Type::Integer, "steps.step its start falls in; NULL outside every step",
                            [st, row](size_t r, SqlCell& v) {
                                const int64_t s = st->stepAt(row(r).start);
                                v.integerOrNull(s, s >= 0);
                            }));
    t.rowCount = [st] { return st->kernelTable().size(); };
    t.findKey = [st](int64_t id) { return st->kernelRowOfId(id); };
    return t;
}

QueryTable operatorsTable(State* st) {
    QueryTable t{"operators",
                 "one row per operator call the operator table counts (warpscope-cli ops): cpu_op slices, a same-name "
                 "parent/child pair as one",
                 {}, {}, 0, {}, {}};
    auto at = [st](size_t r) {
        const uint32_t n = st->operatorNodes[r];
        return std::make_pair(st->tree->trackOf(n), st->tree->node(n).slice);
    };
    addSliceColumns(t.columns, st, at, false);
    auto times = [st](size_t r) { return st->tree->times(st->operatorNodes[r]); };
    t.columns.push_back(col("parent_id", Type::Integer, "id of the enclosing operator-tree node (an operator, step or annotation); NULL at the root",
                            [st](size_t r, SqlCell& v) {
                                const uint32_t p = st->tree->node(st->operatorNodes[r]).parent;
                                p == OperatorNode::kNone ? v.null() : v.integer(st->operatorSliceId(p));
                            }));
    t.columns.push_back(col("host_self_ns", Type::Integer, "host time minus child operators and own runtime calls",
                            [times](size_t r, SqlCell& v) { v.integer(times(r).selfHostNs); }));
    t.columns.push_back(col("device_ns", Type::Integer, "GPU time launched by it and its children",
                            [times](size_t r, SqlCell& v) { v.integer(times(r).deviceNs); }));
    t.columns.push_back(col("device_self_ns", Type::Integer, "GPU time launched by its own runtime calls",
                            [times](size_t r, SqlCell& v) { v.integer(times(r).selfDeviceNs); }));
    t.columns.push_back(col("tc_ns", Type::Integer, "Tensor Core kernel time within device_ns",
                            [times](size_t r, SqlCell& v) { v.integer(times(r).tcNs); }));
    t.columns.push_back(col("tc_self_ns", Type::Integer, "Tensor Core kernel time within device_self_ns",
                            [times](size_t r, SqlCell& v) { v.integer(times(r).selfTcNs); }));
    auto argText = [st](size_t r, uint32_t OperatorArgs::*field) {
        return st->tree->text(st->tree->args(st->tree->node(st->operatorNodes[r])).*field);
    };
    t.columns.push_back(col("input_shapes", Type::Text, "Input Dims (record_shapes)", [argText](size_t r, SqlCell& v) {
        v.text(argText(r, &OperatorArgs::shapes));
    }));
    t.columns.push_back(col("input_types", Type::Text, "Input type (record_shapes)", [argText](size_t r, SqlCell& v) {
        v.text(argText(r, &OperatorArgs::types));
    }));
    t.columns.push_back(col("call_stack", Type::Text, "the Call stack argument (with_stack), frames joined by ';'",
                            [argText](size_t r, SqlCell& v) { v.text(argText(r, &OperatorArgs::callStack)); }));
    t.columns.push_back(col("python_stack", Type::Text, "python_function ancestors, innermost first, joined by ';'",
                            [st](size_t r, SqlCell& v) {
                                v.textCopy(st->tree->pyStackText(st->s(), st->tree->node(st->operatorNodes[r]).pyStack));
                            }));
    t.columns.push_back(col("step", Type::Integer, "steps.step its start falls in; NULL outside every step",
                            [st, at](size_t r, SqlCell& v) {
                                const auto [tr, s] = at(r);
                                const int64_t step = st->stepAt(st->track(tr).start[s]);
                                v.integerOrNull(step, step >= 0);
                            }));
    t.rowCount = [st] { return st->operatorTree() ? st->operatorNodes.size() : 0; };
    t.findKey = [st](int64_t id) -> std::optional<size_t> {
        uint32_t tr = 0, s = 0;
        if (!st->operatorTree() || !st->decode(id, tr, s))
            return std::nullopt;
        const uint32_t n = st->tree->nodeOf(tr, s);
        if (n == OperatorNode::kNone || st->operatorRowOfNode[n] == kNone)
            return std::nullopt;
        return st->operatorRowOfNode[n];
    };
    return t;
}

// The slices of one or more kinds, in track then slice order.
std::vector<std::pair<uint32_t, uint32_t>> slicesOfKind(const Session& s, std::initializer_list<EventKind> kinds) {
    std::vector<std::pair<uint32_t, uint32_t>> out;
    for (uint32_t t = 0; t < s.tracks().size(); ++t) {
        const Track& track = s.tracks()[t];
        for (uint32_t i = 0; i < track.sliceCount(); ++i)
            if (std::find(kinds.begin(), kinds.end(), s.kindOf(track, i)) != kinds.end())
                out.emplace_back(t, i);
    }
    return out;
}

QueryTable memcpyTable(State* st) {
    QueryTable t{"memcpy", "GPU copies and memsets", {}, {}, 0, {}, {}};
    auto at = [st](size_t r) { return st->memcpys[r]; };
    addSliceColumns(t.columns, st, at, false);
    t.columns.push_back(col("kind", Type::Text, "memcpy or memset", [st, at](size_t r, SqlCell& v) {
        const auto [tr, s] = at(r);
        v.text(eventKindName(st->s().kindOf(st->track(tr), s)));
    }));
    auto bytesOf = [st, at](size_t r) -> int64_t {
        const auto [tr, s] = at(r);
        const Track& k = st->track(tr);
        return k.bytes.empty() ? -1 : k.bytes[s];
    };
    t.columns.push_back(col("bytes", Type::Integer, "bytes moved or set; NULL when the trace does not say",
                            [bytesOf](size_t r, SqlCell& v) { v.integerOrNull(bytesOf(r), bytesOf(r) >= 0); }));
    t.columns.push_back(col("gbps", Type::Real, "bytes / dur (GB/s)", [st, at, bytesOf](size_t r, SqlCell& v) {
        const auto [tr, s] = at(r);
        const int64_t b = bytesOf(r), d = st->track(tr).dur[s];
        b >= 0 && d > 0 ? v.real(double(b) / double(d)) : v.null();
    }));
    t.columns.push_back(col("device", Type::Integer, "GPU index", [st, at](size_t r, SqlCell& v) {
        const int d = st->s().processes()[st->track(at(r).first).process].deviceId;
        v.integerOrNull(d, d >= 0);
    }));
    t.columns.push_back(col("stream", Type::Integer, "stream id", [st, at](size_t r, SqlCell& v) {
        const IdValue& id = st->track(at(r).first).tid;
        v.integerOrNull(id.number, !id.isString);
    }));
    t.columns.push_back(col("op_id", Type::Integer, "operators.id of the launching operator; NULL without one",
                            [st, at](size_t r, SqlCell& v) {
                                const auto [tr, s] = at(r);
                                const uint32_t n = st->launchingOperator(st->sliceId(tr, s));
                                n == kNone ? v.null() : v.integer(st->operatorSliceId(n));
                            }));
    t.rowCount = [st] {
        if (st->memcpys.empty())
            st->memcpys = slicesOfKind(st->s(), {EventKind::Memcpy, EventKind::Memset});
        return st->memcpys.size();
    };
    return t;
}

QueryTable pythonFramesTable(State* st) {
    QueryTable t{"python_frames", "Python function slices (with_stack traces, captures' Python stacks)", {}, {}, 0, {}, {}};
    auto at = [st](size_t r) { return st->pythonFrames[r]; };
    addSliceColumns(t.columns, st, at, true);
    auto frame = [st, at](size_t r) {
        const auto [tr, s] = at(r);
        return st->s().frameForName(st->track(tr).names[s]);
    };
    t.columns.push_back(col("file", Type::Text, "source file", [st, frame](size_t r, SqlCell& v) {
        const SourceFrame* f = frame(r);
        f ? v.text(st->s().str(f->file)) : v.null();
    }));
    t.columns.push_back(col("line", Type::Integer, "line number", [frame](size_t r, SqlCell& v) {
        const SourceFrame* f = frame(r);
        f ? v.integer(f->line) : v.null();
    }));
    t.columns.push_back(col("function", Type::Text, "function name", [st, frame](size_t r, SqlCell& v) {
        const SourceFrame* f = frame(r);
        f ? v.text(st->s().str(f->function)) : v.null();
    }));
    t.rowCount = [st] {
        if (st->pythonFrames.empty())
            st->pythonFrames = slicesOfKind(st->s(), {EventKind::PythonFunction});
        return st->pythonFrames.size();
    };
    return t;
}

QueryTable tracksTable(State* st) {
    QueryTable t{"tracks", "timeline rows: host threads, GPU streams, async groups", {}, {}, 0, {}, {}};
    auto tr = [st](size_t r) -> const Track& { return st->track(uint32_t(r)); };
    t.columns.push_back(col("track_id", Type::Integer, "track id (kernels.track_id, slices.track_id, ...)", [](size_t r, SqlCell& v) { v.integer(int64_t(r)); }));
    t.columns.push_back(col("name", Type::Text, "thread or stream name", [st, tr](size_t r, SqlCell& v) { v.text(st->s().str(tr(r).name)); }));
    t.columns.push_back(col("label", Type::Text, "the timeline's label", [st, tr](size_t r, SqlCell& v) { v.textCopy(st->s().trackLabel(tr(r))); }));
    t.columns.push_back(col("kind", Type::Text, "thread, gpu_stream, async, process_instants, global_instants",
                            [tr](size_t r, SqlCell& v) { v.text(trackKindName(tr(r).kind)); }));
    t.columns.push_back(col("process_id", Type::Integer, "processes.process_id", [tr](size_t r, SqlCell& v) { v.integer(tr(r).process); }));
    t.columns.push_back(col("tid", Type::Text, "thread id or stream id as the trace gives it", [st, tr](size_t r, SqlCell& v) {
        v.textCopy(idText(st->s(), tr(r).tid));
    }));
    t.columns.push_back(col("gpu", Type::Integer, "1 for GPU streams", [tr](size_t r, SqlCell& v) { v.integer(tr(r).gpu ? 1 : 0); }));
    t.columns.push_back(col("slice_count", Type::Integer, "slices on it", [tr](size_t r, SqlCell& v) { v.integer(int64_t(tr(r).sliceCount())); }));
    t.rowCount = [st] { return st->s().tracks().size(); };
    t.findKey = rowIndexKey(t.rowCount);
    return t;
}

QueryTable processesTable(State* st) {
    QueryTable t{"processes", "host processes and GPU devices", {}, {}, 0, {}, {}};
    auto p = [st](size_t r) -> const ProcessInfo& { return st->s().processes()[r]; };
    t.columns.push_back(col("process_id", Type::Integer, "process id in this session (tracks.process_id)", [](size_t r, SqlCell& v) { v.integer(int64_t(r)); }));
    t.columns.push_back(col("pid", Type::Text, "pid as the trace gives it", [st, p](size_t r, SqlCell& v) { v.textCopy(idText(st->s(), p(r).pid)); }));
    t.columns.push_back(col("name", Type::Text, "process name", [st, p](size_t r, SqlCell& v) { v.text(st->s().str(p(r).name)); }));
    t.columns.push_back(col("label", Type::Text, "the timeline's label", [st, p](size_t r, SqlCell& v) { v.textCopy(st->s().processLabel(p(r))); }));
    t.columns.push_back(col("device_id", Type::Integer, "GPU index for a device; NULL for a host process", [p](size_t r, SqlCell& v) {
        v.integerOrNull(p(r).deviceId, p(r).deviceId >= 0);
    }));
    t.rowCount = [st] { return st->s().processes().size(); };
    t.findKey = rowIndexKey(t.rowCount);
    return t;
}

QueryTable countersTable(State* st) {
    QueryTable t{"counters", "counter samples (GPU metrics, memory, host samples), one row per sample", {}, {}, -1, {}, {}};
    auto at = [st](size_t r) {
        const auto it = std::upper_bound(st->counterBase.begin(), st->counterBase.end(), uint64_t(r));
        const size_t series = size_t(it - st->counterBase.begin() - 1);
        return std::make_pair(series, size_t(r - st->counterBase[series]));
    };
    auto series = [st](size_t c) -> const CounterSeries& { return st->s().counters()[c]; };
    t.columns.push_back(col("counter_id", Type::Integer, "which series (one per counter name and series key)",
                            [at](size_t r, SqlCell& v) { v.integer(int64_t(at(r).first)); }));
    t.columns.push_back(col("name", Type::Text, "counter name", [st, at, series](size_t r, SqlCell& v) { v.text(st->s().str(series(at(r).first).name)); }));
    t.columns.push_back(col("series", Type::Text, "the series' arg key", [st, at, series](size_t r, SqlCell& v) {
        v.text(st->s().str(series(at(r).first).series));
    }));
    t.columns.push_back(col("process_id", Type::Integer, "processes.process_id", [at, series](size_t r, SqlCell& v) { v.integer(series(at(r).first).process); }));
    t.columns.push_back(col("ts", Type::Integer, "sample time, ns", [at, series](size_t r, SqlCell& v) {
        const auto [c, i] = at(r);
        v.integer(series(c).ts[i]);
    }));
    t.columns.push_back(col("value", Type::Real, "sample value", [at, series](size_t r, SqlCell& v) {
        const auto [c, i] = at(r);
        v.real(series(c).value[i]);
    }));
    t.rowCount = [st] {
        if (st->counterBase.empty()) {
            st->counterBase.push_back(0);
            for (const CounterSeries& c : st->s().counters())
                st->counterBase.push_back(st->counterBase.back() + c.ts.size());
        }
        return size_t(st->counterBase.back());
    };
    return t;
}

QueryTable flowsTable(State* st) {
    QueryTable t{"flows", "arrows between slices: launches to GPU work (ac2g), forward to backward, graph nodes", {}, {}, -1, {}, {}};
    auto f = [st](size_t r) -> const Flow& { return st->s().flows()[r]; };
    t.columns.push_back(col("category", Type::Text, "ac2g, fwdbwd, graph_node, ...", [st, f](size_t r, SqlCell& v) { v.text(st->s().str(f(r).category)); }));
    t.columns.push_back(col("flow_id", Type::Integer, "the trace's flow id (a correlation id for ac2g)", [f](size_t r, SqlCell& v) {
        v.integer(int64_t(f(r).id));
    }));
    t.columns.push_back(col("from_id", Type::Integer, "slices.id of its start", [st, f](size_t r, SqlCell& v) {
        v.integer(st->sliceId(f(r).fromTrack, f(r).fromSlice));
    }));
    t.columns.push_back(col("to_id", Type::Integer, "slices.id of its end", [st, f](size_t r, SqlCell& v) {
        v.integer(st->sliceId(f(r).toTrack, f(r).toSlice));
    }));
    t.rowCount = [st] { return st->s().flows().size(); };
    return t;
}

QueryTable memoryEventsTable(State* st) {
    QueryTable t{"memory_events", "PyTorch allocator records ([memory] events): allocations (bytes > 0) and frees", {}, {}, -1, {}, {}};
    auto m = [st](size_t r) -> const MemoryEvent& { return st->s().memoryEvents()[r]; };
    auto opt = [](int64_t v, SqlCell& c) { c.integerOrNull(v, v != MemoryEvent::kUnknown); };
    t.columns.push_back(col("ts", Type::Integer, "time, ns", [m](size_t r, SqlCell& v) { v.integer(m(r).ts); }));
    t.columns.push_back(col("addr", Type::Integer, "address", [m, opt](size_t r, SqlCell& v) { opt(m(r).addr, v); }));
    t.columns.push_back(col("bytes", Type::Integer, "allocated (> 0) or freed (< 0)", [m, opt](size_t r, SqlCell& v) { opt(m(r).bytes, v); }));
    t.columns.push_back(col("total_allocated", Type::Integer, "allocator's total allocated after it", [m, opt](size_t r, SqlCell& v) {
        opt(m(r).totalAllocated, v);
    }));
    t.columns.push_back(col("total_reserved", Type::Integer, "allocator's total reserved after it", [m, opt](size_t r, SqlCell& v) {
        opt(m(r).totalReserved, v);
    }));
    t.columns.push_back(col("device_type", Type::Integer, "c10::DeviceType: 0 CPU, 1 CUDA", [m](size_t r, SqlCell& v) {
        v.integerOrNull(m(r).deviceType, m(r).deviceType >= 0);
    }));
    t.columns.push_back(col("device_id", Type::Integer, "device index", [m](size_t r, SqlCell& v) {
        v.integerOrNull(m(r).deviceId, m(r).deviceId >= 0);
    }));
    t.columns.push_back(col("track_id", Type::Integer, "tracks.track_id of the allocating thread", [m](size_t r, SqlCell& v) { v.integer(m(r).track); }));
    t.rowCount = [st] { return st->s().memoryEvents().size(); };
    return t;
}

QueryTable stepsTable(State* st) {
    QueryTable t{"steps", "the steps the Overview analyses (ProfilerStep#N, marked steps, optimizer steps or found iterations)",
                 {}, {}, 0, {}, {}};
    auto s = [st](size_t r) -> const StepRange& { return st->stepRanges().steps[r]; };
    t.columns.push_back(col("step", Type::Integer, "index, from 0 (kernels.step, operators.step)", [](size_t r, SqlCell& v) { v.integer(int64_t(r)); }));
    t.columns.push_back(col("label", Type::Text, "the N of ProfilerStep#N or of a marked step; empty for found steps",
                            [st](size_t r, SqlCell& v) {
                                const auto& labels = st->stepRanges().labels;
                                r < labels.size() ? v.text(labels[r]) : v.text({});
                            }));
    t.columns.push_back(col("ts", Type::Integer, "start, ns", [s](size_t r, SqlCell& v) { v.integer(s(r).start); }));
    t.columns.push_back(col("dur", Type::Integer, "length, ns", [s](size_t r, SqlCell& v) { v.integer(s(r).end - s(r).start); }));
    t.columns.push_back(col("end", Type::Integer, "end, ns", [s](size_t r, SqlCell& v) { v.integer(s(r).end); }));
    t.rowCount = [st] { return st->stepRanges().steps.size(); };
    t.findKey = rowIndexKey(t.rowCount);
    return t;
}

QueryTable gapsTable(State* st) {
    QueryTable t{"gaps", "GPU idle gaps within steps and what the host did meanwhile (warpscope-cli gaps --csv)", {}, {}, -1, {}, {}};
    auto g = [st](size_t r) -> const IdleGap& { return st->idleGaps().gaps[r]; };
    t.columns.push_back(col("step", Type::Integer, "steps.step", [g](size_t r, SqlCell& v) { v.integer(g(r).step); }));
    t.columns.push_back(col("device", Type::Integer, "GPU index", [g](size_t r, SqlCell& v) { v.integer(g(r).device); }));
    t.columns.push_back(col("ts", Type::Integer, "gap start, ns", [g](size_t r, SqlCell& v) { v.integer(g(r).start); }));
    t.columns.push_back(col("dur", Type::Integer, "gap length, ns", [g](size_t r, SqlCell& v) { v.integer(g(r).duration()); }));
    t.columns.push_back(col("end", Type::Integer, "gap end, ns", [g](size_t r, SqlCell& v) { v.integer(g(r).end); }));
    t.columns.push_back(col("category", Type::Text, "its main cause: sync, collective, data, cpu, none", [g](size_t r, SqlCell& v) {
        v.text(gapCategoryId(g(r).category));
    }));
    static const char* const kNs[kGapCategoryCount] = {"sync_ns", "collective_ns", "data_ns", "cpu_ns", "none_ns"};
    for (size_t c = 0; c < kGapCategoryCount; ++c)
        t.columns.push_back(col(kNs[c], Type::Integer, std::string("time of the gap charged to ") + gapCategoryName(GapCategory(c)),
                                [g, c](size_t r, SqlCell& v) { v.integer(g(r).ns[c]); }));
    t.columns.push_back(col("thread_id", Type::Integer, "tracks.track_id of the launching thread", [g](size_t r, SqlCell& v) {
        v.integerOrNull(g(r).thread, g(r).thread != IdleGap::kNone);
    }));
    t.columns.push_back(col("launch_id", Type::Integer, "slices.id of the call that launched the GPU work after it", [st, g](size_t r, SqlCell& v) {
        g(r).launchTrack == IdleGap::kNone ? v.null() : v.integer(st->sliceId(g(r).launchTrack, g(r).launchSlice));
    }));
    t.columns.push_back(col("cause", Type::Text, "the cause as warpscope-cli gaps names it", [st, g](size_t r, SqlCell& v) {
        v.textCopy(st->idleGaps().causeText(g(r)));
    }));
    t.rowCount = [st] { return st->idleGaps().gaps.size(); };
    return t;
}

QueryTable argsTable(State* st) {
    QueryTable t{"args", "a slice's arguments (args of the trace event); needs slice_id = ... (or a join on it)", {}, {}, 0, {}, {}};
    t.columns.push_back(col("slice_id", Type::Integer, "slices.id", {}));
    t.columns.push_back(col("key", Type::Text, "argument name", {}));
    t.columns.push_back(col("value", Type::Text, "its value: strings unquoted, anything else as JSON", {}));
    t.keyedRows = [st](int64_t id) {
        std::vector<std::vector<QueryValue>> rows;
        uint32_t tr = 0, s = 0;
        if (!st->decode(id, tr, s))
            return rows;
        for (auto& [key, value] : st->s().args(st->track(tr), s)) {
            std::vector<QueryValue> row(3);
            row[0] = {QueryValue::Type::Integer, id, 0, {}};
            row[1] = {QueryValue::Type::Text, 0, 0, key};
            row[2] = {QueryValue::Type::Text, 0, 0, value};
            rows.push_back(std::move(row));
        }
        return rows;
    };
    return t;
}

std::vector<QueryView> standardViews() {
    return {
        {"threads", "host threads (tracks of kind thread)",
         "SELECT track_id, process_id, tid, name, label, slice_count FROM tracks WHERE kind = 'thread'"},
        {"kernel_summary", "kernels grouped by name (warpscope-cli kernels --group name)",
         "SELECT kernel, COUNT(*) AS calls, SUM(duration_ns) AS total_ns, AVG(duration_ns) AS mean_ns, "
         "MIN(duration_ns) AS min_ns, MAX(duration_ns) AS max_ns, "
         "100.0 * SUM(duration_ns) / (SELECT SUM(duration_ns) FROM kernels) AS pct_gpu_time "
         "FROM kernels GROUP BY kernel ORDER BY total_ns DESC"},
        {"kernel_summary_per_step", "kernels grouped by step and name",
         "SELECT step, kernel, COUNT(*) AS calls, SUM(duration_ns) AS total_ns, AVG(duration_ns) AS mean_ns, "
         "MAX(duration_ns) AS max_ns FROM kernels WHERE step IS NOT NULL GROUP BY step, kernel ORDER BY step, total_ns DESC"},
        {"operator_summary", "operators grouped by name (warpscope-cli ops --csv)",
         "SELECT name, COUNT(*) AS calls, SUM(dur) AS host_total_ns, SUM(host_self_ns) AS host_self_ns, "
         "SUM(device_ns) AS device_total_ns, SUM(device_self_ns) AS device_self_ns FROM operators "
         "GROUP BY name ORDER BY device_total_ns DESC, host_total_ns DESC"},
        {"operator_summary_per_step", "operators grouped by step and name",
         "SELECT step, name, COUNT(*) AS calls, SUM(dur) AS host_total_ns, SUM(host_self_ns) AS host_self_ns, "
         "SUM(device_ns) AS device_total_ns, SUM(device_self_ns) AS device_self_ns FROM operators "
         "WHERE step IS NOT NULL GROUP BY step, name ORDER BY step, device_total_ns DESC"},
    };
}

} // namespace

QueryTables::QueryTables(std::shared_ptr<const Session> session, std::shared_ptr<SessionAnalyses> analyses)
    : state(std::make_unique<State>()) {
    State* st = state.get();
    st->session = std::move(session);
    st->analyses = analyses ? std::move(analyses) : std::make_shared<SessionAnalyses>(st->session);
    st->cancel = &cancel;
    st->trackBase.push_back(0);
    for (const Track& t : st->s().tracks())
        st->trackBase.push_back(st->trackBase.back() + t.sliceCount());
    tables = {slicesTable(st),      kernelsTable(st),   operatorsTable(st), memcpyTable(st),
              pythonFramesTable(st), countersTable(st), flowsTable(st),     memoryEventsTable(st),
              stepsTable(st),       gapsTable(st),      tracksTable(st),    processesTable(st),
              argsTable(st)};
    views = standardViews();
}

QueryTables::~QueryTables() = default;

void QueryTables::beginStatement() {
    cancel = false;
    state->dropIncomplete();
}

} // namespace ws
