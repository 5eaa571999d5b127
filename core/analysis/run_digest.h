#pragma once

#include "analysis/operator_table.h"
#include "analysis/overview.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ws {

class Session;
class SessionAnalyses;

/*
 * RunDigest: everything a comparison (session_diff.h) needs of one run, keyed by text rather than
 * by the session's ids, so it is small (a few hundred rows), can be cached in the session file
 * (session_results.h) and compared without the run's model:
 *   - the Overview of the run or of a window of it (devices, step breakdown, recommendations);
 *   - the operator table's rows for the groupings asked for (name, shape, stack);
 *   - the kernels by raw name, and the kernels each operator's own runtime calls launched.
 * Built from the session's analyses (digestRun) in O(operators + kernels) after the tree.
 */
struct DigestOperatorRow {
    std::string name, shapes, types, callStack; // the grouping's key (columns outside it empty)
    uint64_t calls = 0;
    int64_t hostTotalNs = 0, hostSelfNs = 0, deviceTotalNs = 0, deviceSelfNs = 0;
    // Tensor Core time and eligibility: the Operators tab's stored first view shows them.
    int64_t tcSelfNs = 0, tcTotalNs = 0;
    bool tensorCoreEligible = false;
};

struct DigestOperators {
    bool present = false;   // computed for this grouping
    bool hasDevice = false; // OperatorTable::hasDevice
    std::vector<DigestOperatorRow> rows; // in the table's default order
};

struct DigestKernel {
    std::string op;   // the launching operator; empty in RunDigest::kernels
    std::string name; // the raw kernel name
    uint64_t calls = 0;
    int64_t ns = 0;
};

struct RunDigest {
    OverviewReport overview;
    std::array<DigestOperators, 3> operators; // by OperatorGrouping
    bool callStacks = false;                  // OperatorTree::anyCallStack (known only with args read)
    bool pyStacks = false;                    // ... of the Python stacks alone (a tree without args)
    bool argsRead = false;                    // the operator tree had its arguments read
    std::vector<DigestKernel> kernels;        // by raw name, sorted by name
    std::vector<DigestKernel> launched;       // by (operator, kernel), sorted
};

/* A window [from, to) of a run in session ns: operators and kernels starting inside count. */
struct DigestWindow {
    int64_t from = 0;
    int64_t to = 0;
};

// The digest of a run (or of a window of it) with the operator rows of `groupings`; the operator
// tree's arguments are read when `readArgs` and a grouping other than Name is asked for (a stack
// grouping also gets the name rows, which a comparison falls back to without call stacks).
RunDigest digestRun(SessionAnalyses& analyses, const std::optional<DigestWindow>& window,
                    const std::array<bool, 3>& groupings, bool readArgs);

} // namespace ws
