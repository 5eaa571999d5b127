"""Runs a Python program with a RecordFunction observer compiled against the installed libtorch, to
measure what PyTorch's operator callbacks cost without the legacy profiler state that emit_itt and
emit_nvtx switch on (issue #25's cost split; compare with with_ranges.py):

  python3 rf_observer.py empty|record PROGRAM.py [ARGS...]

empty: a global callback on operator and autograd-node scopes, asking for no inputs, outputs or ids,
that does nothing; record: the same callback keeping (name, timestamp) at each operator's start and
end in a thread-local vector, as a capture would before writing them out. The observer is built
once per torch build with g++ into ~/.cache/warpscope/rf_observer/."""
import ctypes, hashlib, os, runpy, subprocess, sys

import torch
import torch.utils.cpp_extension as ext

SOURCE = r"""
#include <ATen/record_function.h>
#include <time.h>
#include <cstdint>
#include <vector>

namespace {
struct Mark { const char* name; uint64_t ns; };
thread_local std::vector<Mark> marks;
int mode = 0;
uint64_t now() { timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return uint64_t(t.tv_sec) * 1000000000u + t.tv_nsec; }
std::unique_ptr<at::ObserverContext> enter(const at::RecordFunction& fn) {
    if (mode == 2) marks.push_back({fn.name(), now()});
    return nullptr;
}
void leave(const at::RecordFunction& fn, at::ObserverContext*) {
    if (mode == 2) marks.push_back({nullptr, now()});
}
}  // namespace

extern "C" void ws_install(int m) {
    mode = m;
    at::addGlobalCallback(at::RecordFunctionCallback(enter, leave)
                              .needsInputs(false).needsOutputs(false).needsIds(false)
                              .scopes({at::RecordScope::FUNCTION, at::RecordScope::BACKWARD_FUNCTION}));
}
extern "C" uint64_t ws_marks() { return marks.size(); }
"""


def build():
    key = hashlib.sha1((torch.__version__ + torch.__file__ + SOURCE).encode()).hexdigest()[:12]
    d = os.path.join(os.path.expanduser("~/.cache/warpscope/rf_observer"), key)
    so = os.path.join(d, "rf_observer.so")
    if not os.path.exists(so):
        os.makedirs(d, exist_ok=True)
        src = os.path.join(d, "rf_observer.cpp")
        with open(src, "w") as f:
            f.write(SOURCE)
        lib = os.path.join(os.path.dirname(torch.__file__), "lib")
        abi = int(torch._C._GLIBCXX_USE_CXX11_ABI)
        cmd = ["g++", "-O2", "-shared", "-fPIC", "-std=c++17", "-D_GLIBCXX_USE_CXX11_ABI=%d" % abi, src, "-o", so]
        cmd += ["-I" + p for p in ext.include_paths()] + ["-L" + lib, "-lc10", "-ltorch_cpu", "-Wl,-rpath," + lib]
        subprocess.run(cmd, check=True)
    return so


mode, program = sys.argv[1], sys.argv[2]
observer = ctypes.CDLL(build())
observer.ws_install({"empty": 1, "record": 2}[mode])
sys.argv = sys.argv[2:]
runpy.run_path(program, run_name="__main__")
