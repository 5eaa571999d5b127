#include "launch/capturesetup.h"

#include "format/activitylist.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <dlfcn.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ws::capturesetup {

namespace {

bool isFile(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// Directory (inside the capture's output) of the Python startup hook of `torchOps`.
constexpr const char* kTorchHookDir = ".warpscope-python";

// The startup hook. Python runs sitecustomize at start-up; this one (0) with WARPSCOPE_PY_STACKS
// attaches the injection library's Python stack recorder (inject/pythonstacks.h; also what the
// sampler of --py-sample reads frames with), (1) with WARPSCOPE_TORCH_OPS
// waits for the program to import torch, then enters torch.autograd.profiler.emit_itt (when the
// injection library is PyTorch's ITT collector; emit_nvtx for shapes or otherwise) for the rest of
// the run, so every operator is a range the capture records, and (2) with
// WARPSCOPE_STEP_FUNCTION wraps every call of the function of that name in a `step N` NVTX range
// (sys.monitoring, Python 3.12+: a function that does not match costs one event, ever). No change
// to the program. Then it runs the sitecustomize it shadows, if any.
constexpr const char* kTorchHook = R"PY(# Written by warpscope-capture (--py-stacks, --py-sample, --torch-ops, --step-function). Safe to delete.
import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))


def _warpscope_itt_ranges(torch):
    """emit_itt, entered, when PyTorch's ITT ranges reach the injection library (one operator is run
    to see that they do); else None."""
    if os.environ.get("WARPSCOPE_TORCH_OPS_VIA", "itt") != "itt":
        return None
    ctx = None
    try:
        import ctypes
        if not torch.profiler.itt.is_available():
            return None
        seen = ctypes.CDLL(os.environ["CUDA_INJECTION64_PATH"]).warpscope_itt_tasks_seen
        ctx = torch.autograd.profiler.emit_itt()
        ctx.__enter__()
        torch.zeros(1)
        if seen() == 1:
            return ctx
    except Exception:
        pass
    if ctx is not None:
        try:
            ctx.__exit__(None, None, None)
        except Exception:
            pass
    return None


def _warpscope_operator_windows(torch):
    """Operators recorded while the program does something new (the injection library's
    OperatorWindows): it switches this thread's RecordFunction on and off at launches, through
    libtorch's at::enableRecordFunction."""
    try:
        import ctypes
        libtorch = ctypes.CDLL(os.path.join(os.path.dirname(torch.__file__), "lib", "libtorch_cpu.so"))
        enable = ctypes.cast(libtorch._ZN2at20enableRecordFunctionEb, ctypes.c_void_p)
        enabled = ctypes.cast(libtorch._ZN2at23isRecordFunctionEnabledEv, ctypes.c_void_p)
        attach = ctypes.CDLL(os.environ["CUDA_INJECTION64_PATH"]).warpscope_torch_ops_windows
        attach.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
        if attach(enable, enabled):
            _warpscope_keep_annotations(torch, ctypes.CFUNCTYPE(ctypes.c_bool)(enabled.value))
    except Exception as e:  # operators are then recorded all the time
        sys.stderr.write("warpscope: note: operators are recorded all the time (%s)\n" % e)


def _warpscope_keep_annotations(torch, rf_enabled):
    """record_function ranges (the optimizer's Optimizer.step#..., DataLoader's enumerate(...)#, the
    program's own) are RecordFunction scopes too: while the windows keep RecordFunction off, each
    goes out as an NVTX range instead, so the timeline and the steps keep them (a few per step)."""
    cls = torch.autograd.profiler.record_function
    enter, leave = cls.__enter__, cls.__exit__
    push, pop = torch.cuda.nvtx.range_push, torch.cuda.nvtx.range_pop

    def __enter__(self):
        self._warpscope_nvtx = not rf_enabled()
        if self._warpscope_nvtx:
            push(self.name)
        return enter(self)

    def __exit__(self, *exc):
        try:
            return leave(self, *exc)
        finally:
            if getattr(self, "_warpscope_nvtx", False):
                pop()

    cls.__enter__, cls.__exit__ = __enter__, __exit__


