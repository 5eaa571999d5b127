#include "analysis/kernel_table.h"
#include "model/prefault.h"
#include "model/saturating.h"

#include "analysis/ascii_lower.h"
#include "analysis/cuda_occupancy.h"
#include "analysis/graph_replays.h"
#include "analysis/key_order.h"
#include "analysis/launch_flows.h"
#include "analysis/op_cost.h"
#include "model/arg_columns.h"
#include "model/session.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <map>
#include <tuple>
#include <utility>

namespace ws {

namespace {

constexpr int64_t kMissing = kMissingSortKey;

const char* const kColumnNames[kKernelColumnCount] = {
    "kernel",    "operator", "layer",  "direction", "input_shapes", "input_types", "duration_ns",
    "start_ns",  "device",   "stream", "grid",      "block",
    "registers_per_thread", "shared_memory_bytes", "blocks_per_sm", "est_achieved_occupancy_pct",
    "tensor_cores", "flops", "bytes", "achieved_tflops", "achieved_gbps", "graph", "graph_node",
    "flops_per_byte", "bound",
};

bool startsWith(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

// Order-preserving map of a float to an integer; NaN is absent.
int64_t floatKey(float v) {
    if (std::isnan(v))
        return kMissing;
    const int32_t bits = std::bit_cast<int32_t>(v);
    return bits >= 0 ? bits : (bits ^ 0x7fffffff);
}

int64_t dimKey(const std::array<int32_t, 3>& d) {
    if (d[0] == 0 && d[1] == 0 && d[2] == 0)
        return kMissing;
    return int64_t(d[0]) * d[1] * d[2];
}

bool parseInt(std::string_view text, int64_t& out) {
    while (!text.empty() && text.front() == ' ')
        text.remove_prefix(1);
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    return ec == std::errc() && ptr == text.data() + text.size();
}


std::string floatText(float v) {
    if (std::isnan(v))
        return {};
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", static_cast<double>(v));
    return buf;
}

// An estimated count as a whole number ("1048576"); empty when unknown.
std::string countText(float v) {
    if (std::isnan(v))
        return {};
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f", static_cast<double>(v));
    return buf;
}

// Launching operator, layer and direction from the stack around the runtime call.
// `finders`: one per track; the kernels come in time order, so each thread's launches mostly ascend.
// A replayed graph node is attributed where it was captured (LaunchFlows::Follow::Attribution).
void attribute(const Session& session, const LaunchFlows& launches, KernelRow& row, std::vector<uint32_t>& stack,
               std::vector<EnclosingSliceFinder>& finders) {
    const uint32_t f = launches.flowOf(row.track, row.slice);
    if (f == LaunchFlows::kNone)
        return;
    const Flow& flow = session.flows()[f];
    if (flow.fromTrack >= session.tracks().size())
        return;
    const Track& launchTrack = session.tracks()[flow.fromTrack];
    finders[flow.fromTrack].ancestors(launchTrack, flow.fromSlice, stack);
    bool backward = false;
    bool insideOp = false;
    for (auto it = stack.rbegin(); it != stack.rend(); ++it) {
        const EventKind kind = session.kindOf(launchTrack, *it);
        const StringId name = launchTrack.names[*it];
        if (kind == EventKind::CpuOp) {
            insideOp = true;
            if (row.op == kEmptyString) {
                row.op = name;
                row.opTrack = flow.fromTrack;
                row.opSlice = *it;
            }
        } else if (kind == EventKind::UserAnnotation && row.layer == kEmptyString) {
            row.layer = name;
        }
        const std::string_view text = session.str(name);
        if (startsWith(text, "autograd::engine::evaluate_function") || text.find("Backward") != text.npos)
            backward = true;
    }
    row.direction = backward ? KernelDirection::Backward : (insideOp ? KernelDirection::Forward : KernelDirection::Unknown);
}

// Grid, block, registers and shared memory of every kernel (from the argument columns, or one pass
// over the arguments); the est. achieved occupancy from them where the trace has none (captures,
// Nsight Systems).
void readLaunchArgs(const Session& session, std::vector<KernelRow>& rows, const std::atomic<bool>* cancel,
                    bool argColumns) {
    std::vector<KernelSliceRef> slices(rows.size());
    for (size_t i = 0; i < rows.size(); ++i)
        slices[i] = {rows[i].track, rows[i].slice};
    const std::map<int, CudaSmLimits> limits = cudaSmLimitsByDevice(session);
    forEachKernelLaunch(session, slices, [&](size_t i, const KernelLaunchArgs& a) {
        KernelRow& row = rows[i];
        row.grid = a.grid;
        row.block = a.block;
        row.registers = a.registers;
        row.sharedMemory = a.sharedMemory;
        if (std::isnan(row.occupancy))
            if (const auto sm = limits.find(row.device); sm != limits.end())
                row.occupancy = occupancyFromLaunchArgs(sm->second, a.grid, a.block, a.registers, a.sharedMemory);
    }, cancel, argColumns);
}

// The most common number format of the kernels by time: the element size of a capture's operators
// whose kernels' names say none (a capture has shapes but no dtypes).
NumberFormat commonFormat(const std::vector<KernelRow>& rows) {
    std::array<int64_t, 5> time{};
    for (const KernelRow& r : rows)
        if (r.format != NumberFormat::Unknown)
            time[static_cast<size_t>(r.format)] += r.dur;
    const auto best = std::max_element(time.begin(), time.end());
    return *best > 0 ? static_cast<NumberFormat>(best - time.begin()) : NumberFormat::Unknown;
}

// Input shapes, dtypes and the cost estimate of every launching operator, in one pass; the cost
// goes to the operator's longest kernel (see KernelRow).
void readOperatorInputs(const Session& session, std::vector<KernelRow>& rows, const std::atomic<bool>* cancel,
                        bool argColumns, std::vector<KernelTable::InputTexts>& inputs) {
    struct Op {
        uint32_t track, slice;
        uint32_t longestRow;
        uint32_t inputs = KernelRow::kNoInputs;
        OpCost cost;
    };
    std::vector<Op> ops;
    ops.reserve(rows.size()); // at most one a row: never copied as it grows (untouched room is not resident)
    std::vector<uint32_t> rowOp(rows.size(), KernelRow::kNoInputs);
    // (track, slice) -> index into ops: an array over the slices of each operator's track. The rows
    // come in time order, so they visit a track's operators nearly in slice order (a row of a track
    // is in time order), where a hash map of the 10 GB trace's 2.7 M operators missed the cache on
    // nearly every one (0.25 s of its 0.84 s table). 4 bytes a slice of those tracks, for the build.
    std::vector<std::vector<uint32_t>> opOfSlice(session.tracks().size());
    for (uint32_t r = 0; r < rows.size(); ++r) {
        const KernelRow& row = rows[r];
        if (row.opTrack >= opOfSlice.size())
            continue;
        const size_t slices = session.tracks()[row.opTrack].sliceCount();
        if (row.opSlice >= slices)
            continue;
        std::vector<uint32_t>& index = opOfSlice[row.opTrack];
        if (index.empty())
            index.assign(slices, KernelRow::kNoInputs);
        uint32_t& op = index[row.opSlice];
        if (op == KernelRow::kNoInputs) {
            op = static_cast<uint32_t>(ops.size());
            ops.push_back({row.opTrack, row.opSlice, r, KernelRow::kNoInputs, OpCost{}});
        } else if (row.dur > rows[ops[op].longestRow].dur) {
            ops[op].longestRow = r;
        }
        rowOp[r] = op;
    }
    opOfSlice = {};
    std::vector<uint64_t> refs(ops.size());
    for (size_t i = 0; i < ops.size(); ++i) {
        const Track& track = session.tracks()[ops[i].track];
        refs[i] = ops[i].slice < track.argRef.size() ? track.argRef[ops[i].slice] : Track::kNoArgs;
    }
    // Bytes per element where the operator's dtypes are not recorded (captures): the element type its
    // longest kernel's name says, else the number format it says (a library GEMM's f32 or bf16 tag),
    // else the run's most common number format.
    const int commonBytes = numberFormatBytes(commonFormat(rows));
    std::unordered_map<StringId, int> nameBytes;
    auto fallbackBytes = [&](const Op& op) {
        const KernelRow& longest = rows[op.longestRow];
        auto [it, fresh] = nameBytes.try_emplace(longest.name, 0);
        if (fresh) {
            it->second = kernelNameElementBytes(session.str(longest.name));
            if (it->second == 0)
                it->second = numberFormatBytes(longest.format);
        }
        return it->second > 0 ? it->second : commonBytes;
    };
    std::unordered_map<std::string, uint32_t> inputIndex;
    std::string key;
    auto onValues = [&](size_t i, const std::vector<std::string_view>& v) {
        if (v[0].empty() && v[1].empty())
            return;
        key.assign(v[0]);
        key.push_back('\0');
        key.append(v[1]);
        auto [it, fresh] = inputIndex.try_emplace(key, static_cast<uint32_t>(inputs.size()));
        if (fresh)
            inputs.push_back({std::string(v[0]), std::string(v[1])});
        Op& op = ops[i];
        op.inputs = it->second;
        const StringId name = session.tracks()[op.track].names[op.slice];
        op.cost = estimateOpCost(session.str(name), parseOpInputs(v[0], v[1], v[2]), fallbackBytes(op));
    };
    if (argColumns && session.argColumns()) {
        // From the operators' argument columns; an (operator name, arguments) pair is worked out once.
        struct Known {
            uint32_t inputs;
            OpCost cost;
        };
        std::array<std::unordered_map<uint64_t, Known>, 9> known; // per fallback size: (name, opArgs) -> inputs, cost
        std::vector<std::string_view> v(3);
        std::array<std::string, 3> bufs;
        for (size_t i = 0; i < ops.size(); ++i) {
            if (cancel && (i & 4095) == 0 && cancel->load(std::memory_order_relaxed))
                break; // as the source pass stops: a closing view
            Op& op = ops[i];
            const Track& track = session.tracks()[op.track];
            const StringId args = op.slice < track.opArgs.size() ? track.opArgs[op.slice] : kEmptyString;
            if (args == kEmptyString)
                continue;
            const uint64_t pair = uint64_t(track.names[op.slice]) << 32 | args;
            auto& knownHere = known[static_cast<size_t>(fallbackBytes(op))];
            if (const auto it = knownHere.find(pair); it != knownHere.end()) {
                op.inputs = it->second.inputs;
                op.cost = it->second.cost;
                continue;
            }
            const auto fields = splitArgColumn<kOpArgKeys.size()>(session.str(args));
            for (size_t k = 0; k < 3; ++k)
                v[k] = argColumnValue(fields[k], bufs[k]);
            onValues(i, v);
            knownHere.emplace(pair, Known{op.inputs, op.cost});
        }
    } else {
        session.forEachArgValues(refs, {"Input Dims", "Input type", "Concrete Inputs"}, onValues, cancel);
    }
    for (uint32_t r = 0; r < rows.size(); ++r) {
        if (rowOp[r] == KernelRow::kNoInputs)
            continue;
        const Op& op = ops[rowOp[r]];
        rows[r].inputs = op.inputs;
        if (op.cost.known && op.longestRow == r) {
            rows[r].flops = static_cast<float>(op.cost.flops);
            rows[r].bytes = static_cast<float>(op.cost.bytes);
        }
    }
}

// Each row's bound verdict against the peaks of its device, where the table has them.
void classifyBounds(const Session& session, std::vector<KernelRow>& rows) {
    std::map<int, GpuPeaks> peaks;
    for (const DeviceInfo& d : session.devices())
        if (const auto p = gpuPeaksFor(d.name))
            peaks.emplace(d.id, *p);
    if (peaks.empty())
        return;
    for (KernelRow& r : rows)
        if (const auto p = peaks.find(r.device); p != peaks.end())
            r.bound = classifyBound(p->second, r.flops, r.bytes, r.dur, r.format, r.tensorCores);
}

// Achieved rate in units per ns (FLOP/ns = GFLOP/s); NaN when unknown or the kernel has no length.
float ratePerNs(float amount, int64_t dur) {
    return dur > 0 ? amount / static_cast<float>(dur) : std::numeric_limits<float>::quiet_NaN();
}

// FLOP per byte; NaN when either is unknown or nothing is moved.
float intensityOf(const KernelRow& r) {
    return r.bytes > 0 ? r.flops / r.bytes : std::numeric_limits<float>::quiet_NaN();
}

// Byte-order ranks of a column of texts.
std::vector<uint32_t> textRanks(const std::vector<KernelTable::InputTexts>& inputs, bool types) {
    std::vector<uint32_t> order(inputs.size());
    for (uint32_t i = 0; i < order.size(); ++i)
        order[i] = i;
    auto text = [&](uint32_t i) -> const std::string& { return types ? inputs[i].types : inputs[i].shapes; };
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return text(a) < text(b); });
    std::vector<uint32_t> rank(inputs.size());
    for (uint32_t r = 0; r < order.size(); ++r)
        rank[order[r]] = r;
    return rank;
}

} // namespace

