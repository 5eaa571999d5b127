#pragma once

#include "analysis/operator_tree.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ws {

class Session;
struct DigestOperators;

/* How operator calls are grouped into rows (torch-tb-profiler's operator view, FORMATS.md 3.9). */
enum class OperatorGrouping : uint8_t {
    Name,
    // Name + input shapes + input dtypes: tb groups by shapes only; the dtypes are part of the key
    // here because the same shapes in fp32 and bf16 are different work.
    NameAndInputShape,
    // Name + call stack: the op's "Call stack" argument when present, else its python_function
    // ancestry (innermost frame first, ';'-joined).
    NameAndCallStack,
};

/*
 * OperatorColumn: the columns of the operator table in display order; the value is the column
 * index (0 .. kOperatorColumnCount-1). Every grouping has every column; key columns that are not
 * part of the grouping (shapes when grouping by name) are empty.
 */
enum class OperatorColumn : uint8_t {
    Name,
    InputShapes,
    InputTypes,
    CallStack,
    Calls,
    HostTotal,
    HostSelf,
    DeviceTotal,
    DeviceSelf,
    TensorCoreEligible,
    TcSelfPercent,
    TcTotalPercent,
};
inline constexpr size_t kOperatorColumnCount = 12;

// Stable CSV header name of a column (snake_case, e.g. "host_self_ns").
const char* operatorColumnName(OperatorColumn column);
// Whether a column is part of a grouping's output (key columns of other groupings are not).
bool operatorColumnInGrouping(OperatorColumn column, OperatorGrouping grouping);

/*
 * OperatorRow: one group of operator calls with the sums of the tree's quantities over its calls
 * (FORMATS.md 3.2/3.9). longestNode is the node of the group's longest call (host time), for
 * "show on timeline". tcSelf/tcTotal are Tensor Core kernel time; the percentages are
 * tcSelfNs / deviceSelfNs and tcTotalNs / deviceTotalNs, absent when the divisor is 0.
 */
struct OperatorRow {
    StringId name = kEmptyString;
    uint32_t shapes = 0; // OperatorTree::text ids, 0 = empty / not a key of the grouping
    uint32_t types = 0;
    uint32_t callStackArg = 0;
    uint32_t pyStack = 0;
    uint32_t longestNode = OperatorNode::kNone;
    uint64_t calls = 0;
    int64_t hostTotalNs = 0;
    int64_t hostSelfNs = 0;
    int64_t deviceTotalNs = 0;
    int64_t deviceSelfNs = 0;
    int64_t tcSelfNs = 0;
    int64_t tcTotalNs = 0;
    bool tensorCoreEligible = false;

    std::optional<double> tcSelfFraction() const;
    std::optional<double> tcTotalFraction() const;
};

/* A time range [from, to) in session ns: only calls starting inside count. */
struct OperatorTimeRange {
    int64_t from = 0;
    int64_t to = 0;
};

/*
 * OperatorTable: the operator view: counted nodes of an OperatorTree (OperatorNode::counted) grouped
 * by name, name + input shape or name + call stack, optionally only calls starting in a time range.
 * Rows start sorted by self device time descending (self host time when the trace has no GPU
 * activity), ties by name. Like KernelTable, views are permutations of row indices: sortedOrder()
 * for one column (integer keys: text columns use precomputed byte-order ranks; absent values last
 * in both directions) and filterByName() (case-insensitive substring on the operator name).
 * Build: O(nodes) hashing plus O(rows log rows) for the ranks; the tree is shared, not copied.
 */
class OperatorTable {
public:
    static OperatorTable build(const Session& session, const OperatorTree& tree, OperatorGrouping grouping,
                               std::optional<OperatorTimeRange> range = std::nullopt);
    // The by-name table of the whole trace from a session file's stored rows (run_digest.h, in the
    // default order), without a tree: rows have no longestNode. nullopt when a name is not one of
    // the session's strings (rows of another model). Its text() needs no tree for this grouping.
    static std::optional<OperatorTable> fromStoredRows(const Session& session, const DigestOperators& stored);

    OperatorGrouping grouping() const { return m_grouping; }
    std::optional<OperatorTimeRange> range() const { return m_range; }
    // Whether device columns mean anything: false for a trace without kernels, memcpy or memset.
    bool hasDevice() const { return m_hasDevice; }
    size_t size() const { return m_rows.size(); }
    const OperatorRow& row(size_t i) const { return m_rows[i]; }
    const std::vector<OperatorRow>& rows() const { return m_rows; }
    uint64_t totalCalls() const { return m_totalCalls; }

    std::vector<uint32_t> sortedOrder(OperatorColumn column, bool descending = false) const;
    std::vector<uint32_t> filterByName(const std::vector<uint32_t>& order, std::string_view needle) const;

    // Display / CSV text of a cell: durations in ns, percentages with one decimal, "yes"/"no";
    // empty when the value is absent (no device in the trace, no shapes recorded, 0 device time).
    std::string text(const Session& session, const OperatorTree& tree, size_t row, OperatorColumn column) const;

private:
    OperatorGrouping m_grouping = OperatorGrouping::Name;
    std::optional<OperatorTimeRange> m_range;
    bool m_hasDevice = false;
    std::vector<OperatorRow> m_rows;
    std::vector<std::string> m_lowerNames; // per row, for filtering
    // Per row, byte-order rank of its name / shapes / types / call stack text.
    std::vector<uint32_t> m_nameRank, m_shapeRank, m_typeRank, m_stackRank;
    uint64_t m_totalCalls = 0;
};

} // namespace ws
