#include "inject/stackrecorder.h"

#include "format/wscapcodec.h"

#include <algorithm>
#include <climits>
#include <cstring>
#include <dlfcn.h>
#include <elf.h>
#include <execinfo.h>
#include <link.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace ws {

using namespace wscap;

namespace {

uint32_t threadId() {
    thread_local const uint32_t tid = static_cast<uint32_t>(::syscall(SYS_gettid));
    return tid;
}

uint64_t hashStack(const uint64_t* a, int n) {
    uint64_t h = 0x9e3779b97f4a7c15ull ^ static_cast<uint64_t>(n);
    for (int i = 0; i < n; ++i) {
        h ^= a[i] + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
        h *= 0xbf58476d1ce4e5b9ull;
    }
    return h;
}

std::string selfExe() {
    char buf[PATH_MAX];
    const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof(buf) - 1);
    return n > 0 ? std::string(buf, static_cast<size_t>(n)) : std::string();
}

// GNU build id from the object's PT_NOTE segments (mapped in memory with the first PT_LOAD).
std::string buildId(const dl_phdr_info* info) {
    for (int i = 0; i < info->dlpi_phnum; ++i) {
        const ElfW(Phdr)& ph = info->dlpi_phdr[i];
        if (ph.p_type != PT_NOTE)
            continue;
        const auto* p = reinterpret_cast<const uint8_t*>(info->dlpi_addr + ph.p_vaddr);
        const uint8_t* end = p + ph.p_memsz;
        while (p + sizeof(ElfW(Nhdr)) <= end) {
            ElfW(Nhdr) nh;
            std::memcpy(&nh, p, sizeof nh);
            const uint8_t* name = p + sizeof nh;
            const uint8_t* desc = name + ((nh.n_namesz + 3u) & ~3u);
            const uint8_t* next = desc + ((nh.n_descsz + 3u) & ~3u);
            if (next > end)
                break;
            if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 && std::memcmp(name, "GNU", 4) == 0) {
                static const char hex[] = "0123456789abcdef";
                std::string out;
                for (uint32_t k = 0; k < nh.n_descsz; ++k) {
                    out += hex[desc[k] >> 4];
                    out += hex[desc[k] & 15];
                }
                return out;
            }
            p = next;
        }
    }
    return {};
}

} // namespace

void StackRecorder::configure(int nativeDepth, int pythonDepth) {
    m_depth = std::clamp(nativeDepth, 0, kMaxFrames);
    m_pythonDepth = std::clamp(pythonDepth, 0, PythonStacks::kMaxFrames);
    if (m_configured)
        return;
    m_configured = true;
    // backtrace() loads libgcc_s and allocates on its first call: do that here, not in a launch.
    void* warm[4];
    ::backtrace(warm, 4);
    // This library's code leads every backtrace (the callback, this recorder): found by an address in it.
    const auto self = reinterpret_cast<uint64_t>(&hashStack);
    for (const Module& m : scanModules())
        if (self >= m.start && self < m.end) {
            m_selfStart = m.start;
            m_selfEnd = m.end;
        }
}

void StackRecorder::onCall(uint8_t domain, uint32_t cbid, uint32_t correlationId) {
    if (!m_enabled.load(std::memory_order_relaxed))
        return;
    try {
        record(domain, cbid, correlationId);
    } catch (...) {
        // Out of memory: this launch has no stack. Nothing may escape into CUDA.
    }
}

uint32_t StackRecorder::findStack(uint64_t hash, const uint64_t* addresses, int count) const {
    for (uint64_t key = hash;; ++key) {
        const auto it = m_stackIds.find(key);
        if (it == m_stackIds.end())
            return 0;
        const std::vector<uint64_t>& s = m_stacks[it->second - 1];
        if (s.size() == static_cast<size_t>(count) && std::equal(s.begin(), s.end(), addresses))
            return it->second;
    }
}

bool StackRecorder::covered(uint64_t address) const {
    auto it = std::upper_bound(m_modules.begin(), m_modules.end(), address,
                               [](uint64_t a, const Module& m) { return a < m.start; });
    return it != m_modules.begin() && address < std::prev(it)->end;
}

bool StackRecorder::takeStacks(uint32_t* native, uint32_t* python, std::string& pythonRecords) {
    // Reading Python frames can run a finalizer that launches work on this same thread: that inner
    // call gets no stack rather than re-entering the locks below.
    thread_local bool busy = false;
    *native = *python = 0;
    if (busy)
        return false;
    busy = true;
    struct Reset {
        ~Reset() { busy = false; }
    } reset;
    *native = m_depth > 0 ? nativeStack() : 0;
    // try_lock: a finalizer that releases the GIL while this thread reads frames could let another
    // Python thread launch and wait here for a lock whose holder waits for the GIL. Such a call (rare)
    // goes without a Python stack instead.
    std::unique_lock<std::mutex> pythonLock(m_pythonMutex, std::defer_lock);
    if (m_pythonDepth > 0 && pythonLock.try_lock())
        *python = m_python.capture(m_pythonDepth, pythonRecords);
    return true;
}

void StackRecorder::record(uint8_t domain, uint32_t cbid, uint32_t correlationId) {
    uint32_t native = 0, python = 0;
    std::string pythonRecords;
    if (!takeStacks(&native, &python, pythonRecords) || (native == 0 && python == 0))
        return;
    std::lock_guard<std::mutex> lock(m_mutex);
    m_pending += pythonRecords; // definitions before the CallStack that names them
    appendRecord(m_pending, CallStackRecord{correlationId, native, domain, cbid, threadId(), python});
    m_launches.fetch_add(1, std::memory_order_relaxed);
}