std::string dim3Text(const std::array<int32_t, 3>& d) {
    if (dimKey(d) == kMissing)
        return {};
    std::string out = "[";
    for (size_t i = 0; i < 3; ++i) {
        if (i)
            out += ", ";
        out += std::to_string(d[i]);
    }
    out += ']';
    return out;
}

const char* kernelColumnName(KernelColumn column) { return kColumnNames[static_cast<size_t>(column)]; }

bool kernelUsesTensorCores(std::string_view name) {
    // Names of the Tensor Core kernels of cuBLAS, cuDNN and CUTLASS carry the MMA instruction
    // shape (884, 1688, 16816, 16832), the instruction (hmma, imma, wgmma) or the library's
    // Tensor Core tag (tensorop, xmma; nvjet is cuBLASLt's Hopper/Blackwell GEMM family). This
    // is a heuristic in the spirit of torch-tb-profiler's allow-list, not a hardware counter:
    // custom kernels using mma.sync without such a name are missed.
    // On AMD GPUs the matrix cores (MFMA/WMMA) play that part: Tensile and hipBLASLt name the
    // MFMA instruction shape (Cijk_..._MI16x16x1_...), Composable Kernel its XDL pipelines.
    static const char* const kMarkers[] = {"hmma", "imma", "wgmma", "tensorop", "xmma", "nvjet",
                                           "884", "1688", "16816", "16832", "mfma", "wmma", "xdlops", "_xdl_"};
    const std::string lower = asciiLower(name);
    for (const char* m : kMarkers)
        if (lower.find(m) != std::string::npos)
            return true;
    for (size_t at = lower.find("_mi"); at != std::string::npos; at = lower.find("_mi", at + 3)) {
        size_t i = at + 3, digits = 0;
        while (i < lower.size() && lower[i] >= '0' && lower[i] <= '9')
            ++i, ++digits;
        if (digits > 0 && i < lower.size() && lower[i] == 'x')
            return true; // _MI32x32x8: an MFMA tile
    }
    return false;
}

