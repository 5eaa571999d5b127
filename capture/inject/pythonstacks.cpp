#include "inject/pythonstacks.h"

#include "format/wscapcodec.h"
#include "inject/pyframewalker.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <dlfcn.h>
#include <mutex>
#include <unordered_set>

namespace ws {

using namespace wscap;

namespace {

using PyObj = void; // CPython's PyObject, used only through pointers
using ProfileFunc = int (*)(PyObj*, PyObj*, int, PyObj*);

// PyTrace_* event codes (Include/cpython/pystate.h), stable since Python 2.
constexpr int kCall = 0, kReturn = 3, kCCall = 4;

template <class F> F lookup(const char* name) {
    return reinterpret_cast<F>(::dlsym(RTLD_DEFAULT, name));
}

// The slice of CPython's API this needs. Every entry exists since 3.9 except getLasti (3.11),
// addr2Line (3.10) and setProfileAllThreads (3.12), which are optional.
struct Api {
    int (*isInitialized)() = nullptr;
    PyObj* (*frameGetCode)(PyObj*) = nullptr; // new reference
    int (*frameGetLineNumber)(PyObj*) = nullptr;
    int (*frameGetLasti)(PyObj*) = nullptr;
    int (*addr2Line)(PyObj*, int) = nullptr;
    void (*incRef)(PyObj*) = nullptr;
    void (*decRef)(PyObj*) = nullptr;
    PyObj* (*getAttrString)(PyObj*, const char*) = nullptr;
    const char* (*unicodeAsUtf8)(PyObj*) = nullptr;
    void (*errFetch)(PyObj**, PyObj**, PyObj**) = nullptr;
    void (*errRestore)(PyObj*, PyObj*, PyObj*) = nullptr;
    void (*setProfile)(ProfileFunc, PyObj*) = nullptr;
    void (*setProfileAllThreads)(ProfileFunc, PyObj*) = nullptr;

