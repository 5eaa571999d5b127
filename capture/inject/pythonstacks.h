#pragma once

#include "inject/pyframewalker.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace ws {

/*
 * PythonStacks: the CPython call stack of a thread at a CUDA call (the "pystacks" activity).
 *
 * On CPython 3.11 to 3.13 the thread's frames are read at the launch itself (PyFrameWalker): no
 * Python call, no reference count and no GIL, only the calling thread's own frames, which cannot
 * change while it is inside the CUDA call. The Python program runs at full speed between launches;
 * each launch costs a walk of its frames and a cache lookup per frame.
 *
 * Elsewhere, or when the walker's checks of this interpreter's layout fail, the stack is kept as it
 * changes instead: PyTorch's bindings release the GIL before running an operator, so at the kernel
 * launch the thread may not touch Python objects (reference counts, frame objects created on
 * demand). A C-level profile function (PyEval_SetProfileAllThreads, Python 3.12+; PyEval_SetProfile
 * for the attaching thread before) runs with the GIL held at every Python call, return and call of
 * a C function, and keeps a per-thread shadow stack of (code object, position of the current call).
 * At a launch the thread's own shadow stack is read with no Python call at all; the line of a
 * position comes from PyCode_Addr2Line, which only reads the code object's immutable line table.
 * Names and files are read once per code object under the GIL (at its first call), and the code
 * object is kept alive (one reference) so its address stays a valid key.
 *
 * attach() is called by the Python start-up hook through ctypes.PyDLL (GIL held), because the
 * walker's checks and installing a profile function need the GIL. The API is found at run time with dlsym, so the
 * library links against no Python; in a process without it nothing happens.
 *
 * Cost: see capture/README.md for the measured overhead of both ways.
 *
 * capture() is not thread-safe for the shared tables: the caller serializes it (StackRecorder).
 * Several instances may write into one stream (the launches' and the sampler's): frame and stack ids
 * come from process-wide counters, so they never collide; each instance defines what it uses.
 */
class PythonStacks {
public:
    static constexpr int kMaxFrames = 128; // the sampler keeps whole stacks; launches at most WARPSCOPE_PY_STACK_DEPTH (64)

    // Checks the walker, else installs the profile function; false with *why when there is no usable
    // CPython. GIL held, from a method of the start-up hook (the walker checks the caller's frames).
    // forSampling: also prepare the walker for the sampler (PyFrameWalker::probeSampling); a failure
    // there is a note in *why, not a failure of attach().
    static bool attach(bool forSampling, std::string* why);
    static bool attached();

    // The stack id of the calling thread's Python stack (depth frames at most, innermost first),
    // defining new frames and stacks as records appended to out; 0 when the thread runs no Python.
    uint32_t capture(int depth, std::string& out);
    // The stack id of frames another thread's walk read (PyFrameWalker::walkThread), for the sampler:
    // the code objects' names are read with safe reads. 0 when n is 0.
    uint32_t stackOf(const PyFrameWalker::Frame* frames, int n, std::string& out);
    // The walker, for the sampler; null until attach() chose it (the profile-function way has no
    // frames another thread can read).
    static const PyFrameWalker* walker();

private:
    struct Position {
        const void* code;
        int offset; // lasti, or -1 - line
        uint64_t fingerprint;
        bool operator==(const Position&) const = default;
    };
    struct KeyHash {
        size_t operator()(const Position& k) const {
            return (std::hash<const void*>()(k.code) * 31u + static_cast<size_t>(k.offset)) ^ k.fingerprint;
        }
    };

    uint32_t frameId(const void* code, int lasti, int line, bool foreign, uint64_t fingerprint, std::string& out);
    uint32_t stackId(const uint64_t* ids, int n, std::string& out);

    std::unordered_map<Position, uint32_t, KeyHash> m_byPosition; // (code, lasti|line, fingerprint) -> frame
    std::unordered_map<std::string, uint32_t> m_frameIds;                  // "line\0file\0function" -> frame
    std::unordered_map<uint64_t, std::vector<uint32_t>> m_stackIdsByHash; // hash -> candidate stack ids
    std::unordered_map<uint32_t, std::vector<uint64_t>> m_stacks;          // stack id -> frame ids
    // Whole walks already seen: (code, lasti, fingerprint) of every frame -> stack id. The same line
    // launches every step from the same stack, so a launch costs one hash and one lookup, not one per
    // frame; the key holds exactly what the per-frame lookups are keyed by, so the id is the same.
    struct Walk {
        std::vector<uint64_t> key;
        uint32_t stackId;
    };
    std::unordered_map<uint64_t, std::vector<Walk>> m_byWalk;
};

} // namespace ws