bool parseDim3(std::string_view text, std::array<int32_t, 3>& out) {
    std::array<int32_t, 3> d{1, 1, 1};
    size_t count = 0;
    size_t i = 0;
    while (i < text.size() && (text[i] == ' ' || text[i] == '['))
        ++i;
    while (i < text.size() && text[i] != ']') {
        if (count == 3)
            return false;
        int32_t v = 0;
        const auto [ptr, ec] = std::from_chars(text.data() + i, text.data() + text.size(), v);
        if (ec != std::errc())
            return false;
        d[count++] = v;
        i = static_cast<size_t>(ptr - text.data());
        while (i < text.size() && (text[i] == ' ' || text[i] == ','))
            ++i;
    }
    if (count == 0)
        return false;
    out = d;
    return true;
}

namespace {

KernelLaunchArgs parseLaunchArgs(const std::vector<std::string_view>& v) {
    KernelLaunchArgs a;
    int64_t n = 0;
    if (!v[0].empty())
        parseDim3(v[0], a.grid);
    if (!v[1].empty())
        parseDim3(v[1], a.block);
    if (parseInt(v[2], n))
        a.registers = static_cast<int32_t>(n);
    if (parseInt(v[3], n))
        a.sharedMemory = n;
    return a;
}

} // namespace

