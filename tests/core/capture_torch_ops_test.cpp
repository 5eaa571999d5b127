// A capture made with `warpscope-capture --torch-ops=shapes` (issue #13, part): PyTorch's own NVTX
// range per operator makes every kernel's operator, shapes and direction known, as in a
// torch.profiler trace of the same script.
#include "analysis/kernel_table.h"
#include "analysis/operator_table.h"
#include "analysis/operator_tree.h"
#include "analysis/step_ranges.h"
#include "test_util.h"

using namespace ws;
using namespace ws::test;

TEST(CaptureTorchOps, EveryKernelHasItsOperator) {
    ImportResult r = importTraceFile(dataPath("captures/transformer_torch_ops.wscap.gz"));
    ASSERT_TRUE(r.session) << r.error;
    const Session& s = *r.session;
    const OperatorTree tree = OperatorTree::build(s);
    EXPECT_TRUE(tree.anyShapes());
    EXPECT_EQ(tree.stats().gpuActivitiesAttributed, tree.stats().gpuActivities); // nothing unattributed
    size_t mm = 0;
    for (const OperatorNode& n : tree.nodes())
        if (n.counted() && s.str(n.name) == "aten::mm") {
            ++mm;
            EXPECT_FALSE(tree.text(n.shapes).empty());
        }
    EXPECT_GT(mm, 100u);
    // Six training steps, found from the launch pattern (the operator ranges are not steps).
    const StepRanges steps = computeStepRanges(s);
    EXPECT_TRUE(steps.patternSteps);
    EXPECT_GE(steps.steps.size(), 5u);
}