    bool resolve() {
        isInitialized = lookup<decltype(isInitialized)>("Py_IsInitialized");
        frameGetCode = lookup<decltype(frameGetCode)>("PyFrame_GetCode");
        frameGetLineNumber = lookup<decltype(frameGetLineNumber)>("PyFrame_GetLineNumber");
        frameGetLasti = lookup<decltype(frameGetLasti)>("PyFrame_GetLasti");
        addr2Line = lookup<decltype(addr2Line)>("PyCode_Addr2Line");
        incRef = lookup<decltype(incRef)>("Py_IncRef");
        decRef = lookup<decltype(decRef)>("Py_DecRef");
        getAttrString = lookup<decltype(getAttrString)>("PyObject_GetAttrString");
        unicodeAsUtf8 = lookup<decltype(unicodeAsUtf8)>("PyUnicode_AsUTF8");
        errFetch = lookup<decltype(errFetch)>("PyErr_Fetch");
        errRestore = lookup<decltype(errRestore)>("PyErr_Restore");
        setProfile = lookup<decltype(setProfile)>("PyEval_SetProfile");
        setProfileAllThreads = lookup<decltype(setProfileAllThreads)>("PyEval_SetProfileAllThreads");
        if (!frameGetLasti || !addr2Line) // positions need both; otherwise lines are read at each call
            frameGetLasti = nullptr;
        return isInitialized && frameGetCode && frameGetLineNumber && incRef && decRef && getAttrString &&
               unicodeAsUtf8 && errFetch && errRestore && setProfile;
    }
};

Api g_api;
std::atomic<bool> g_attached{false};
// Frames read directly at each call (the walker), or kept by the profile function when the walker
// does not know this interpreter.
PyFrameWalker g_walker;
std::atomic<bool> g_walking{false};

struct CodeInfo {
    std::string function;
    std::string file;
    uint64_t fingerprint = 0; // the walker's identity of the code object at this address
};
// Names of every code object seen, written under the GIL, read by launches on any thread.
std::mutex g_codesMutex;
std::unordered_map<const void*, CodeInfo> g_codes;

// One Python frame of a thread's shadow stack. frame is used only under the GIL (in the profile
// function); code and the position are what a launch reads.
struct ShadowFrame {
    PyObj* frame;
    const void* code;
    int lasti; // byte offset of the current call (3.11+), -1 before the first
    int line;  // line of the current call when there is no lasti
};

struct Shadow {
    std::vector<ShadowFrame> frames;
    std::unordered_set<const void*> knownCodes; // this thread's cache of g_codes' keys
};

Shadow& shadow() {
    thread_local Shadow s;
    return s;
}

void remember(PyObj* code, Shadow& t) {
    if (t.knownCodes.count(code))
        return;
    t.knownCodes.insert(code);
    {
        std::lock_guard<std::mutex> lock(g_codesMutex);
        if (g_codes.count(code))
            return;
    }
    const Api& a = g_api;
    // Reading attributes may set a Python error; whatever error the thread had stays as it was.
    PyObj *type = nullptr, *value = nullptr, *trace = nullptr;
    a.errFetch(&type, &value, &trace);
    auto text = [&](const char* attribute) {
        std::string s;
        if (PyObj* o = a.getAttrString(code, attribute)) {
            if (const char* utf8 = a.unicodeAsUtf8(o))
                s = utf8;
            a.decRef(o);
        }
        PyObj *et = nullptr, *ev = nullptr, *etb = nullptr; // drop an AttributeError of an older Python
        a.errFetch(&et, &ev, &etb);
        for (PyObj* e : {et, ev, etb})
            if (e)
                a.decRef(e);
        return s;
    };
    CodeInfo info;
    info.function = text("co_qualname"); // 3.11+: "Linear.forward" rather than "forward"
    if (info.function.empty())
        info.function = text("co_name");
    info.file = text("co_filename");
    a.errRestore(type, value, trace);
    a.incRef(code); // kept alive, so no other code object can reuse this address as a key
    std::lock_guard<std::mutex> lock(g_codesMutex);
    g_codes.emplace(code, std::move(info));
}

void setPosition(ShadowFrame& f) {
    if (g_api.frameGetLasti)
        f.lasti = g_api.frameGetLasti(f.frame);
    else
        f.line = g_api.frameGetLineNumber(f.frame);
}

// The profile function: GIL held, on the thread whose stack changes. Never raises.
int onProfile(PyObj*, PyObj* frame, int what, PyObj*) {
    if (!frame)
        return 0;
    Shadow& t = shadow();
    switch (what) {
    case kCall: {
        if (!t.frames.empty())
            setPosition(t.frames.back()); // the caller's position is this call
        PyObj* code = g_api.frameGetCode(frame);
        if (!code)
            return 0;
        remember(code, t);
        g_api.decRef(code); // g_codes holds its own reference
        t.frames.push_back(ShadowFrame{frame, code, -1, 0});
        return 0;
    }
    case kReturn: {
        // Normally the top; after a frame missed its return (profiling switched on mid-call), unwind to it.
        for (size_t i = t.frames.size(); i-- > 0;)
            if (t.frames[i].frame == frame) {
                t.frames.resize(i);
                break;
            }
        return 0;
    }
    case kCCall:
        if (!t.frames.empty() && t.frames.back().frame == frame)
            setPosition(t.frames.back());
        return 0;
    default: return 0;
    }
}

// Ids shared by every instance writing into this process's stream.
std::atomic<uint32_t> g_nextFrameId{1};
std::atomic<uint32_t> g_nextStackId{1};

uint64_t hashFrames(const uint64_t* ids, int n) {
    uint64_t h = 0xcbf29ce484222325ull ^ static_cast<uint64_t>(n);
    for (int i = 0; i < n; ++i) {
        h ^= ids[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

} // namespace

bool PythonStacks::attach(bool forSampling, std::string* why) {
    if (g_attached)
        return true;
    if (!g_api.resolve() || !g_api.isInitialized()) {
        *why = "no usable CPython (3.9 or later) in this process";
        return false;
    }
    std::string walkerWhy;
    if (g_api.addr2Line && g_walker.probe(&walkerWhy)) {
        if (forSampling)
            g_walker.probeSampling(why); // before g_walking: the sampler starts once both are set
        g_walking = true;
        g_attached = true;
        return true;
    }
    std::fprintf(stderr, "[warpscope] note: Python stacks are kept by a profile function on every Python call "
                         "(slower): %s\n", walkerWhy.c_str());
    if (g_api.setProfileAllThreads)
        g_api.setProfileAllThreads(&onProfile, nullptr);
    else
        g_api.setProfile(&onProfile, nullptr); // before 3.12: the attaching (main) thread only
    g_attached = true;
    return true;
}

bool PythonStacks::attached() { return g_attached.load(std::memory_order_relaxed); }

const PyFrameWalker* PythonStacks::walker() { return g_walking.load() ? &g_walker : nullptr; }

// fingerprint: with the walker, code objects are not kept alive: a later one at the same address
// differs in its fingerprint, so it is a key too (0 without the walker).
uint32_t PythonStacks::frameId(const void* code, int lasti, int line, bool foreign, uint64_t fingerprint,
                               std::string& out) {
    const Position key{code, lasti >= 0 ? lasti : -1 - line, fingerprint};
    if (const auto it = m_byPosition.find(key); it != m_byPosition.end())
        return it->second;
    // The calling thread's own code objects stay alive while it is inside the CUDA call, so the
    // interpreter reads their line table; another thread's (the sampler's) may die at any moment (a
    // module's top-level code right after its import), so its table is copied with a safe read.
    if (foreign)
        line = g_walker.lineForeign(code, lasti);
    else if (lasti >= 0 || g_walking)
        line = g_api.addr2Line(const_cast<void*>(code), lasti);
    CodeInfo info;
    {
        std::lock_guard<std::mutex> lock(g_codesMutex);
        if (const auto it = g_codes.find(code); it != g_codes.end())
            info = it->second;
    }
    if (g_walking && (info.fingerprint != fingerprint || info.file.empty())) {
        info = CodeInfo{};
        if (foreign) {
            if (!g_walker.describeForeign(code, &info.function, &info.file))
                return 0; // gone meanwhile: the sampler drops the frame
        } else {
            g_walker.describe(code, &info.function, &info.file);
        }
        info.fingerprint = fingerprint;
        std::lock_guard<std::mutex> lock(g_codesMutex);
        g_codes[code] = info;
    }
    std::string text = std::to_string(line);
    text += '\0';
    text += info.file;
    text += '\0';
    text += info.function;
    uint32_t id;
    if (const auto it = m_frameIds.find(text); it != m_frameIds.end()) {
        id = it->second;
    } else {
        id = g_nextFrameId.fetch_add(1, std::memory_order_relaxed);
        m_frameIds.emplace(std::move(text), id);
        PyFrameRecord r;
        r.frameId = id;
        r.line = line > 0 ? static_cast<uint32_t>(line) : 0;
        r.function = info.function;
        r.file = info.file;
        appendRecord(out, r);
    }
    m_byPosition.emplace(key, id);
    return id;
}

uint32_t PythonStacks::capture(int depth, std::string& out) {
    if (!attached())
        return 0;
    uint64_t ids[kMaxFrames];
    int n = 0;
    const int limit = std::clamp(depth, 1, kMaxFrames);
    if (g_walking) {
        // Per thread, not on the stack: Frame's member initializers would zero 4 KB at every launch.
        thread_local PyFrameWalker::Frame frames[PyFrameWalker::kMaxDepth];
        const int walked = g_walker.walk(frames, std::min(limit, PyFrameWalker::kMaxDepth));
        uint64_t key[3 * PyFrameWalker::kMaxDepth];
        uint64_t hash = 0xcbf29ce484222325ull ^ static_cast<uint64_t>(walked);
        for (int i = 0; i < walked; ++i) {
            frames[i].fingerprint = g_walker.fingerprint(frames[i].code);
            const uint64_t parts[3] = {reinterpret_cast<uint64_t>(frames[i].code), static_cast<uint64_t>(frames[i].lasti),
                                       frames[i].fingerprint};
            for (int k = 0; k < 3; ++k) {
                key[3 * i + k] = parts[k];
                hash = (hash ^ parts[k]) * 0x100000001b3ull;
            }
        }
        std::vector<Walk>& seen = m_byWalk[hash];
        for (const Walk& w : seen)
            if (w.key.size() == static_cast<size_t>(3 * walked) && std::equal(w.key.begin(), w.key.end(), key))
                return w.stackId;
        for (int i = 0; i < walked; ++i)
            ids[n++] = frameId(frames[i].code, frames[i].lasti, 0, false, frames[i].fingerprint, out);
        const uint32_t id = stackId(ids, n, out);
        seen.push_back(Walk{std::vector<uint64_t>(key, key + 3 * walked), id});
        return id;
    } else {
        const std::vector<ShadowFrame>& frames = shadow().frames;
        for (size_t i = frames.size(); i-- > 0 && n < limit;)
            ids[n++] = frameId(frames[i].code, frames[i].lasti, frames[i].line, false, 0, out);
    }
    return stackId(ids, n, out);
}

uint32_t PythonStacks::stackOf(const PyFrameWalker::Frame* frames, int n, std::string& out) {
    uint64_t ids[kMaxFrames];
    int kept = 0;
    for (int i = 0; i < n && kept < kMaxFrames; ++i)
        if (const uint32_t id = frameId(frames[i].code, frames[i].lasti, 0, true, frames[i].fingerprint, out))
            ids[kept++] = id;
    return stackId(ids, kept, out);
}

uint32_t PythonStacks::stackId(const uint64_t* ids, int n, std::string& out) {
    if (n == 0)
        return 0;
    const uint64_t hash = hashFrames(ids, n);
    std::vector<uint32_t>& candidates = m_stackIdsByHash[hash];
    for (uint32_t id : candidates) {
        const std::vector<uint64_t>& s = m_stacks.at(id);
        if (s.size() == static_cast<size_t>(n) && std::equal(s.begin(), s.end(), ids))
            return id;
    }
    const uint32_t id = g_nextStackId.fetch_add(1, std::memory_order_relaxed);
    std::vector<uint64_t>& stack = m_stacks[id];
    stack.assign(ids, ids + n);
    candidates.push_back(id);
    PyStackRecord r;
    r.stackId = id;
    r.frameIds = stack;
    appendRecord(out, r);
    return id;
}

} // namespace ws