void forEachKernelLaunch(const Session& session, const std::vector<uint64_t>& argRefs, const KernelLaunchFn& fn,
                         const std::atomic<bool>* cancel) {
    session.forEachArgValues(argRefs, {"grid", "block", "registers per thread", "shared memory"},
                             [&](size_t i, const std::vector<std::string_view>& v) { fn(i, parseLaunchArgs(v)); },
                             cancel);
}

void forEachKernelLaunch(const Session& session, const std::vector<KernelSliceRef>& slices, const KernelLaunchFn& fn,
                         const std::atomic<bool>* cancel, bool argColumns) {
    const std::vector<Track>& tracks = session.tracks();
    if (!argColumns || !session.argColumns()) {
        std::vector<uint64_t> refs(slices.size());
        for (size_t i = 0; i < slices.size(); ++i) {
            const Track& track = tracks[slices[i].track];
            refs[i] = slices[i].slice < track.argRef.size() ? track.argRef[slices[i].slice] : Track::kNoArgs;
        }
        forEachKernelLaunch(session, refs, fn, cancel);
        return;
    }
    // The argument columns: each distinct launch text is parsed once. A kernel without one gets no
    // call, as forEachArgValues makes none for an event without arguments... unless it has
    // arguments but none of these keys: then it is called with the absent values, as there.
    std::vector<uint32_t> parsedAt(session.strings().size(), Track::kNoId); // by StringId: a direct index
    std::vector<KernelLaunchArgs> parsed;
    std::vector<std::string_view> v(kLaunchArgKeys.size());
    std::array<std::string, kLaunchArgKeys.size()> bufs;
    const KernelLaunchArgs absent;
    for (size_t i = 0; i < slices.size(); ++i) {
        if (cancel && (i & 4095) == 0 && cancel->load(std::memory_order_relaxed))
            return; // as the source pass stops: a closing view
        const Track& track = tracks[slices[i].track];
        const uint32_t slice = slices[i].slice;
        const StringId id = slice < track.launchArgs.size() ? track.launchArgs[slice] : kEmptyString;
        if (id == kEmptyString) {
            if (slice < track.argRef.size() && track.argRef[slice] != Track::kNoArgs)
                fn(i, absent);
            continue;
        }
        if (id >= parsedAt.size())
            continue; // not a string of this session (a damaged stored column is refused before this)
        if (parsedAt[id] == Track::kNoId) {
            const auto fields = splitArgColumn<kLaunchArgKeys.size()>(session.str(id));
            for (size_t k = 0; k < v.size(); ++k)
                v[k] = argColumnValue(fields[k], bufs[k]);
            parsedAt[id] = static_cast<uint32_t>(parsed.size());
            parsed.push_back(parseLaunchArgs(v));
        }
        fn(i, parsed[parsedAt[id]]);
    }
}

