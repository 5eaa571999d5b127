// wscap_stack_probe: writes a capture stream holding its own native call stack, as the injection
// library's "stacks" activity would (Module records from dl_iterate_phdr, a StackDef from
// backtrace(), a CallStack), so the symbolizer can be tested on a real binary with debug info
// without a GPU. Built with -g -O0 so every line below is where the debug info says it is.
//
//   wscap_stack_probe FILE   write FILE
//   wscap_stack_probe        write $WARPSCOPE_OUTPUT/<host>-<pid>.wscap (as under warpscope-capture)
//
// A String record (id 1) holds "<file>:<line of the probeLeaf call in probeMiddle>", and (id 2)
// "<line of the probeMiddle call in main>", the truth the tests compare addr2line's answer with.

#include "format/wscapwriter.h"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <execinfo.h>
#include <link.h>
#include <string>
#include <unistd.h>

using namespace ws::wscap;

namespace {

std::string g_records;

struct Scan {
    bool first = true;
    uint32_t nextId = 1;
};

void addModules() {
    Scan scan;
    dl_iterate_phdr(
        [](dl_phdr_info* info, size_t, void* p) {
            auto* s = static_cast<Scan*>(p);
            const bool mainProgram = s->first;
            s->first = false;
            uint64_t lo = UINT64_MAX, hi = 0;
            for (int i = 0; i < info->dlpi_phnum; ++i) {
                const ElfW(Phdr)& ph = info->dlpi_phdr[i];
                if (ph.p_type == PT_LOAD && (ph.p_flags & PF_X)) {
                    lo = std::min<uint64_t>(lo, info->dlpi_addr + ph.p_vaddr);
                    hi = std::max<uint64_t>(hi, info->dlpi_addr + ph.p_vaddr + ph.p_memsz);
                }
            }
            if (lo >= hi)
                return 0;
            ModuleRecord m;
            m.moduleId = s->nextId++;
            m.loadBias = info->dlpi_addr;
            m.start = lo;
            m.size = hi - lo;
            m.path = info->dlpi_name ? info->dlpi_name : "";
            if (mainProgram) {
                char buf[PATH_MAX];
                const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
                m.path = n > 0 ? std::string(buf, static_cast<size_t>(n)) : std::string();
            }
            appendRecord(g_records, m);
            return 0;
        },
        &scan);
}

__attribute__((noinline)) void probeLeaf() {
    void* frames[32];
    const int n = ::backtrace(frames, 32);
    StackDefRecord def;
    def.stackId = 1;
    for (int i = 0; i < n; ++i)
        def.addresses.push_back(reinterpret_cast<uint64_t>(frames[i]));
    appendRecord(g_records, def);
    appendRecord(g_records, CallStackRecord{77, 1, 0, 211, static_cast<uint32_t>(::getpid())});
}

__attribute__((noinline)) void probeMiddle() {
    appendRecord(g_records, StringRecord{1, std::string(__FILE__) + ":" + std::to_string(__LINE__ + 1)});
    probeLeaf();
}

} // namespace

int main(int argc, char** argv) {
    std::string path;
    const char* out = std::getenv("WARPSCOPE_OUTPUT");
    if (argc > 1) {
        path = argv[1];
    } else if (!out) {
        std::fprintf(stderr, "usage: wscap_stack_probe FILE\n");
        return 2;
    }
    StreamHeaderRecord h;
    h.pid = static_cast<uint32_t>(::getpid());
    h.activities = ActKernel | ActRuntime | ActStacks;
    appendRecord(g_records, h);
    addModules();
    appendRecord(g_records, StringRecord{2, std::to_string(__LINE__ + 1)});
    probeMiddle();
    appendRecord(g_records, FooterRecord{});
    WscapWriter w;
    std::string error;
    char host[256] = {};
    ::gethostname(host, sizeof(host) - 1);
    const bool opened = !path.empty() ? w.open(path, &error)
                                      : w.createNew(out, streamStem(host, static_cast<uint32_t>(::getpid())), &path, &error);
    if (!opened || !w.write(g_records, &error)) {
        std::fprintf(stderr, "%s\n", error.c_str());
        return 1;
    }
    return 0;
}
