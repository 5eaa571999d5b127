// Python stacks without the GIL (issue #25): the frame reader checks this python3's layout and reads
// a thread's frames while the GIL is released, with names (non-ASCII too), files and lines as the
// interpreter's own traceback module gives them, on the main thread and another.
#include "wscapfixtures.h"

#include <gtest/gtest.h>

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
