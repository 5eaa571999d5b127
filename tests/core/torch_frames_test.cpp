// Which Python frames are PyTorch's own (model/torch_frames.h): graph names, node lines and memory
// snapshots skip them for the program's line.

#include "analysis/program_frames.h"
#include "model/torch_frames.h"

#include <gtest/gtest.h>

#include <string_view>
#include <vector>

namespace ws {
namespace {

TEST(TorchFrames, InstalledSourceAndGeneratedTorchCodeIsTorchs) {
    EXPECT_TRUE(isTorchPackageFile("/usr/lib/python3/dist-packages/torch/nn/modules/module.py"));
    EXPECT_TRUE(isTorchPackageFile("/opt/torch/.venv/lib/python3.12/site-packages/torch/_dynamo/eval_frame.py"));
    EXPECT_TRUE(isTorchPackageFile("/home/u/src/pytorch/torch/cuda/graphs.py"));
    EXPECT_TRUE(isTorchPackageFile("/tmp/torchinductor_root/ab/cabxyz.py"));
    EXPECT_TRUE(isTorchPackageFile("/venv/lib/python3.12/site-packages/triton/runtime/jit.py"));
}

TEST(TorchFrames, AVirtualEnvironmentUnderAFolderNamedTorchIsNot) {
    // The GPU machine's venv: every package of it lies under /opt/torch/.
    EXPECT_FALSE(isTorchPackageFile("/opt/torch/.venv/lib/python3.12/site-packages/transformers/generation/utils.py"));
    EXPECT_FALSE(isTorchPackageFile("/opt/torch/.venv/lib/python3.12/site-packages/vllm/worker/model_runner.py"));
    EXPECT_FALSE(isTorchPackageFile("/work/train/model.py"));
    EXPECT_FALSE(isTorchPackageFile("/work/mytorchlib/model.py"));
}

TEST(TorchFrames, TheProgramFrameIsTheInnermostOutsideTorch) {
    const std::vector<std::string_view> frames = {
        "/opt/torch/.venv/lib/python3.12/site-packages/torch/_inductor/cudagraph_trees.py",
        "<string>",
        "/opt/torch/.venv/lib/python3.12/site-packages/transformers/generation/utils.py",
        "/work/hf_generate.py",
    };
    const auto it = programFrame(frames.begin(), frames.end(), [](std::string_view f) { return f; });
    EXPECT_EQ(it - frames.begin(), 2);
}

} // namespace
} // namespace ws
