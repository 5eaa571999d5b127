#pragma once

#include "analysis/roofline_bound.h"
#include "model/string_table.h"

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ws {

class Session;

/*
 * KernelColumn: the columns of the per-call kernel table, in display and CSV order; the value is
 * the column index (0 .. kKernelColumnCount-1).
 */
enum class KernelColumn : uint8_t {
    Kernel,
    Operator,
    Layer,
    Direction,
    InputShapes,
    InputTypes,
    Duration,
    Start,
    Device,
    Stream,
    Grid,
    Block,
    Registers,
    SharedMemory,
    BlocksPerSm,
    Occupancy,
    TensorCores,
    Flops,
    Bytes,
    Tflops, // achieved TFLOP/s = Flops / Duration
    GBps,   // achieved GB/s = Bytes / Duration
    Graph,     // the CUDA graph it was replayed from: its number in the Graphs view (graph_replays.h)
    GraphNode, // its node in that graph (1-based, as the Graphs view numbers them)
    Intensity, // arithmetic intensity = Flops / Bytes (FLOP/byte)
    Bound,     // what bounds it on the device's roofline (roofline_bound.h)
};
inline constexpr size_t kKernelColumnCount = 25;

// Stable CSV header name of a column (snake_case, e.g. "duration_ns").
const char* kernelColumnName(KernelColumn column);

enum class KernelDirection : uint8_t { Unknown, Forward, Backward };

/*
 * KernelRow: one kernel call with its attribution. Absent values are kept distinguishable from
 * zero: kNoId / kEmptyString for ids and names, -1 for device, stream, registers and shared
 * memory, grid/block all zero, NaN for blocksPerSm/occupancy/flops/bytes, kNoInputs for inputs.
 * 136 bytes per row.
 *
 * A kernel replayed from a CUDA graph is attributed where its node was captured (graph_node flows,
 * model/graph_flows.h) and carries its graph and node numbers (graph_replays.h).
 *
 * Input shapes and dtypes are the launching operator's ("Input Dims", "Input type" of a trace
 * recorded with record_shapes). FLOPs and bytes are the operator's estimate (op_cost.h); an
 * operator that launched several kernels (a GEMM and its split-K reduction) carries them on its
 * longest kernel only, so that sums over the table count each operator once. A capture records
 * shapes without dtypes: its bytes take the element type the kernel's name says (else the run's
 * most common number format), for every tensor of the operator; a cast or a mixed-dtype operator
 * (where, index) is then off in its bytes, never in its FLOPs.
 *
 * The bound verdict (roofline_bound.h) is against the peaks of the row's device (gpu_peaks.h); a
 * kernel without the estimate is Latency when under 5 us, else Unknown.
 */
struct KernelRow {
    uint32_t track = 0; // slice of the kernel in the session
    uint32_t slice = 0;
    int64_t start = 0;
    int64_t dur = 0;
    StringId name = kEmptyString;
    StringId op = kEmptyString;    // innermost cpu_op enclosing the launching runtime call
    StringId layer = kEmptyString; // innermost user annotation enclosing the launch
    uint32_t opTrack = 0xffffffffu; // the launching operator's slice, kNoId if none
    uint32_t opSlice = 0xffffffffu;
    uint32_t nameIndex = 0; // dense index of `name` in KernelTable::names()
    KernelDirection direction = KernelDirection::Unknown;
    bool tensorCores = false;
    NumberFormat format = NumberFormat::Unknown; // what its name says (gpu_peaks.h)
    Bound bound = Bound::Unknown;                // against its device's peaks, where the table has them
    int32_t device = -1;
    int64_t stream = -1;
    std::array<int32_t, 3> grid{};  // {0,0,0} when unknown
    std::array<int32_t, 3> block{}; // {0,0,0} when unknown
    int32_t registers = -1;
    int64_t sharedMemory = -1;
    float blocksPerSm = std::numeric_limits<float>::quiet_NaN();
    float occupancy = std::numeric_limits<float>::quiet_NaN(); // percent
    static constexpr uint32_t kNoInputs = 0xffffffffu;
    uint32_t inputs = kNoInputs; // index into KernelTable::inputTexts()
    float flops = std::numeric_limits<float>::quiet_NaN();
    float bytes = std::numeric_limits<float>::quiet_NaN();
    uint32_t graph = 0;     // GraphRow::number of the graph it was replayed from; 0: not a graph replay
    uint32_t graphNode = 0; // GraphNodeRow::index + 1 in it
};

/*
 * KernelTableOptions: how much work KernelTable::build may do. Plain values, no invariants.
 */
struct KernelTableOptions {
    // Launch geometry (grid, block, registers, shared memory) of the kernels and input shapes of
    // their operators come from event arguments, read in one pass over the source
    // (Session::forEachArgValues, ~1-2 s per GB of JSON); a kernel whose trace gives no occupancy
    // (captures, Nsight Systems) gets it computed from that geometry (cuda_occupancy.h). false
    // skips that pass.
    bool readArgs = true;
    // Set: the argument passes stop early (a closing view); the table is then incomplete.
    const std::atomic<bool>* cancel = nullptr;
    // Take the arguments from the session's argument columns where it has them (Session::argColumns,
    // no pass over the source); false reads the source anyway (tests compare the two).
    bool argColumns = true;
};

/*
 * KernelTable: every kernel slice of a session (GPU tracks, EventKind::Kernel) in start order,
 * with its launching operator, layer and direction found by following the ac2g flow to the
 * runtime call and walking that call's enclosing slices.
 *
 * Rows are immutable after build(); views are permutations of row indices: sortedOrder() gives a
 * full order for one column (O(n log n) on (key, index) pairs, ties keep start order, absent values
 * last in both directions) and filterByName() keeps the rows of an order whose kernel name contains
 * a needle case-insensitively (one match per distinct name, then one pass over the rows).
 * Build cost: O(kernels * (log flows + launch depth * log n)) plus one pass over the arguments.
 */
class KernelTable {
public:
    static KernelTable build(const Session& session, const KernelTableOptions& options = {});

    size_t size() const { return m_rows.size(); }
    const KernelRow& row(size_t i) const { return m_rows[i]; }
    const std::vector<KernelRow>& rows() const { return m_rows; }
    // Distinct kernel names; KernelRow::nameIndex indexes this.
    const std::vector<StringId>& names() const { return m_names; }
    int64_t totalNs() const { return m_totalNs; }
    bool argsLoaded() const { return m_argsLoaded; }
    // Distinct (input shapes, input dtypes) texts of launching operators; KernelRow::inputs indexes this.
    struct InputTexts {
        std::string shapes;
        std::string types;
    };
    const std::vector<InputTexts>& inputTexts() const { return m_inputs; }

    std::vector<uint32_t> sortedOrder(KernelColumn column, bool descending = false) const;
    std::vector<uint32_t> filterByName(const std::vector<uint32_t>& order, std::string_view needle) const;

    // Display / CSV text of a cell; empty when the value is absent (never "0" for unknown).
    std::string text(const Session& session, size_t row, KernelColumn column) const;

private:
    std::vector<KernelRow> m_rows;
    std::vector<StringId> m_names;
    std::vector<std::string> m_lowerNames; // lower-case copy of each distinct name, for filtering
    // Rank in byte order of every kernel, operator and layer name used, so that sorting by a
    // text column compares integers.
    std::unordered_map<StringId, uint32_t> m_textRank;
    std::vector<InputTexts> m_inputs;
    std::vector<uint32_t> m_shapeRank; // byte-order rank of m_inputs[i].shapes
    std::vector<uint32_t> m_typeRank;
    int64_t m_totalNs = 0;
    bool m_argsLoaded = false;
};

// Tensor Core heuristic on a kernel name (see kernel_table.cpp).
bool kernelUsesTensorCores(std::string_view name);

/*
 * KernelLaunchArgs: a kernel's launch geometry as its event arguments give it ("grid", "block",
 * "registers per thread", "shared memory" = static + dynamic bytes, as Kineto, Nsight Systems and
 * captures write them); the absent values of KernelRow.
 */
struct KernelLaunchArgs {
    std::array<int32_t, 3> grid{};
    std::array<int32_t, 3> block{};
    int32_t registers = -1;
    int64_t sharedMemory = -1;
};
using KernelLaunchFn = std::function<void(size_t index, const KernelLaunchArgs& args)>;
// The launch geometry of the kernels with these argRefs, in one pass over their arguments
// (Session::forEachArgValues: fn in argRef order, *cancel stops it).
void forEachKernelLaunch(const Session& session, const std::vector<uint64_t>& argRefs, const KernelLaunchFn& fn,
                         const std::atomic<bool>* cancel = nullptr);
// A slice of a session (track index, slice index).
struct KernelSliceRef {
    uint32_t track = 0;
    uint32_t slice = 0;
};
// The launch geometry of these kernel slices: from the session's argument columns when it has them
// (Session::argColumns; O(kernels), each distinct geometry parsed once, fn in the given order),
// else the argRef pass above. Either way fn(i, ...) is called for each slice with arguments.
void forEachKernelLaunch(const Session& session, const std::vector<KernelSliceRef>& slices, const KernelLaunchFn& fn,
                         const std::atomic<bool>* cancel = nullptr, bool argColumns = true);

// The est. achieved occupancy of these kernel slices computed from their launch arguments
// (occupancyFromLaunchArgs), slice i on device devices[i]: fn(i, percent) for each whose device has
// known limits and whose arguments give a value. For traces without Kineto's occupancy (captures,
// Nsight Systems); the Overview and the summary use it, so both say the same.
void forEachComputedOccupancy(const Session& session, const std::vector<KernelSliceRef>& slices,
                              const std::vector<int>& devices, const std::function<void(size_t, float)>& fn);

// "[x, y, z]" as in Kineto's grid/block args; false if the text is not 1..3 integers.
bool parseDim3(std::string_view text, std::array<int32_t, 3>& out);
// "[x, y, z]", or empty for the absent {0, 0, 0}.
std::string dim3Text(const std::array<int32_t, 3>& d);

} // namespace ws