def _warpscope_switch_on(torch):
    if os.environ.get("WARPSCOPE_TORCH_OPS") not in ("ops", "shapes"):
        return
    try:
        shapes = os.environ.get("WARPSCOPE_TORCH_OPS") == "shapes"
        # ITT ranges carry the operator's name only and cost far less than emit_nvtx's formatted
        # text; shapes (and a PyTorch without ITT) need emit_nvtx.
        ctx = None if shapes else _warpscope_itt_ranges(torch)
        if ctx is None:
            ctx = torch.autograd.profiler.emit_nvtx(record_shapes=shapes)
            ctx.__enter__()
        globals()["_warpscope_emit_nvtx"] = ctx  # kept for the life of the process
        if not shapes:  # shapes are per call: they are not inferred
            _warpscope_operator_windows(torch)
        # Left switched on, torch's profiler callbacks outlive the interpreter: a Gloo rank of a
        # 2-process DDP job died with SIGSEGV at exit after "Leaked callback handle" (issue #18).
        import atexit
        atexit.register(_warpscope_switch_off, ctx)
    except Exception as e:  # never break the program being captured
        sys.stderr.write("warpscope: could not switch on PyTorch operator ranges: %s\n" % e)


def _warpscope_switch_off(ctx):
    try:
        ctx.__exit__(None, None, None)
    except Exception:  # the program may already have torn CUDA down; exiting matters more
        pass


def _warpscope_mark_steps(name):
    """Each call of the function `name` (its name or qualified name) becomes an NVTX range `step N`."""
    mon = getattr(sys, "monitoring", None)
    if mon is None:
        sys.stderr.write("warpscope: --step-function needs Python 3.12 or later; steps come from optimizer "
                         "steps or the launch pattern instead\n")
        return
    tool = None
    for candidate in (mon.PROFILER_ID, 5, 4, 3):
        try:
            mon.use_tool_id(candidate, "warpscope")
            tool = candidate
            break
        except ValueError:
            continue
    if tool is None:
        sys.stderr.write("warpscope: no free sys.monitoring tool id; --step-function is ignored\n")
        return
    state = {"step": 0, "push": None, "pop": None}
    targets = set()

    def nvtx():
        if state["push"] is None:
            torch = sys.modules.get("torch")
            if torch is None:
                return False
            state["push"], state["pop"] = torch.cuda.nvtx.range_push, torch.cuda.nvtx.range_pop
        return True

    def on_start(code, offset):
        if code not in targets:
            if code.co_name != name and getattr(code, "co_qualname", "") != name:
                return mon.DISABLE
            targets.add(code)
            mon.set_local_events(tool, code, mon.events.PY_RETURN)
        if nvtx():
            state["push"]("step %d" % state["step"])
            state["step"] += 1

    def on_return(code, offset, value):
        if code in targets and state["pop"] is not None:
            state["pop"]()

    mon.register_callback(tool, mon.events.PY_START, on_start)
    mon.register_callback(tool, mon.events.PY_RETURN, on_return)
    mon.set_events(tool, mon.events.PY_START)


class _WarpscopePythonStacks:
    def attach(self):
        """Python call stacks: the injection library checks its frame reader against this method's
        frames (a method: its name and qualified name differ), else installs a profile function.
        Both need the GIL held, hence PyDLL (ctypes.CDLL would release it)."""
        import ctypes
        return ctypes.PyDLL(os.environ["CUDA_INJECTION64_PATH"]).warpscope_python_attach()


if os.environ.get("WARPSCOPE_PY_STACKS") == "1":
    try:
        if not _WarpscopePythonStacks().attach():
            sys.stderr.write("warpscope: Python call stacks are not recorded\n")
    except Exception as e:
        sys.stderr.write("warpscope: could not attach the Python stack recorder: %s\n" % e)


