#include "inject/pyframewalker.h"

#include "inject/pylinetable.h"
#include "inject/saferead.h"

#include <algorithm>
#include <cstring>
#include <dlfcn.h>
#include <type_traits>
#include <unistd.h>
#include <vector>

namespace ws {

namespace {

using PyObj = void; // CPython's PyObject, only through pointers

template <class T> T load(const void* base, int offset) {
    T v;
    std::memcpy(&v, static_cast<const char*>(base) + offset, sizeof v);
    return v;
}

template <class F> F lookup(const char* name) { return reinterpret_cast<F>(::dlsym(RTLD_DEFAULT, name)); }

// Layouts of CPython's internals by minor version (Include/internal/pycore_frame.h, cpython/pystate.h,
// cpython/unicodeobject.h); probe() checks each against the public API before any is used.
struct Layout {
    int frameCode, framePrevious, frameInstr, frameOwner; // _PyInterpreterFrame; owner -1: none
    bool viaCframe;                                       // tstate->cframe->current_frame (3.11, 3.12)
    int cframeFrame;                                      // offset of current_frame in _PyCFrame
    int asciiData, compactData;                           // sizeof(PyASCIIObject), sizeof(PyCompactUnicodeObject)
};
constexpr Layout kLayout311{32, 48, 56, -1, true, 8, 48, 72};
constexpr Layout kLayout312{0, 8, 56, 70, true, 0, 40, 56};
constexpr Layout kLayout313{0, 8, 56, 70, false, 0, 40, 56};
constexpr char kOwnedByCStack = 3; // FRAME_OWNED_BY_CSTACK (3.12+): the interpreter's entry shim frames
constexpr int kPyFrameObjectFFrame = 24; // PyFrameObject.f_frame, after PyObject_HEAD and f_back
constexpr int kObType = 8;               // PyObject.ob_type

void appendUtf8(std::string& out, uint32_t cp) {
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xc0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xe0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
        out += static_cast<char>(0x80 | (cp & 0x3f));
    } else {
        out += static_cast<char>(0xf0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
        out += static_cast<char>(0x80 | (cp & 0x3f));
    }
}

// The public API probe() checks against (all present since 3.11).
struct ProbeApi {
    PyObj* (*getFrame)() = lookup<PyObj* (*)()>("PyEval_GetFrame");          // borrowed
    PyObj* (*frameBack)(PyObj*) = lookup<PyObj* (*)(PyObj*)>("PyFrame_GetBack"); // new reference
    PyObj* (*frameCode)(PyObj*) = lookup<PyObj* (*)(PyObj*)>("PyFrame_GetCode"); // new reference
    int (*frameLasti)(PyObj*) = lookup<int (*)(PyObj*)>("PyFrame_GetLasti");
    PyObj* (*getAttr)(PyObj*, const char*) = lookup<PyObj* (*)(PyObj*, const char*)>("PyObject_GetAttrString");
    const char* (*utf8)(PyObj*) = lookup<const char* (*)(PyObj*)>("PyUnicode_AsUTF8");
    void (*decRef)(PyObj*) = lookup<void (*)(PyObj*)>("Py_DecRef");
    void (*errClear)() = lookup<void (*)()>("PyErr_Clear");
    bool complete() const { return getFrame && frameBack && frameCode && frameLasti && getAttr && utf8 && decRef && errClear; }

