#pragma once

#include <cstdint>
#include <string>

namespace ws {

/*
 * PyFrameWalker: reads the calling thread's CPython frames at a CUDA call without the GIL and
 * without calling into the interpreter (issue #25: Python stacks at a fraction of the profile
 * function's cost).
 *
 * Why it is safe: the frames read are the calling thread's own, and that thread is inside the CUDA
 * call, so none of them can be pushed, popped or freed meanwhile; each frame holds a strong
 * reference to its code object, whose name, file and line table are immutable. Nothing is written
 * and no reference count is touched, so the thread needs no GIL (PyTorch releases it before
 * running an operator). This is how out-of-process samplers (py-spy) read stacks, from inside.
 *
 * Why it is careful: the structs read (_PyInterpreterFrame, PyThreadState's frame pointer, the code
 * object's fields, compact strings) are CPython internals that change between minor versions.
 * probe() (GIL held, from the attaching Python call) takes the known layout of 3.11, 3.12 or 3.13
 * and checks every offset against the public API on the live frames of the attaching call: the
 * thread state's current frame, the code object of two frames, their positions (PyFrame_GetLasti),
 * the code's name, qualified name and file. Any disagreement, or another version, and probe()
 * says why and the caller keeps the profile function (inject/pythonstacks.h).
 */
class PyFrameWalker {
public:
    static constexpr int kMaxDepth = 128; // deep enough for import chains and frameworks; launches keep at most 64

    struct Frame {
        const void* code; // the code object (kept alive by the frame while it is read)
        int lasti;        // byte offset of the current instruction, -1 when unknown
        const void* address = nullptr; // walkThread: the _PyInterpreterFrame read
        uint64_t fingerprint = 0;      // walkThread: fingerprint() of code, read with the type check
    };

    // GIL held, called from Python code (at least two Python frames on the stack). False with *why
    // when this interpreter's layout is not one this walker knows or a check fails.
    bool probe(std::string* why);
    bool ready() const { return m_ready; }

    // The calling thread's frames, innermost first, at most max (<= kMaxDepth); 0 when the thread
    // has no Python state or runs no Python code. No GIL needed.
    int walk(Frame* out, int max) const;
    // The code object's names (UTF-8). No GIL needed while a frame of this thread holds the code.
    bool describe(const void* code, std::string* function, std::string* file) const;
    // Identity of a code object beyond its address (its name and file objects), so that a
    // cache keyed by address does not serve a later code object allocated at the same place.
    uint64_t fingerprint(const void* code) const;

    /*
     * Other threads, for the sampler (inject/pysampler.h; issue #27). Their frames change while they
     * are read, so every read goes through safeRead (inject/saferead.h): a stale pointer yields a
     * failed read or a frame whose code is not a code object, which ends the walk, never a fault.
     * probeSampling() (GIL held, after probe()) finds what the sampler needs beyond the walk: the
     * thread-state list, each thread's OS id, and where the GIL says who holds it.
     */
    struct Thread {
        const void* tstate = nullptr;
        uint64_t osThreadId = 0; // gettid() of the thread, 0 when unknown
    };
    bool probeSampling(std::string* why);
    bool samplingReady() const { return m_samplingReady; }
    // Whether a thread's newest frames are read in one copy of its data stack chunk (else one by one).
    bool stackWindowFound() const { return m_tstateChunk >= 0; }
    // The main interpreter's threads, at most max.
    int threads(Thread* out, int max) const;
    // Another thread's frames, innermost first; each code object is checked to be one (and its
    // fingerprint read) in one read, unless previous (that thread's last walk) had the same code
    // object in the same frame: a frame holds its code object, so it is the same one.
    int walkThread(const void* tstate, Frame* out, int max, const Frame* previous = nullptr, int previousCount = 0) const;
    // describe() for a code object that may be gone meanwhile.
    bool describeForeign(const void* code, std::string* function, std::string* file) const;
    // The line of a position in a code object that may be gone meanwhile, from a safe copy of its
    // location table (inject/pylinetable.h); 0 when unknown.
    int lineForeign(const void* code, int lasti) const;
    // 1: the thread holds the GIL, 0: it does not, -1: unknown (the GIL was not found at probe time).
    int holdsGil(const void* tstate) const;

private:
    // A copy of the used part of a thread's data stack chunk (where its newest frames live), read in
    // one go so that each frame in it costs no read of its own.
    struct Window {
        const char* lo = nullptr;
        const char* hi = nullptr;
        const char* data = nullptr;
    };
    template <class M>
    int walkFrom(const void* frame, Frame* out, int max, const Frame* previous = nullptr, int previousCount = 0,
                 const Window* window = nullptr) const;
    bool readStackWindow(const void* tstate, Window* window) const;
    bool checkCodeForeign(const void* code, uint64_t* fingerprint) const;
    template <class M> bool readStringWith(const void* unicode, std::string* out) const;
    template <class M> bool describeWith(const void* code, std::string* function, std::string* file) const;
    template <class M> uint64_t fingerprintWith(const void* code) const;
    template <class M> const void* currentFrameWith(const void* tstate) const;
    const void* findGil(const void* tstate) const;
    bool probeLines(std::string* why);

    bool m_ready = false;
    int m_minor = 0;
    // _PyInterpreterFrame
    int m_frameCode = 0, m_framePrevious = 0, m_frameInstr = 0, m_frameOwner = -1;
    // PyThreadState -> frame: *(tstate + m_tstateFrame), then + m_cframeFrame when m_viaCframe
    int m_tstateFrame = -1, m_cframeFrame = 0;
    bool m_viaCframe = false;
    // PyCodeObject
    int m_codeBase = 0, m_codeName = -1, m_codeQualname = -1, m_codeFile = -1;
    // compact str: data offsets of ASCII and non-ASCII strings
    int m_asciiData = 0, m_compactData = 0;
    const void* m_codeType = nullptr; // &PyCode_Type
    const void* m_strType = nullptr;  // &PyUnicode_Type
    void* (*m_threadState)() = nullptr; // PyGILState_GetThisThreadState
    // Sampling (probeSampling)
    bool m_samplingReady = false;
    const void* m_interp = nullptr;                  // the main interpreter
    void* (*m_threadHead)(void*) = nullptr;          // PyInterpreterState_ThreadHead
    int m_tstateNext = 8;                            // PyThreadState.next
    int m_tstateNativeId = -1;                       // PyThreadState.native_thread_id
    const void* m_gil = nullptr; // struct _gil_runtime_state: last_holder at +8, locked (int) at +16
    int m_codeLinetable = -1, m_codeFirstLine = -1, m_bytesData = -1; // for lineForeign
    int m_tstateChunk = -1; // PyThreadState.datastack_chunk; datastack_top follows it
};

} // namespace ws