void forEachComputedOccupancy(const Session& session, const std::vector<KernelSliceRef>& slices,
                              const std::vector<int>& devices, const std::function<void(size_t, float)>& fn) {
    const std::map<int, CudaSmLimits> limits = cudaSmLimitsByDevice(session);
    std::vector<KernelSliceRef> known;
    std::vector<std::pair<size_t, const CudaSmLimits*>> of; // index in slices, its device's limits
    for (size_t i = 0; i < slices.size(); ++i)
        if (const auto sm = limits.find(devices[i]); sm != limits.end()) {
            known.push_back(slices[i]);
            of.emplace_back(i, &sm->second);
        }
    if (known.empty())
        return;
    forEachKernelLaunch(session, known, [&](size_t k, const KernelLaunchArgs& a) {
        const float occupancy = occupancyFromLaunchArgs(*of[k].second, a.grid, a.block, a.registers, a.sharedMemory);
        if (occupancy >= 0)
            fn(of[k].first, occupancy);
    });
}

KernelTable KernelTable::build(const Session& session, const KernelTableOptions& options) {
    KernelTable table;
    const std::vector<Track>& tracks = session.tracks();
    // The kernels in (start, track, slice) order as 16-byte keys first, then the 128-byte rows
    // built once in that order into exactly the room they need (sorting or growing the rows
    // themselves moved and touched several times their size).
    struct Key {
        int64_t start;
        uint32_t track, slice;
    };
    std::vector<Key> keys;
    {
        size_t kernels = 0;
        for (const Track& track : tracks)
            if (track.gpu)
                for (uint32_t i = 0; i < track.sliceCount(); ++i)
                    kernels += session.kindOf(track, i) == EventKind::Kernel;
        keys.reserve(kernels);
    }
    for (uint32_t t = 0; t < tracks.size(); ++t) {
        const Track& track = tracks[t];
        if (!track.gpu)
            continue;
        for (uint32_t i = 0; i < track.sliceCount(); ++i)
            if (session.kindOf(track, i) == EventKind::Kernel)
                keys.push_back({track.start[i], t, i});
    }
    std::sort(keys.begin(), keys.end(), [](const Key& a, const Key& b) {
        return std::tie(a.start, a.track, a.slice) < std::tie(b.start, b.track, b.slice);
    });
    // 345 MB of rows at 10 GB: their fresh pages are faulted in on every core first (prefault.h).
    table.m_rows.reserve(keys.size());
    prefaultOnThreads(table.m_rows.data(), keys.size() * sizeof(KernelRow));
    table.m_rows.resize(keys.size());
    for (size_t k = 0; k < keys.size(); ++k) {
        const Track& track = tracks[keys[k].track];
        const uint32_t i = keys[k].slice;
        const int device = session.processes()[track.process].deviceId;
        KernelRow& row = table.m_rows[k];
        row.track = keys[k].track;
        row.slice = i;
        row.start = track.start[i];
        row.dur = track.dur[i];
        row.name = track.names[i];
        row.device = device >= 0 ? device : -1;
        row.stream = track.tid.isString ? -1 : track.tid.number;
        if (!track.blocksPerSm.empty())
            row.blocksPerSm = track.blocksPerSm[i];
        if (!track.occupancy.empty())
            row.occupancy = track.occupancy[i];
    }
    keys = std::vector<Key>();

    // Kineto writes negative occupancy when CUDA's calculator failed (FORMATS.md 2.10): absent.
    std::unordered_map<StringId, uint32_t> nameIndex;
    struct NameTraits {
        bool tensorCores;
        NumberFormat format;
    };
    std::vector<NameTraits> nameTraits; // per nameIndex
    const LaunchFlows launches = LaunchFlows::build(session, LaunchFlows::Follow::Attribution);
    std::vector<uint32_t> stack;
    std::vector<EnclosingSliceFinder> finders(tracks.size());
    table.m_argsLoaded = options.readArgs;
    for (KernelRow& row : table.m_rows) {
        addSaturating(table.m_totalNs, row.dur);
        if (row.occupancy < 0)
            row.occupancy = std::numeric_limits<float>::quiet_NaN();
        if (row.blocksPerSm < 0)
            row.blocksPerSm = std::numeric_limits<float>::quiet_NaN();
        auto [it, fresh] = nameIndex.try_emplace(row.name, static_cast<uint32_t>(table.m_names.size()));
        if (fresh) {
            table.m_names.push_back(row.name);
            table.m_lowerNames.push_back(asciiLower(session.str(row.name)));
        }
        row.nameIndex = it->second;
        if (fresh) {
            const std::string_view name = session.str(row.name);
            nameTraits.push_back({kernelUsesTensorCores(name), kernelNameFormat(name)});
        }
        row.tensorCores = nameTraits[row.nameIndex].tensorCores;
        row.format = nameTraits[row.nameIndex].format;
        attribute(session, launches, row, stack, finders);
    }
    if (const GraphReplays graphs = GraphReplays::build(session, {.describe = false, .cancel = options.cancel});
        !graphs.graphs().empty())
        for (KernelRow& row : table.m_rows)
            if (const auto node = graphs.nodeOf(row.track, row.slice)) {
                row.graph = graphs.graphs()[node->first].number;
                row.graphNode = node->second + 1;
            }
    if (table.m_argsLoaded) {
        readLaunchArgs(session, table.m_rows, options.cancel, options.argColumns);
        readOperatorInputs(session, table.m_rows, options.cancel, options.argColumns, table.m_inputs);
        table.m_shapeRank = textRanks(table.m_inputs, false);
        table.m_typeRank = textRanks(table.m_inputs, true);
    }
    classifyBounds(session, table.m_rows);

    std::vector<StringId> texts;
    for (const KernelRow& row : table.m_rows) {
        for (StringId id : {row.name, row.op, row.layer})
            if (id != kEmptyString && table.m_textRank.try_emplace(id, 0).second)
                texts.push_back(id);
    }
    std::sort(texts.begin(), texts.end(), [&](StringId a, StringId b) { return session.str(a) < session.str(b); });
    for (uint32_t r = 0; r < texts.size(); ++r)
        table.m_textRank[texts[r]] = r;
    return table;
}

