#include "analysis/session_reports.h"

#include "analysis/idle_gaps.h"
#include "analysis/kernel_csv.h"
#include "analysis/kernel_table.h"
#include "analysis/operator_csv.h"
#include "analysis/operator_tree.h"

#include <numeric>

namespace ws {

void writeKernelsReport(std::ostream& out, const Session& session, const KernelTableOptions& options) {
    const KernelTable table = KernelTable::build(session, options);
    std::vector<uint32_t> order(table.size());
    std::iota(order.begin(), order.end(), 0u); // rows are built in start order
    writeKernelCsv(out, session, table, order);
}

void writeOperatorsReport(std::ostream& out, const Session& session, OperatorGrouping grouping) {
    OperatorTreeOptions options;
    options.readArgs = grouping != OperatorGrouping::Name; // the by-name rows read no arguments
    const OperatorTree tree = OperatorTree::build(session, options);
    const OperatorTable table = OperatorTable::build(session, tree, grouping);
    std::vector<uint32_t> order(table.size());
    std::iota(order.begin(), order.end(), 0u); // rows come in the default order
    writeOperatorCsv(out, session, tree, table, order);
}

void writeGapsReport(std::ostream& out, const Session& session) { out << idleGapsCsv(session, computeIdleGaps(session)); }

} // namespace ws