void StackRecorder::stacksNow(uint32_t* native, uint32_t* python) {
    *native = *python = 0;
    if (!m_configured)
        return;
    try {
        std::string pythonRecords;
        if (!takeStacks(native, python, pythonRecords))
            return;
        std::lock_guard<std::mutex> lock(m_mutex);
        m_pending += pythonRecords;
    } catch (...) {
        *native = *python = 0; // out of memory: no stack; nothing may escape into CUDA
    }
}

uint32_t StackRecorder::nativeStack() {
    constexpr int kExtra = 8; // room for this library's and CUPTI's frames on top
    void* frames[kMaxFrames + kExtra];
    // Unwinding is the cost (a DWARF lookup per frame): stop once m_depth frames past our own are in.
    const int n = ::backtrace(frames, std::min(kMaxFrames + kExtra, m_depth + kExtra));
    uint64_t addresses[kMaxFrames + kExtra];
    int count = 0;
    bool leading = true;
    for (int i = 0; i < n && count < m_depth; ++i) {
        const auto a = reinterpret_cast<uint64_t>(frames[i]);
        if (leading && a >= m_selfStart && a < m_selfEnd)
            continue;
        leading = false;
        addresses[count++] = a;
    }
    if (count == 0)
        return 0;
    const uint64_t hash = hashStack(addresses, count);
    std::unique_lock<std::mutex> lock(m_mutex);
    uint32_t id = findStack(hash, addresses, count);
    if (id != 0)
        return id;
    const bool allKnown =
        !m_modules.empty() && std::all_of(addresses, addresses + count, [&](uint64_t a) { return covered(a); });
    if (!allKnown) {
        // Has the loader mapped anything since the last scan? (dlpi_adds counts every load.)
        const bool never = m_modules.empty();
        const unsigned long long lastAdds = m_loaderAdds;
        lock.unlock();
        unsigned long long adds = 0;
        ::dl_iterate_phdr(
            [](dl_phdr_info* info, size_t size, void* out) {
                if (size >= offsetof(dl_phdr_info, dlpi_adds) + sizeof(info->dlpi_adds))
                    *static_cast<unsigned long long*>(out) = info->dlpi_adds;
                return 1;
            },
            &adds);
        const bool rescan = never || adds != lastAdds;
        std::vector<Module> scanned;
        if (rescan)
            scanned = scanModules();
        lock.lock();
        if (rescan) {
            m_loaderAdds = adds;
            mergeModules(std::move(scanned));
        }
        id = findStack(hash, addresses, count); // another thread may have defined it meanwhile
        if (id != 0)
            return id;
    }
    m_stacks.emplace_back(addresses, addresses + count);
    id = static_cast<uint32_t>(m_stacks.size());
    uint64_t key = hash;
    while (m_stackIds.count(key))
        ++key;
    m_stackIds.emplace(key, id);
    StackDefRecord def;
    def.stackId = id;
    def.addresses = m_stacks.back();
    appendRecord(m_pending, def);
    return id;
}

std::vector<StackRecorder::Module> StackRecorder::scanModules() {
    struct Scan {
        std::vector<Module> modules;
        bool first = true;
    } scan;
    ::dl_iterate_phdr(
        [](dl_phdr_info* info, size_t, void* p) {
            auto* s = static_cast<Scan*>(p);
            const bool mainProgram = s->first;
            s->first = false;
            Module m;
            m.start = UINT64_MAX;
            for (int i = 0; i < info->dlpi_phnum; ++i) {
                const ElfW(Phdr)& ph = info->dlpi_phdr[i];
                if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_X))
                    continue;
                m.start = std::min<uint64_t>(m.start, info->dlpi_addr + ph.p_vaddr);
                m.end = std::max<uint64_t>(m.end, info->dlpi_addr + ph.p_vaddr + ph.p_memsz);
            }
            if (m.start >= m.end)
                return 0;
            m.loadBias = info->dlpi_addr;
            m.path = info->dlpi_name ? info->dlpi_name : "";
            if (m.path.empty() && mainProgram)
                m.path = selfExe();
            m.buildId = buildId(info);
            s->modules.push_back(std::move(m));
            return 0;
        },
        &scan);
    return scan.modules;
}

void StackRecorder::mergeModules(std::vector<Module>&& scanned) {
    for (Module& m : scanned) {
        const auto same = std::find_if(m_modules.begin(), m_modules.end(), [&](const Module& k) {
            return k.start == m.start && k.end == m.end && k.path == m.path;
        });
        if (same != m_modules.end())
            continue;
        ModuleRecord r;
        r.moduleId = m_nextModuleId++;
        r.loadBias = m.loadBias;
        r.start = m.start;
        r.size = m.end - m.start;
        r.path = m.path;
        r.buildId = m.buildId;
        appendRecord(m_pending, r);
        // A module unloaded and replaced by another at the same place: the newer one wins lookups.
        m_modules.erase(std::remove_if(m_modules.begin(), m_modules.end(),
                                       [&](const Module& k) { return k.start < m.end && m.start < k.end; }),
                        m_modules.end());
        m_modules.push_back(std::move(m));
    }
    std::sort(m_modules.begin(), m_modules.end(), [](const Module& a, const Module& b) { return a.start < b.start; });
}

void StackRecorder::take(std::string& out) {
    std::string pending;
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        pending.swap(m_pending);
    }
    out += pending;
}

} // namespace ws