std::vector<uint32_t> KernelTable::sortedOrder(KernelColumn column, bool descending) const {
    const size_t n = m_rows.size();
    auto textKey = [&](StringId id) -> int64_t {
        return id == kEmptyString ? kMissing : int64_t(m_textRank.find(id)->second);
    };
    auto keyOf = [&](const KernelRow& r) -> int64_t {
        switch (column) {
        case KernelColumn::Kernel: return textKey(r.name);
        case KernelColumn::Operator: return textKey(r.op);
        case KernelColumn::Layer: return textKey(r.layer);
        case KernelColumn::Direction:
            return r.direction == KernelDirection::Unknown ? kMissing : int64_t(r.direction);
        case KernelColumn::InputShapes:
            return r.inputs == KernelRow::kNoInputs ? kMissing : int64_t(m_shapeRank[r.inputs]);
        case KernelColumn::InputTypes:
            return r.inputs == KernelRow::kNoInputs ? kMissing : int64_t(m_typeRank[r.inputs]);
        case KernelColumn::Duration: return r.dur;
        case KernelColumn::Start: return r.start;
        case KernelColumn::Device: return r.device < 0 ? kMissing : r.device;
        case KernelColumn::Stream: return r.stream < 0 ? kMissing : r.stream;
        case KernelColumn::Grid: return dimKey(r.grid);
        case KernelColumn::Block: return dimKey(r.block);
        case KernelColumn::Registers: return r.registers < 0 ? kMissing : r.registers;
        case KernelColumn::SharedMemory: return r.sharedMemory < 0 ? kMissing : r.sharedMemory;
        case KernelColumn::BlocksPerSm: return floatKey(r.blocksPerSm);
        case KernelColumn::Occupancy: return floatKey(r.occupancy);
        case KernelColumn::TensorCores: return r.tensorCores ? 1 : 0;
        case KernelColumn::Flops: return floatKey(r.flops);
        case KernelColumn::Bytes: return floatKey(r.bytes);
        case KernelColumn::Tflops: return floatKey(ratePerNs(r.flops, r.dur));
        case KernelColumn::GBps: return floatKey(ratePerNs(r.bytes, r.dur));
        case KernelColumn::Graph: return r.graph == 0 ? kMissing : int64_t(r.graph);
        case KernelColumn::GraphNode: return r.graph == 0 ? kMissing : int64_t(r.graph) << 32 | r.graphNode;
        case KernelColumn::Intensity: return floatKey(intensityOf(r));
        case KernelColumn::Bound: return r.bound == Bound::Unknown ? kMissing : int64_t(r.bound);
        }
        return kMissing;
    };
    std::vector<int64_t> keys(n);
    for (size_t i = 0; i < n; ++i)
        keys[i] = keyOf(m_rows[i]);
    return orderByKeys(std::move(keys), descending);
}