if os.environ.get("WARPSCOPE_STEP_FUNCTION"):
    try:
        _warpscope_mark_steps(os.environ["WARPSCOPE_STEP_FUNCTION"])
    except Exception as e:
        sys.stderr.write("warpscope: could not mark the step function: %s\n" % e)


class _WarpscopeTorchFinder:
    """Finds nothing itself: when torch is first imported, wraps its loader to switch on after."""

    def find_spec(self, name, path=None, target=None):
        if name != "torch":
            return None
        sys.meta_path.remove(self)
        import importlib.util
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.loader is not None and hasattr(spec.loader, "exec_module"):
            run = spec.loader.exec_module

            def exec_module(module):
                run(module)
                _warpscope_switch_on(module)

            spec.loader.exec_module = exec_module
        return spec


if "torch" in sys.modules:
    _warpscope_switch_on(sys.modules["torch"])
else:
    sys.meta_path.insert(0, _WarpscopeTorchFinder())

# The sitecustomize this one shadows, if the environment has one.
try:
    import importlib.machinery
    import importlib.util
    _path = [p for p in sys.path if os.path.abspath(p or ".") != _HERE]
    _spec = importlib.machinery.PathFinder.find_spec("sitecustomize", _path)
    if _spec is not None and _spec.loader is not None:
        _module = importlib.util.module_from_spec(_spec)
        _spec.loader.exec_module(_module)
except Exception as e:
    sys.stderr.write("warpscope: the program's own sitecustomize failed: %s\n" % e)
)PY";

} // namespace

std::string executableDir() {
    char buf[PATH_MAX];
    const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof(buf) - 1);
    if (n <= 0)
        return ".";
    std::string path(buf, static_cast<size_t>(n));
    return path.substr(0, path.rfind('/'));
}

std::string absolute(const std::string& path) {
    if (!path.empty() && path[0] == '/')
        return path;
    char cwd[PATH_MAX];
    if (!::getcwd(cwd, sizeof(cwd)))
        return path;
    return std::string(cwd) + "/" + path;
}

std::vector<std::string> defaultSearchDirs(const std::string& exeDir, const std::string& libDir) {
    return {exeDir, exeDir + "/../" + libDir + "/warpscope", exeDir + "/../lib/warpscope"};
}

bool findInjectLibrary(const std::string& explicitPath, const std::vector<std::string>& searchDirs,
                       const std::string& tool, std::string* path, std::string* why) {
    std::vector<std::string> candidates;
    if (!explicitPath.empty()) {
        candidates.push_back(explicitPath);
    } else if (const char* env = std::getenv("WARPSCOPE_INJECT_LIBRARY"); env && *env) {
        candidates.push_back(env);
    } else {
        for (const std::string& dir : searchDirs)
            candidates.push_back(dir + "/libwarpscope_inject.so");
    }
    for (const std::string& c : candidates) {
        if (isFile(c)) {
            char resolved[PATH_MAX];
            *path = ::realpath(c.c_str(), resolved) ? resolved : absolute(c);
            return true;
        }
    }
    if (!explicitPath.empty())
        *why = "injection library " + explicitPath + " not found";
    else
        *why = "capture is unavailable: the CUPTI injection library (libwarpscope_inject.so) was not found next "
               "to " + tool + "; this build may lack CUDA/CUPTI (rebuild with the CUDA toolkit, or pass "
               "--inject PATH)";
    return false;
}

namespace {

const char* cudaDriverLibrary() {
    const char* name = std::getenv("WARPSCOPE_CUDA_DRIVER_LIBRARY");
    return name && *name ? name : "libcuda.so.1";
}

} // namespace

int cudaDriverVersion() {
    void* handle = ::dlopen(cudaDriverLibrary(), RTLD_LAZY | RTLD_LOCAL);
    if (!handle)
        return 0;
    int version = 0;
    // cuDriverGetVersion needs no cuInit and no GPU: the driver's own CUDA version.
    using GetVersion = int (*)(int*);
    if (const auto get = reinterpret_cast<GetVersion>(::dlsym(handle, "cuDriverGetVersion")))
        if (get(&version) != 0)
            version = 0;
    ::dlclose(handle);
    return version;
}

