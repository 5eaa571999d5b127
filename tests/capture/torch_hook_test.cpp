// --torch-ops (issue #13, part): the environment and the Python startup hook that switches on
// PyTorch's NVTX range per operator. The hook runs in a real python3 against a stand-in `torch`
// package that records what the hook asked of it, so no PyTorch or GPU is needed.
#include "format/activitylist.h"
#include "launch/capturesetup.h"
#include "wscapfixtures.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sys/stat.h>

using namespace ws;

namespace {

std::string envValue(const std::vector<std::pair<std::string, std::string>>& env, const std::string& key) {
    for (const auto& [k, v] : env)
        if (k == key)
            return v;
    return {};
}

void writeFile(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

} // namespace

TEST(TorchHook, EnvironmentPutsTheHookFirstOnPythonPath) {
    CaptureSettings s;
    s.outputDir = "/tmp/cap";
    s.activityBits = wscap::kDefaultActivities;
    s.torchOps = 2;
    ::setenv("PYTHONPATH", "/site/mine", 1);
    const auto env = capturesetup::environment(s, "/lib/inject.so");
    ::unsetenv("PYTHONPATH");
    EXPECT_EQ(envValue(env, "PYTHONPATH"), "/tmp/cap/.warpscope-python:/site/mine");
    EXPECT_EQ(envValue(env, "WARPSCOPE_TORCH_OPS"), "shapes");
    EXPECT_EQ(envValue(env, "INTEL_LIBITTNOTIFY64"), ""); // shapes need emit_nvtx
    s.torchOps = 1;
    const auto ops = capturesetup::environment(s, "/lib/inject.so");
    EXPECT_EQ(envValue(ops, "WARPSCOPE_TORCH_OPS"), "ops");
    EXPECT_EQ(envValue(ops, "INTEL_LIBITTNOTIFY64"), "/lib/inject.so"); // PyTorch's ITT part loads it
    EXPECT_EQ(envValue(ops, "INTEL_ITTNOTIFY_GROUPS"), "structure");
    s.torchOps = 0;
    EXPECT_EQ(envValue(capturesetup::environment(s, "/lib/inject.so"), "PYTHONPATH"), "");
}

TEST(TorchHook, SwitchesOnEmitNvtxWhenTheProgramImportsTorch) {
    if (std::system("python3 -c 'import sys' 2>/dev/null") != 0)
        GTEST_SKIP() << "python3 is not installed";
    const std::string root = wstest::tempPath("torch_hook");
    std::system(("rm -rf '" + root + "' && mkdir -p '" + root + "/fake/torch/autograd'").c_str());
    // A stand-in torch: emit_nvtx(record_shapes=...) writes what it was asked into a file on __enter__.
    writeFile(root + "/fake/torch/autograd/__init__.py", "from . import profiler\n");
    writeFile(root + "/fake/torch/autograd/profiler.py",
              "import os\n"
              "class emit_nvtx:\n"
              "    def __init__(self, record_shapes=False):\n"
              "        self.shapes = record_shapes\n"
              "    def __enter__(self):\n"
              "        open(os.environ['HOOK_OUT'], 'w').write('entered shapes=%s' % self.shapes)\n"
              "        return self\n"
              "class emit_itt:\n"
              "    def __enter__(self):\n"
              "        open(os.environ['HOOK_OUT'], 'w').write('entered itt')\n"
              "        return self\n"
              "    def __exit__(self, *args):\n"
              "        open(os.environ['HOOK_OUT'], 'w').write('left itt')\n");
    // torch.profiler.itt.is_available() says what HOOK_ITT says.
    std::system(("mkdir -p '" + root + "/fake/torch/profiler'").c_str());
    writeFile(root + "/fake/torch/profiler/__init__.py", "from . import itt\n");
    writeFile(root + "/fake/torch/profiler/itt.py",
              "import os\ndef is_available():\n    return os.environ.get('HOOK_ITT') == '1'\n");
    writeFile(root + "/fake/torch/__init__.py", "from . import autograd, profiler\ndef zeros(n):\n    return [0] * n\n");
    // The program's own sitecustomize, which the hook must still run.
    std::system(("mkdir -p '" + root + "/site'").c_str());
    writeFile(root + "/site/sitecustomize.py", "import os\nopen(os.environ['HOOK_OUT'] + '.site', 'w').write('ran')\n");

    CaptureSettings s;
    s.outputDir = root + "/out";
    s.activityBits = wscap::kDefaultActivities;
    s.torchOps = 2;
    std::string why;
    ASSERT_TRUE(capturesetup::prepareTorchHook(s, &why)) << why;
    struct stat st {};
    ASSERT_EQ(::stat((root + "/out/.warpscope-python/sitecustomize.py").c_str(), &st), 0);

    ::setenv("PYTHONPATH", (root + "/site").c_str(), 1);
    const auto env = capturesetup::environment(s, "/lib/inject.so");
    ::unsetenv("PYTHONPATH");
    const std::string out = root + "/hook.txt";
    const std::string cmd = "cd '" + root + "/fake' && HOOK_OUT='" + out + "' PYTHONPATH='" + envValue(env, "PYTHONPATH") +
                            "' WARPSCOPE_TORCH_OPS=shapes python3 -c 'import torch; print(1)' > /dev/null";
    ASSERT_EQ(std::system(cmd.c_str()), 0);
    EXPECT_EQ(wstest::readFile(out), "entered shapes=True");
    EXPECT_EQ(wstest::readFile(out + ".site"), "ran");

    // A program that never imports torch is left alone.
    std::remove(out.c_str());
    const std::string plain = "cd '" + root + "' && HOOK_OUT='" + out + "' PYTHONPATH='" + envValue(env, "PYTHONPATH") +
                              "' python3 -c 'print(1)' > /dev/null";
    ASSERT_EQ(std::system(plain.c_str()), 0);
    EXPECT_EQ(wstest::readFile(out), "");

    // Operators without shapes: ITT ranges when PyTorch has ITT and the injection library is its
    // collector; emit_nvtx when either is missing or WARPSCOPE_TORCH_OPS_VIA=nvtx asks for it.
    auto run = [&](const std::string& extra) {
        std::remove(out.c_str());
        const std::string c = "cd '" + root + "/fake' && HOOK_OUT='" + out + "' PYTHONPATH='" +
                              envValue(env, "PYTHONPATH") + "' WARPSCOPE_TORCH_OPS=ops " + extra +
                              " python3 -c 'import torch' > /dev/null";
        EXPECT_EQ(std::system(c.c_str()), 0);
        return wstest::readFile(out);
    };
    const std::string stub = std::string("CUDA_INJECTION64_PATH='") + WSCAP_ITT_COLLECTOR_STUB + "'";
    EXPECT_EQ(run(stub + " HOOK_ITT=1"), "left itt"); // kept for the whole run, left at exit
    EXPECT_EQ(run(stub + " HOOK_ITT=0"), "entered shapes=False");
    EXPECT_EQ(run(stub + " HOOK_ITT=1 WARPSCOPE_TORCH_OPS_VIA=nvtx"), "entered shapes=False");
    EXPECT_EQ(run("CUDA_INJECTION64_PATH=/no/such/library.so HOOK_ITT=1"), "entered shapes=False");
}

TEST(TorchHook, PythonStacksAndTheStepFunctionNeedTheHook) {
    CaptureSettings s;
    s.outputDir = "/tmp/cap";
    s.activityBits = wscap::kDefaultActivities & ~wscap::ActNvtx;
    EXPECT_FALSE(capturesetup::wantsPythonHook(s));
    s.activityBits |= wscap::ActPyStacks; // Python stacks alone need the hook, with or without NVTX
    EXPECT_TRUE(capturesetup::wantsPythonHook(s));
    auto env = capturesetup::environment(s, "/lib/inject.so");
    EXPECT_EQ(envValue(env, "WARPSCOPE_PY_STACKS"), "1");
    EXPECT_EQ(envValue(env, "PYTHONPATH").rfind("/tmp/cap/.warpscope-python", 0), 0u);
    EXPECT_EQ(envValue(env, "WARPSCOPE_STEP_FUNCTION"), "");
    s.activityBits = wscap::kDefaultActivities;
    s.stepFunction = "Trainer.step";
    EXPECT_TRUE(capturesetup::wantsPythonHook(s));
    env = capturesetup::environment(s, "/lib/inject.so");
    EXPECT_EQ(envValue(env, "WARPSCOPE_STEP_FUNCTION"), "Trainer.step");
    EXPECT_EQ(envValue(env, "WARPSCOPE_PY_STACKS"), "");
    EXPECT_EQ(envValue(env, "WARPSCOPE_TORCH_OPS"), ""); // operators were not asked for
}

// The hook never breaks the program: a stack recorder that cannot load and a step function on a
// Python without sys.monitoring are each one warning, and the program runs to its end.
TEST(TorchHook, FailuresAreWarningsAndTheProgramRuns) {
    if (std::system("python3 -c 'import sys' 2>/dev/null") != 0)
        GTEST_SKIP() << "python3 is not installed";
    const std::string root = wstest::tempPath("py_hook");
    CaptureSettings s;
    s.outputDir = root;
    s.activityBits = wscap::kDefaultActivities | wscap::ActPyStacks;
    s.stepFunction = "train_step";
    std::string why;
    ASSERT_TRUE(capturesetup::prepareTorchHook(s, &why)) << why;
    const auto env = capturesetup::environment(s, root + "/no-such-inject.so");
    const std::string err = root + "/stderr.txt", out = root + "/stdout.txt";
    const std::string cmd = "cd '" + root + "' && CUDA_INJECTION64_PATH='" + envValue(env, "CUDA_INJECTION64_PATH") +
                            "' WARPSCOPE_PY_STACKS=1 WARPSCOPE_STEP_FUNCTION=train_step PYTHONPATH='" +
                            envValue(env, "PYTHONPATH") +
                            "' python3 -c 'def train_step(i): return i * 2\nprint(sum(train_step(i) for i in range(4)))' > '" +
                            out + "' 2> '" + err + "'";
    ASSERT_EQ(std::system(cmd.c_str()), 0) << wstest::readFile(err);
    EXPECT_EQ(wstest::readFile(out), "12\n");
    const std::string warnings = wstest::readFile(err);
    EXPECT_NE(warnings.find("warpscope: could not attach the Python stack recorder"), std::string::npos) << warnings;
    // On Python 3.12+ the step function is marked (torch is absent here, so nothing is pushed);
    // before 3.12 it says why it cannot be.
    if (std::system("python3 -c 'import sys; sys.exit(0 if hasattr(sys, \"monitoring\") else 1)'") != 0)
        EXPECT_NE(warnings.find("--step-function needs Python 3.12"), std::string::npos) << warnings;
    else
        EXPECT_EQ(warnings.find("step"), std::string::npos) << warnings;
}