std::vector<uint32_t> KernelTable::filterByName(const std::vector<uint32_t>& order, std::string_view needle) const {
    if (needle.empty())
        return order;
    const std::string lower = asciiLower(needle);
    std::vector<char> match(m_names.size());
    for (size_t i = 0; i < m_names.size(); ++i)
        match[i] = m_lowerNames[i].find(lower) != std::string::npos;
    std::vector<uint32_t> out;
    for (uint32_t r : order)
        if (match[m_rows[r].nameIndex])
            out.push_back(r);
    return out;
}

std::string KernelTable::text(const Session& session, size_t index, KernelColumn column) const {
    const KernelRow& r = m_rows[index];
    auto optInt = [](int64_t v) { return v < 0 ? std::string() : std::to_string(v); };
    switch (column) {
    case KernelColumn::Kernel: return std::string(session.str(r.name));
    case KernelColumn::Operator: return std::string(session.str(r.op));
    case KernelColumn::Layer: return std::string(session.str(r.layer));
    case KernelColumn::Direction:
        return r.direction == KernelDirection::Backward ? "bwd"
               : r.direction == KernelDirection::Forward ? "fwd"
                                                          : "";
    case KernelColumn::InputShapes: return r.inputs == KernelRow::kNoInputs ? std::string() : m_inputs[r.inputs].shapes;
    case KernelColumn::InputTypes: return r.inputs == KernelRow::kNoInputs ? std::string() : m_inputs[r.inputs].types;
    case KernelColumn::Duration: return std::to_string(r.dur);
    case KernelColumn::Start: return std::to_string(r.start);
    case KernelColumn::Device: return optInt(r.device);
    case KernelColumn::Stream: return optInt(r.stream);
    case KernelColumn::Grid: return dim3Text(r.grid);
    case KernelColumn::Block: return dim3Text(r.block);
    case KernelColumn::Registers: return optInt(r.registers);
    case KernelColumn::SharedMemory: return optInt(r.sharedMemory);
    case KernelColumn::BlocksPerSm: return floatText(r.blocksPerSm);
    case KernelColumn::Occupancy: return floatText(r.occupancy);
    case KernelColumn::TensorCores: return r.tensorCores ? "yes" : "no";
    case KernelColumn::Flops: return countText(r.flops);
    case KernelColumn::Bytes: return countText(r.bytes);
    case KernelColumn::Tflops: return floatText(ratePerNs(r.flops, r.dur) / 1000.0f); // GFLOP/s -> TFLOP/s
    case KernelColumn::GBps: return floatText(ratePerNs(r.bytes, r.dur));           // B/ns = GB/s
    case KernelColumn::Graph: return r.graph == 0 ? std::string() : std::to_string(r.graph);
    case KernelColumn::GraphNode: return r.graph == 0 ? std::string() : std::to_string(r.graphNode);
    case KernelColumn::Intensity: return floatText(intensityOf(r));
    case KernelColumn::Bound: return boundName(r.bound);
    }
    return {};
}

} // namespace ws