    // Visits the calling thread's frame objects, innermost first, at most max.
    template <class Visit> void forEachFrame(size_t max, Visit visit) const {
        PyObj* held = nullptr; // the frame object we own a reference to (the first is borrowed)
        size_t n = 0;
        for (PyObj* f = getFrame(); f && n < max; ++n) {
            visit(f);
            PyObj* back = frameBack(f);
            if (held)
                decRef(held);
            held = f = back;
        }
        if (held)
            decRef(held);
    }
};

} // namespace

namespace {

// How the walker reads memory: directly (the calling thread's own frames, which cannot change while
// it is inside the CUDA call) or through safeRead (another thread's, which can).
struct DirectMemory {
    static bool read(const void* address, void* out, size_t n) {
        std::memcpy(out, address, n);
        return true;
    }
};
struct SafeMemory {
    static bool read(const void* address, void* out, size_t n) { return safeRead(address, out, n); }
};
template <class M, class T> bool get(const void* base, long offset, T* out) {
    return base && M::read(static_cast<const char*>(base) + offset, out, sizeof(T));
}

} // namespace

template <class M> const void* PyFrameWalker::currentFrameWith(const void* tstate) const {
    const void* p = nullptr;
    if (!get<M>(tstate, m_tstateFrame, &p))
        return nullptr;
    if (m_viaCframe && p && !get<M>(p, m_cframeFrame, &p))
        return nullptr;
    return p;
}

template <class M>
int PyFrameWalker::walkFrom(const void* frame, Frame* out, int max, const Frame* previous, int previousCount,
                            const Window* window) const {
    constexpr bool foreign = !std::is_same_v<M, DirectMemory>;
    // The fields of one _PyInterpreterFrame in one read (one system call per frame for another thread).
    const int span = std::max({m_frameCode, m_framePrevious, m_frameInstr, m_frameOwner}) + 8;
    char block[128];
    const char* f = static_cast<const char*>(frame);
    int n = 0, seen = 0; // previous[seen...]: where the next frame can be (both walks go outwards)
    for (int guard = 0; f && n < max && guard < 4 * kMaxDepth && span <= static_cast<int>(sizeof block); ++guard) {
        // The calling thread's own frames are read in place: a copy of each frame first cost a
        // variable-length memcpy per frame, at every launch (issue #48: the eager decode loop).
        const char* fields = f;
        if constexpr (foreign) {
            if (window && f >= window->lo && f + span <= window->hi)
                std::memcpy(block, window->data + (f - window->lo), static_cast<size_t>(span));
            else if (!M::read(f, block, static_cast<size_t>(span)))
                break;
            fields = block;
        }
        const char* code = load<const char*>(fields, m_frameCode);
        const char* instr = load<const char*>(fields, m_frameInstr);
        const bool shim = m_frameOwner >= 0 && load<char>(fields, m_frameOwner) == kOwnedByCStack;
        if (!shim && code) {
            Frame out1{code, -1, f, 0};
            bool isCode = false;
            if constexpr (foreign) {
                int match = seen;
                while (match < previousCount && previous[match].address != f)
                    ++match;
                if (match < previousCount && previous[match].code == code) {
                    out1.fingerprint = previous[match].fingerprint;
                    isCode = true;
                    seen = match + 1;
                } else {
                    isCode = checkCodeForeign(code, &out1.fingerprint);
                }
            } else {
                const void* type = nullptr;
                isCode = get<M>(code, kObType, &type) && type == m_codeType;
            }
            if (isCode) {
                const long lasti = instr - (code + m_codeBase);
                out1.lasti = lasti >= 0 && lasti < (1l << 30) ? static_cast<int>(lasti) : -1;
                out[n++] = out1;
            } else if (foreign) {
                break; // another thread's frame that is no longer one: what follows is not to be trusted
            }
        }
        f = load<const char*>(fields, m_framePrevious);
    }
    return n;
}

// Whether code is a code object, and its fingerprint, in one safe read of its head.
bool PyFrameWalker::checkCodeForeign(const void* code, uint64_t* fingerprint) const {
    const int hi = std::max(m_codeQualname, m_codeFile) + 8;
    char block[256];
    if (hi > static_cast<int>(sizeof block) || !safeRead(code, block, static_cast<size_t>(hi)) ||
        load<const void*>(block, kObType) != m_codeType)
        return false;
    *fingerprint = fingerprintWith<DirectMemory>(block);
    return true;
}

int PyFrameWalker::walk(Frame* out, int max) const {
    if (!m_ready)
        return 0;
    const void* tstate = m_threadState();
    return tstate ? walkFrom<DirectMemory>(currentFrameWith<DirectMemory>(tstate), out, max) : 0;
}

template <class M> bool PyFrameWalker::readStringWith(const void* unicode, std::string* out) const {
    const void* type = nullptr;
    int64_t length = 0;
    uint32_t state = 0; // interned:2, kind:3, compact:1, ascii:1
    if (!get<M>(unicode, kObType, &type) || type != m_strType || !get<M>(unicode, 16, &length) ||
        !get<M>(unicode, 32, &state))
        return false;
    const uint32_t kind = (state >> 2) & 7;
    const bool compact = (state >> 5) & 1, ascii = (state >> 6) & 1;
    if (!compact || length < 0 || length > (1 << 20) || (!ascii && kind != 1 && kind != 2 && kind != 4))
        return false;
    const char* base = static_cast<const char*>(unicode);
    if (ascii) {
        out->resize(static_cast<size_t>(length));
        return M::read(base + m_asciiData, out->data(), out->size());
    }
    std::string raw(static_cast<size_t>(length) * kind, '\0');
    if (!M::read(base + m_compactData, raw.data(), raw.size()))
        return false;
    out->clear();
    for (int64_t i = 0; i < length; ++i) {
        uint32_t cp;
        if (kind == 1)
            cp = load<uint8_t>(raw.data(), static_cast<int>(i));
        else if (kind == 2)
            cp = load<uint16_t>(raw.data(), static_cast<int>(2 * i));
        else
            cp = load<uint32_t>(raw.data(), static_cast<int>(4 * i));
        appendUtf8(*out, cp);
    }
    return true;
}

template <class M>
bool PyFrameWalker::describeWith(const void* code, std::string* function, std::string* file) const {
    const void *qualname = nullptr, *name = nullptr, *filename = nullptr;
    if (!get<M>(code, m_codeQualname, &qualname) || !get<M>(code, m_codeName, &name) ||
        !get<M>(code, m_codeFile, &filename))
        return false;
    if (!readStringWith<M>(qualname, function) || function->empty())
        readStringWith<M>(name, function);
    return readStringWith<M>(filename, file);
}

template <class M> uint64_t PyFrameWalker::fingerprintWith(const void* code) const {
    uint64_t a = 0, b = 0;
    if constexpr (std::is_same_v<M, DirectMemory>) {
        // A live frame's code object: its two fields read in place (every frame of every launch; a
        // zeroed 256-byte block and a copy into it were most of a walk's time).
        a = load<uint64_t>(code, m_codeQualname);
        b = load<uint64_t>(code, m_codeFile);
    } else {
        const int lo = std::min(m_codeQualname, m_codeFile), hi = std::max(m_codeQualname, m_codeFile) + 8;
        char block[256];
        if (hi - lo > static_cast<int>(sizeof block) ||
            !M::read(static_cast<const char*>(code) + lo, block, static_cast<size_t>(hi - lo)))
            return 0;
        a = load<uint64_t>(block, m_codeQualname - lo);
        b = load<uint64_t>(block, m_codeFile - lo);
    }
    return (a * 0x9e3779b97f4a7c15ull) ^ (b + 0x632be59bd9b4e019ull + (a << 6));
}

bool PyFrameWalker::describe(const void* code, std::string* function, std::string* file) const {
    return describeWith<DirectMemory>(code, function, file);
}

uint64_t PyFrameWalker::fingerprint(const void* code) const { return fingerprintWith<DirectMemory>(code); }

bool PyFrameWalker::describeForeign(const void* code, std::string* function, std::string* file) const {
    return describeWith<SafeMemory>(code, function, file);
}

// The data stack chunk's header is {previous, size, top}; the thread state's datastack_top says
// where its used part ends.
bool PyFrameWalker::readStackWindow(const void* tstate, Window* window) const {
    constexpr size_t kMaxWindow = 1 << 20;
    thread_local std::vector<char> copy;
    struct {
        const char* chunk;
        const char* top;
    } fields{};
    if (m_tstateChunk < 0 || !get<SafeMemory>(tstate, m_tstateChunk, &fields.chunk) ||
        !get<SafeMemory>(tstate, m_tstateChunk + 8, &fields.top) || !fields.chunk || fields.top <= fields.chunk ||
        static_cast<size_t>(fields.top - fields.chunk) > kMaxWindow)
        return false;
    copy.resize(static_cast<size_t>(fields.top - fields.chunk));
    if (!safeRead(fields.chunk, copy.data(), copy.size()))
        return false;
    *window = Window{fields.chunk, fields.top, copy.data()};
    return true;
}

int PyFrameWalker::walkThread(const void* tstate, Frame* out, int max, const Frame* previous, int previousCount) const {
    if (!m_samplingReady)
        return 0;
    Window window;
    const bool windowed = readStackWindow(tstate, &window);
    return walkFrom<SafeMemory>(currentFrameWith<SafeMemory>(tstate), out, max, previous, previousCount,
                                windowed ? &window : nullptr);
}

int PyFrameWalker::threads(Thread* out, int max) const {
    if (!m_samplingReady)
        return 0;
    // The head is read by the interpreter's own accessor (the interpreter outlives the sampler); the
    // list is then followed with safe reads, as threads may end meanwhile.
    const void* t = m_threadHead(const_cast<void*>(m_interp));
    int n = 0;
    for (int guard = 0; t && n < max && guard < 4096; ++guard) {
        Thread& th = out[n++];
        th.tstate = t;
        th.osThreadId = 0;
        if (m_tstateNativeId >= 0)
            get<SafeMemory>(t, m_tstateNativeId, &th.osThreadId);
        if (!get<SafeMemory>(t, m_tstateNext, &t))
            break;
    }
    return n;
}

int PyFrameWalker::lineForeign(const void* code, int lasti) const {
    const void* table = nullptr;
    int32_t firstLine = 0;
    int64_t size = 0;
    if (m_codeLinetable < 0 || !get<SafeMemory>(code, m_codeLinetable, &table) ||
        !get<SafeMemory>(code, m_codeFirstLine, &firstLine) || !get<SafeMemory>(table, 16, &size) || size < 0 ||
        size > (1 << 20))
        return 0;
    thread_local std::vector<uint8_t> copy;
    copy.resize(static_cast<size_t>(size));
    if (!safeRead(static_cast<const char*>(table) + m_bytesData, copy.data(), copy.size()))
        return 0;
    const int line = lineOfOffset(copy.data(), copy.size(), firstLine, lasti);
    return line > 0 ? line : 0;
}

int PyFrameWalker::holdsGil(const void* tstate) const {
    struct {
        const void* holder;
        int locked;
    } g{};
    if (!m_gil || !get<SafeMemory>(m_gil, 8, &g.holder) || !get<SafeMemory>(m_gil, 16, &g.locked))
        return -1;
    return g.locked && g.holder == tstate ? 1 : 0;
}

// struct _gil_runtime_state (3.11: in _PyRuntime.ceval; 3.12, 3.13: interp->ceval.gil points to it)
// begins {unsigned long interval; PyThreadState* last_holder; int locked; ...}. Candidates are the
// places that say "tstate holds it" now; probeSampling() keeps the one that follows a release.
const void* PyFrameWalker::findGil(const void* tstate) const {
    auto says = [&](const void* g) {
        const void* holder = nullptr;
        int locked = 0;
        return get<SafeMemory>(g, 8, &holder) && holder == tstate && get<SafeMemory>(g, 16, &locked) && locked == 1;
    };
    using SaveThread = void* (*)();
    using RestoreThread = void (*)(void*);
    const auto save = lookup<SaveThread>("PyEval_SaveThread");
    const auto restore = lookup<RestoreThread>("PyEval_RestoreThread");
    if (!save || !restore)
        return nullptr;
    std::vector<const void*> candidates;
    const char* regions[] = {static_cast<const char*>(m_interp), static_cast<const char*>(::dlsym(RTLD_DEFAULT, "_PyRuntime"))};
    for (const char* region : regions) {
        for (long k = 0; region && k < (64 << 10) && candidates.size() < 64; k += 8) {
            if (says(region + k))
                candidates.push_back(region + k);
            const void* pointer = nullptr;
            if (get<SafeMemory>(region, k, &pointer) && pointer && says(pointer))
                candidates.push_back(pointer);
        }
    }
    if (candidates.empty())
        return nullptr;
    // Released, a true GIL no longer names this thread as a locked holder; taken back, it does again.
    void* saved = save();
    std::vector<const void*> released;
    for (const void* c : candidates)
        if (!says(c))
            released.push_back(c);
    restore(saved);
    for (const void* c : released)
        if (says(c))
            return c;
    return nullptr;
}

// Where a code object keeps its location table (a bytes object) and first line: the table is the one
// field equal to co_linetable; the first line the one int field equal to co_firstlineno in every
// code object of the attaching call's stack. Then every frame's line must come out as
// PyCode_Addr2Line says.
bool PyFrameWalker::probeLines(std::string* why) {
    m_codeLinetable = m_codeFirstLine = m_bytesData = -1;
    ProbeApi api;
    using AsLong = long (*)(PyObj*);
    using BytesData = char* (*)(PyObj*);
    using Addr2Line = int (*)(PyObj*, int);
    const auto asLong = lookup<AsLong>("PyLong_AsLong");
    const auto bytesData = lookup<BytesData>("PyBytes_AsString");
    const auto addr2Line = lookup<Addr2Line>("PyCode_Addr2Line");
    if (!api.complete() || !asLong || !bytesData || !addr2Line) {
        *why = "the CPython API for lines is missing: samples have no lines";
        return false;
    }
    std::vector<std::pair<PyObj*, int>> frames; // (code, lasti), new references
    api.forEachFrame(16, [&](PyObj* f) { frames.emplace_back(api.frameCode(f), api.frameLasti(f)); });
    std::vector<int> firstLineCandidates;
    for (int k = 16; k < 256; k += 4)
        firstLineCandidates.push_back(k);
    for (const auto& [code, lasti] : frames) {
        PyObj* table = api.getAttr(code, "co_linetable");
        PyObj* first = api.getAttr(code, "co_firstlineno");
        if (!table || !first) {
            api.errClear();
        } else {
            const int tableField = [&] {
                int found = -1;
                for (int k = 16; k < 256; k += 8)
                    if (load<const void*>(code, k) == table)
                        found = found < 0 ? k : -2;
                return found;
            }();
            if (m_codeLinetable == -1 || m_codeLinetable == tableField)
                m_codeLinetable = tableField;
            else
                m_codeLinetable = -2;
            m_bytesData = static_cast<int>(bytesData(table) - static_cast<const char*>(table));
            const long value = asLong(first);
            std::erase_if(firstLineCandidates, [&](int k) { return load<int32_t>(code, k) != value; });
        }
        for (PyObj* o : {table, first})
            if (o)
                api.decRef(o);
    }
    if (m_codeLinetable >= 0 && firstLineCandidates.size() == 1 && m_bytesData > 0 && m_bytesData < 64) {
        m_codeFirstLine = firstLineCandidates.front();
        for (const auto& [code, lasti] : frames)
            if (lineForeign(code, lasti) != std::max(0, addr2Line(code, lasti)))
                m_codeLinetable = -1;
    } else {
        m_codeLinetable = -1;
    }
    for (const auto& [code, lasti] : frames)
        if (code)
            api.decRef(code);
    if (m_codeLinetable < 0) {
        *why = "the location tables did not read as the interpreter reads them: samples have no lines";
        return false;
    }
    return true;
}

bool PyFrameWalker::probeSampling(std::string* why) {
    m_samplingReady = false;
    if (!m_ready) {
        *why = "the frame layout is not known";
        return false;
    }
    using InterpMain = void* (*)();
    using ThreadHead = void* (*)(void*);
    using ThreadNext = void* (*)(void*);
    using ThreadInterp = void* (*)(void*);
    const auto interpMain = lookup<InterpMain>("PyInterpreterState_Main");
    m_threadHead = lookup<ThreadHead>("PyInterpreterState_ThreadHead");
    const auto threadNext = lookup<ThreadNext>("PyThreadState_Next");
    const auto threadInterp = lookup<ThreadInterp>("PyThreadState_GetInterpreter");
    const void* tstate = m_threadState();
    if (!interpMain || !m_threadHead || !threadNext || !threadInterp || !tstate) {
        *why = "the CPython thread API is missing";
        return false;
    }
    m_interp = interpMain();
    // PyThreadState begins {prev, next, interp} in 3.11 to 3.13: checked against the API.
    const void *next = nullptr, *interp = nullptr;
    if (threadInterp(const_cast<void*>(tstate)) != m_interp || !get<SafeMemory>(tstate, m_tstateNext, &next) ||
        next != threadNext(const_cast<void*>(tstate)) || !get<SafeMemory>(tstate, 16, &interp) || interp != m_interp) {
        *why = "the thread-state list is not where it was expected";
        return false;
    }
    // native_thread_id: the one word of the thread state equal to this thread's OS id.
    const auto tid = static_cast<uint64_t>(::gettid());
    m_tstateNativeId = -1;
    for (int k = 24; k < 1024; k += 8) {
        uint64_t v = 0;
        if (get<SafeMemory>(tstate, k, &v) && v == tid) {
            if (m_tstateNativeId >= 0) {
                m_tstateNativeId = -1; // ambiguous: threads get no OS id rather than a wrong one
                break;
            }
            m_tstateNativeId = k;
        }
    }
    m_gil = findGil(tstate);
    // datastack_chunk, datastack_top, datastack_limit (3.11 to 3.13): the chunk holds the current
    // frame, top lies above it within the chunk, and limit is the chunk's end.
    m_tstateChunk = -1;
    const char* top = static_cast<const char*>(currentFrameWith<DirectMemory>(tstate));
    for (int k = 24; k + 16 < 1024 && top && m_tstateChunk < 0; k += 8) {
        struct {
            const char* chunk;
            const char* top;
            const char* limit;
        } f{};
        uint64_t size = 0;
        if (get<SafeMemory>(tstate, k, &f.chunk) && get<SafeMemory>(tstate, k + 8, &f.top) &&
            get<SafeMemory>(tstate, k + 16, &f.limit) && f.chunk && f.chunk < top && f.top > top &&
            get<SafeMemory>(f.chunk, 8, &size) && size >= 4096 && size < (1ull << 30) && f.limit == f.chunk + size &&
            f.top <= f.limit)
            m_tstateChunk = k;
    }
    std::string linesWhy;
    probeLines(&linesWhy);
    m_samplingReady = true;
    if (!linesWhy.empty())
        *why = linesWhy;
    else if (m_tstateNativeId < 0)
        *why = "threads' OS ids were not found";
    else if (!m_gil)
        *why = "the GIL was not found: samples do not say which thread holds it";
    return true;
}

bool PyFrameWalker::probe(std::string* why) {
    m_ready = false;
    const auto* version = static_cast<const unsigned long*>(::dlsym(RTLD_DEFAULT, "Py_Version"));
    const unsigned long v = version ? *version : 0;
    const int major = static_cast<int>((v >> 24) & 0xff), minor = static_cast<int>((v >> 16) & 0xff);
    const Layout* layout = major != 3 ? nullptr : minor == 11 ? &kLayout311 : minor == 12 ? &kLayout312
                                                 : minor == 13 ? &kLayout313 : nullptr;
    if (!layout) {
        *why = "reading frames needs CPython 3.11 to 3.13";
        return false;
    }
    ProbeApi api;
    m_threadState = lookup<void* (*)()>("PyGILState_GetThisThreadState");
    m_codeType = ::dlsym(RTLD_DEFAULT, "PyCode_Type");
    m_strType = ::dlsym(RTLD_DEFAULT, "PyUnicode_Type");
    if (!api.complete() || !m_threadState || !m_codeType || !m_strType) {
        *why = "the CPython API it checks against is missing";
        return false;
    }
    m_frameCode = layout->frameCode;
    m_framePrevious = layout->framePrevious;
    m_frameInstr = layout->frameInstr;
    m_frameOwner = layout->frameOwner;
    m_viaCframe = layout->viaCframe;
    m_cframeFrame = layout->cframeFrame;
    m_asciiData = layout->asciiData;
    m_compactData = layout->compactData;

    // The attaching call's frames, through the public API: (frame object, its interpreter frame).
    PyObj* top = api.getFrame();
    if (!top) {
        *why = "no Python frame to check against";
        return false;
    }
    const void* topFrame = load<const void*>(top, kPyFrameObjectFFrame);
    const void* tstate = m_threadState();
    if (!tstate || !topFrame) {
        *why = "no thread state";
        return false;
    }
    // The thread state's pointer to the current frame: directly (3.13), or through the current
    // _PyCFrame (3.11, 3.12), which lies in the thread state or on this thread's C stack.
    const char* ts = static_cast<const char*>(tstate);
    const char here = 0;
    const auto stack = reinterpret_cast<uintptr_t>(&here);
    m_tstateFrame = -1;
    for (int k = 0; k < 512 && m_tstateFrame < 0; k += 8) {
        const char* w = load<const char*>(ts, k);
        if (!m_viaCframe) {
            if (w == topFrame)
                m_tstateFrame = k;
            continue;
        }
        const bool inState = w >= ts && w < ts + 4096;
        const auto address = reinterpret_cast<uintptr_t>(w);
        const bool onStack = address > stack - (8u << 20) && address < stack + (8u << 20);
        if ((inState || onStack) && load<const void*>(w, m_cframeFrame) == topFrame)
            m_tstateFrame = k;
    }
    if (m_tstateFrame < 0) {
        *why = "the thread state's current frame was not found";
        return false;
    }

    // The code object fields: the offsets of the name, qualified name and file (each found exactly
    // once), from the innermost code object, whose name and qualified name differ (the hook attaches
    // from a method).
    auto attribute = [&](const void* code, const char* name) {
        PyObj* o = api.getAttr(const_cast<void*>(code), name);
        if (!o)
            api.errClear();
        return o;
    };
    auto text = [&](PyObj* o) {
        const char* t = o ? api.utf8(o) : nullptr;
        if (!t)
            api.errClear();
        return std::string(t ? t : "");
    };
    auto findField = [&](const void* code, PyObj* value) {
        int found = -1;
        for (int k = 16; k < 256; k += 8)
            if (load<const void*>(code, k) == value) {
                if (found >= 0)
                    return -1; // ambiguous
                found = k;
            }
        return found;
    };
    {
        PyObj* code = api.frameCode(top);
        PyObj* name = attribute(code, "co_name");
        PyObj* qualname = attribute(code, "co_qualname");
        PyObj* file = attribute(code, "co_filename");
        m_codeName = name ? findField(code, name) : -1;
        m_codeQualname = qualname && qualname != name ? findField(code, qualname) : -1;
        m_codeFile = file ? findField(code, file) : -1;
        for (PyObj* o : {name, qualname, file, code})
            if (o)
                api.decRef(o);
    }
    if (m_codeName < 0 || m_codeQualname < 0 || m_codeFile < 0) {
        *why = "the code object's name fields were not found";
        return false;
    }

    // The public chain (frame objects; shims skipped) against the walk, frame by frame: the code
    // object, its name and file, and the position (which gives the bytecode's offset in the code
    // object, the same for every code object).
    struct Expected {
        const void* code;
        int lasti;
        std::string function, file;
    };
    std::vector<Expected> expected;
    m_codeBase = -1;
    std::string failure;
    api.forEachFrame(kMaxDepth, [&](PyObj* f) {
        PyObj* code = api.frameCode(f);
        PyObj* qualname = attribute(code, "co_qualname");
        PyObj* file = attribute(code, "co_filename");
        Expected e{code, api.frameLasti(f), text(qualname), text(file)};
        for (PyObj* o : {qualname, file, code})
            if (o)
                api.decRef(o);
        if (e.lasti >= 0 && failure.empty()) {
            const char* instr = load<const char*>(load<const void*>(f, kPyFrameObjectFFrame), m_frameInstr);
            const long base = instr - static_cast<const char*>(e.code) - e.lasti;
            if (m_codeBase < 0 && base > 0 && base < 1024)
                m_codeBase = static_cast<int>(base);
            else if (base != m_codeBase)
                failure = "the bytecode of frame " + std::to_string(expected.size()) + " lies elsewhere";
        }
        expected.push_back(std::move(e));
    });
    if (failure.empty() && (expected.size() < 2 || m_codeBase < 0))
        failure = "too few frames to check";
    if (failure.empty()) {
        m_ready = true;
        Frame walked[kMaxDepth];
        const int n = walk(walked, kMaxDepth);
        if (n != static_cast<int>(expected.size()))
            failure = "the walk found " + std::to_string(n) + " frames, the API " + std::to_string(expected.size());
        for (int i = 0; i < n && failure.empty(); ++i) {
            const Expected& e = expected[static_cast<size_t>(i)];
            std::string function, file;
            if (walked[i].code != e.code)
                failure = "frame " + std::to_string(i) + " has another code object";
            else if (e.lasti >= 0 && walked[i].lasti != e.lasti)
                failure = "frame " + std::to_string(i) + " is at another position";
            else if (!describe(walked[i].code, &function, &file) || function != e.function || file != e.file)
                failure = "frame " + std::to_string(i) + " reads as " + function + " in " + file;
        }
    }
    if (!failure.empty()) {
        m_ready = false;
        *why = "frame layout check failed: " + failure;
        return false;
    }
    return true;
}

} // namespace ws