bool driverTooOldForCupti(int driver, int cupti) { return driver > 0 && cupti > 0 && driver / 1000 < cupti / 1000; }

std::string cudaVersionText(int version) {
    return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

bool cudaDriverAvailable(std::string* why) {
    const char* name = cudaDriverLibrary();
    void* handle = ::dlopen(name, RTLD_LAZY | RTLD_LOCAL);
    if (!handle) {
        const char* detail = ::dlerror();
        *why = std::string("no CUDA driver: ") + name + " cannot be loaded (" + (detail ? detail : "unknown reason") +
               ")";
        return false;
    }
    ::dlclose(handle);
    return true;
}

std::vector<std::pair<std::string, std::string>> environment(const CaptureSettings& settings,
                                                             const std::string& injectPath) {
    std::vector<std::pair<std::string, std::string>> env = {
        {"CUDA_INJECTION64_PATH", injectPath},
        {"WARPSCOPE_OUTPUT", settings.outputDir},
        {"WARPSCOPE_ACTIVITIES", wscap::activitiesToString(settings.activityBits)},
    };
    if (settings.activityBits & wscap::ActNvtx)
        env.emplace_back("NVTX_INJECTION64_PATH", injectPath);
    // The injection library is also NCCL's profiler plugin (inject/ncclrecorder.h); a plugin the
    // user chose already stays theirs, and NCCL then names no sizes to the capture.
    if (const char* own = std::getenv("NCCL_PROFILER_PLUGIN"); (settings.activityBits & wscap::ActCollectives) && !(own && *own))
        env.emplace_back("NCCL_PROFILER_PLUGIN", injectPath);
    if (settings.sampleHz >= 0)
        env.emplace_back("WARPSCOPE_SAMPLE_HZ", std::to_string(settings.sampleHz));
    if (settings.flushMs > 0)
        env.emplace_back("WARPSCOPE_FLUSH_MS", std::to_string(settings.flushMs));
    if (settings.delaySeconds > 0)
        env.emplace_back("WARPSCOPE_DELAY_MS", std::to_string(static_cast<uint64_t>(settings.delaySeconds * 1000)));
    if (settings.profilerApiRange)
        env.emplace_back("WARPSCOPE_CAPTURE_RANGE", "cudaProfilerApi");
    if (settings.durationSeconds > 0)
        env.emplace_back("WARPSCOPE_DURATION_MS",
                         std::to_string(static_cast<uint64_t>(settings.durationSeconds * 1000)));
    if (!settings.name.empty())
        env.emplace_back("WARPSCOPE_NAME", settings.name);
    if (settings.stackDepth > 0 && (settings.activityBits & wscap::ActStacks))
        env.emplace_back("WARPSCOPE_STACK_DEPTH", std::to_string(settings.stackDepth));
    if (wantsPythonHook(settings)) {
        // The hook directory goes first on PYTHONPATH; the target's own PYTHONPATH follows.
        std::string path = settings.outputDir + "/" + kTorchHookDir;
        if (const char* old = std::getenv("PYTHONPATH"); old && *old)
            path += std::string(":") + old;
        env.emplace_back("PYTHONPATH", path);
        if (settings.torchOps > 0)
            env.emplace_back("WARPSCOPE_TORCH_OPS", settings.torchOps > 1 ? "shapes" : "ops");
        if (settings.torchOps == 1) {
            // Operators without shapes go through PyTorch's ITT ranges into this library
            // (inject/ittrecorder.h); the ITT part loads the collector named here, taking the
            // functions of the groups named (ITT's tasks are in "structure").
            env.emplace_back("INTEL_LIBITTNOTIFY64", injectPath);
            env.emplace_back("INTEL_ITTNOTIFY_GROUPS", "structure");
        }
        if (!settings.stepFunction.empty())
            env.emplace_back("WARPSCOPE_STEP_FUNCTION", settings.stepFunction);
        if (settings.activityBits & (wscap::ActPyStacks | wscap::ActPySample))
            env.emplace_back("WARPSCOPE_PY_STACKS", "1"); // the sampler reads frames with the same walker
    }
    if (settings.pySampleHz > 0 && (settings.activityBits & wscap::ActPySample))
        env.emplace_back("WARPSCOPE_PY_SAMPLE_HZ", std::to_string(settings.pySampleHz));
    if (settings.pythonStackDepth > 0 && (settings.activityBits & wscap::ActPyStacks))
        env.emplace_back("WARPSCOPE_PY_STACK_DEPTH", std::to_string(settings.pythonStackDepth));
    return env;
}

bool wantsPythonHook(const CaptureSettings& settings) {
    return (settings.activityBits & (wscap::ActPyStacks | wscap::ActPySample)) ||
           ((settings.activityBits & wscap::ActNvtx) && (settings.torchOps > 0 || !settings.stepFunction.empty()));
}

bool prepareTorchHook(const CaptureSettings& settings, std::string* why) {
    if (!wantsPythonHook(settings))
        return true;
    const std::string dir = settings.outputDir + "/" + kTorchHookDir;
    if (!makeDirectories(dir, why))
        return false;
    const std::string file = dir + "/sitecustomize.py";
    FILE* f = std::fopen(file.c_str(), "w");
    if (!f || std::fputs(kTorchHook, f) < 0 || std::fclose(f) != 0) {
        *why = "cannot write " + file + ": " + std::strerror(errno);
        return false;
    }
    return true;
}

bool makeDirectories(const std::string& path, std::string* why) {
    for (size_t pos = 1; pos <= path.size(); ++pos) {
        if (pos != path.size() && path[pos] != '/')
            continue;
        const std::string prefix = path.substr(0, pos);
        if (::mkdir(prefix.c_str(), 0755) != 0 && errno != EEXIST) {
            *why = "cannot create " + prefix + ": " + std::strerror(errno);
            return false;
        }
    }
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
        *why = path + " exists and is not a directory";
        return false;
    }
    return true;
}

