// Python stacks without the GIL (issue #25): the frame reader checks this python3's layout and reads
// a thread's frames while the GIL is released, with names (non-ASCII too), files and lines as the
// interpreter's own traceback module gives them, on the main thread and another.
#include "wscapfixtures.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>

namespace {

constexpr const char* kProgram = R"PY(import ctypes, sys, threading
probe = ctypes.PyDLL(sys.argv[1])          # PyDLL: the GIL stays held, as the hook's attach
probe.wscap_probe.restype = ctypes.c_char_p
walk = ctypes.CDLL(sys.argv[1]).wscap_walk  # CDLL: the GIL is released, as in a CUDA launch
walk.restype = ctypes.c_char_p


class Hook:
    def attach(self):
        return probe.wscap_probe().decode()


print("probe:", Hook().attach())
if sys.version_info < (3, 11) or sys.version_info >= (3, 14):
    sys.exit(0)


def expected():
    # What the walk must read: the caller's stack as the interpreter gives it, innermost first.
    f, out = sys._getframe(1), []
    while f:
        out.append("%s %s:%d\n" % (f.f_code.co_qualname, f.f_code.co_filename, f.f_lineno))
        f = f.f_back
    return "".join(out)


def launch():
    got, want = walk().decode(), expected()
    return got, want


class Linear:
    def forward(self):
        return launch()


def étape():
    return Linear().forward()


got, want = étape()
print("main", got == want)
if got != want:
    print(got, want, sep="---\n")


def worker():
    got, want = Linear().forward()
    print("thread", got == want)
    if got != want:
        print(got, want, sep="---\n")


t = threading.Thread(target=worker)
t.start()
t.join()
)PY";

} // namespace

TEST(PyFrameWalker, ReadsTheStackWithoutTheGil) {
    if (std::system("python3 -c 'import sys' 2>/dev/null") != 0)
        GTEST_SKIP() << "python3 is not installed";
    const std::string root = wstest::tempPath("pyframe");
    std::system(("rm -rf '" + root + "' && mkdir -p '" + root + "'").c_str());
    std::ofstream(root + "/program.py") << kProgram;
    const std::string out = root + "/out.txt";
    ASSERT_EQ(std::system(("python3 '" + root + "/program.py' '" WSCAP_PYFRAME_PROBE "' > '" + out + "' 2>&1").c_str()), 0)
        << wstest::readFile(out);
    const std::string text = wstest::readFile(out);
    if (std::system("python3 -c 'import sys; sys.exit(0 if (3, 11) <= sys.version_info < (3, 14) else 1)'") != 0) {
        // Another version: the walker declines and says why (the profile function is used instead).
        EXPECT_NE(text.find("probe: reading frames needs CPython 3.11 to 3.13"), std::string::npos) << text;
        return;
    }
    EXPECT_NE(text.find("probe: ok\n"), std::string::npos) << text;
    EXPECT_NE(text.find("main True\n"), std::string::npos) << text;
    EXPECT_NE(text.find("thread True\n"), std::string::npos) << text;
}

namespace {

// The sampler (issue #27): with the GIL released, another thread reads every Python thread's stack
// as it runs: a thread spinning in pure Python (holding the GIL most of the time) and one blocked in
// Event.wait (never holding it), each under its OS thread id.
constexpr const char* kSamplingProgram = R"PY(import ctypes, sys, threading, time
probe = ctypes.PyDLL(sys.argv[1])
probe.wscap_probe.restype = ctypes.c_char_p
probe.wscap_probe_sampling.restype = ctypes.c_char_p
sample = ctypes.CDLL(sys.argv[1]).wscap_sample  # CDLL: the GIL is released while it samples
sample.restype = ctypes.c_char_p

class Hook:
    def attach(self):
        return probe.wscap_probe().decode()
print("probe:", Hook().attach())
if sys.version_info < (3, 11) or sys.version_info >= (3, 14):
    sys.exit(0)
print("sampling:", probe.wscap_probe_sampling().decode())
stop = threading.Event()
stopping = False  # a plain flag: stop.is_set() is a Python call, which a sample could catch innermost
ids = {}
def busy_loop():
    ids["busy"] = threading.get_native_id()
    x = 0
    while not stopping:
        for i in range(1000):
            x += i * i
def waiting_room():
    ids["waiting"] = threading.get_native_id()
    stop.wait()  # the waiting line
threads = [threading.Thread(target=busy_loop), threading.Thread(target=waiting_room)]
for t in threads: t.start()
time.sleep(0.1)
lines = []
for _ in range(50):
    lines += sample(2000).decode().splitlines()
    time.sleep(0.001)
stopping = True
stop.set()
for t in threads: t.join()
busy = [l for l in lines if l.startswith(str(ids["busy"]) + " ")]
waiting = [l for l in lines if l.startswith(str(ids["waiting"]) + " ")]
wait_line = [n for n, text in enumerate(open(__file__), 1) if text.endswith("# the waiting line\n")][0]
print("busy", len(busy), sum(l.split(" ", 2)[2].startswith("busy_loop:") and ";Thread.run:" in l for l in busy),
      sum(l.split()[1] == "1" for l in busy), sum(l.split()[1] == "-1" for l in busy))
print("waiting", len(waiting), sum((";waiting_room:%d;Thread.run:" % wait_line) in l for l in waiting),
      sum(l.split()[1] == "1" for l in waiting))
)PY";

} // namespace

TEST(PyFrameWalker, SamplesOtherThreadsAsTheyRun) {
    if (std::system("python3 -c 'import sys; sys.exit(0 if (3, 11) <= sys.version_info < (3, 14) else 1)'") != 0)
        GTEST_SKIP() << "needs CPython 3.11 to 3.13";
    const std::string root = wstest::tempPath("pysample");
    std::system(("rm -rf '" + root + "' && mkdir -p '" + root + "'").c_str());
    std::ofstream(root + "/program.py") << kSamplingProgram;
    const std::string out = root + "/out.txt";
    ASSERT_EQ(std::system(("python3 '" + root + "/program.py' '" WSCAP_PYFRAME_PROBE "' > '" + out + "' 2>&1").c_str()), 0)
        << wstest::readFile(out);
    const std::string text = wstest::readFile(out);
    // Thread ids, the GIL, lines and the data stack chunk found.
    EXPECT_NE(text.find("sampling: ok (stack window)\n"), std::string::npos) << text;
    // 50 samples of each thread, every one with its whole stack (and the waiting thread's line).
    EXPECT_NE(text.find("waiting 50 50 0\n"), std::string::npos) << text;
    int busy = 0, stacks = 0, holding = 0, unknown = 0;
    ASSERT_EQ(std::sscanf(text.substr(text.find("busy ")).c_str(), "busy %d %d %d %d", &busy, &stacks, &holding, &unknown), 4) << text;
    EXPECT_EQ(busy, 50) << text;
    EXPECT_EQ(stacks, 50) << text;
    EXPECT_EQ(unknown, 0) << text;
    // It spins with the GIL whenever the main thread is in the sampler: about half the samples on a
    // quiet machine, fewer when other processes keep it off a core (a loaded 2-core CI run failed
    // at 25). A walker that cannot see the GIL's holder reads 0.
    EXPECT_GE(holding, 5) << text;
}
