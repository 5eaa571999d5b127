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
    s.torchOps = 0;
    EXPECT_EQ(envValue(capturesetup::environment(s, "/lib/inject.so"), "PYTHONPATH"), "");
}

TEST(TorchHook, SwitchesOnEmitNvtxWhenTheProgramImportsTorch) {
    if (std::system("python3 -c 'import sys' 2>/dev/null") != 0)
        GTEST_SKIP() << "python3 is not installed";
    const std::string root = wstest::tempPath("torch_hook");
    std::system(("rm -rf '" + root + "' && mkdir -p '" + root + "/fake/torch/autograd'").c_str());
    // A stand-in torch: emit_nvtx(record_shapes=...) writes what it was asked into a file on __enter__.
    writeFile(root + "/fake/torch/__init__.py", "from . import autograd\n");
    writeFile(root + "/fake/torch/autograd/__init__.py", "from . import profiler\n");
    writeFile(root + "/fake/torch/autograd/profiler.py",
              "import os\n"
              "class emit_nvtx:\n"
              "    def __init__(self, record_shapes=False):\n"
              "        self.shapes = record_shapes\n"
              "    def __enter__(self):\n"
              "        open(os.environ['HOOK_OUT'], 'w').write('entered shapes=%s' % self.shapes)\n"
              "        return self\n");
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
}