bool splitArguments(const std::string& text, std::vector<std::string>* args, std::string* error) {
    args->clear();
    std::string word;
    bool inWord = false;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == ' ' || c == '\t' || c == '\n') {
            if (inWord)
                args->push_back(std::move(word));
            word.clear();
            inWord = false;
            continue;
        }
        inWord = true;
        if (c == '\\') {
            if (i + 1 < text.size())
                word += text[++i];
        } else if (c == '\'') {
            const size_t end = text.find('\'', i + 1);
            if (end == std::string::npos) {
                *error = "unterminated single quote";
                return false;
            }
            word.append(text, i + 1, end - i - 1);
            i = end;
        } else if (c == '"') {
            size_t j = i + 1;
            for (; j < text.size() && text[j] != '"'; ++j) {
                if (text[j] == '\\' && j + 1 < text.size() &&
                    (text[j + 1] == '"' || text[j + 1] == '\\' || text[j + 1] == '$' || text[j + 1] == '`'))
                    ++j;
                word += text[j];
            }
            if (j >= text.size()) {
                *error = "unterminated double quote";
                return false;
            }
            i = j;
        } else {
            word += c;
        }
    }
    if (inWord)
        args->push_back(std::move(word));
    return true;
}

std::vector<std::string> captureFiles(const std::string& dir) {
    std::vector<std::string> files;
    DIR* d = ::opendir(dir.c_str());
    if (!d)
        return files;
    while (const dirent* e = ::readdir(d)) {
        const std::string name = e->d_name;
        if (name.size() > 6 && name.compare(name.size() - 6, 6, ".wscap") == 0)
            files.push_back(dir + "/" + name);
    }
    ::closedir(d);
    std::sort(files.begin(), files.end());
    return files;
}

} // namespace ws::capturesetup
