#pragma once

#include "model/session.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ws {

/* What a stack frame stands for, and where it came from. */
enum class StackFrameKind : uint8_t {
    Kernel,   // the selected GPU activity itself (kernel, memcpy, memset)
    Launch,   // the runtime/driver call that launched it (the flow's CPU end)
    Operator, // a cpu_op / user annotation enclosing the event (the operator chain)
    Python,   // a Python frame: a python_function ancestor or a `.py` entry of `Call stack`
    Native,   // a non-Python `Call stack` entry (C++/CUDA source)
    Other,    // any other enclosing slice
};

const char* stackFrameKindName(StackFrameKind kind);

/*
 * StackFrame: one line of the stack view. file/line are empty/0 when the source names no location
 * (operators, kernels). track/slice point at the slice the frame was read from, or are
 * Track::kNoId for frames decoded from a `Call stack` argument (they have no slice of their own).
 */
struct StackFrame {
    std::string function;
    std::string file;
    int32_t line = 0;
    StackFrameKind kind = StackFrameKind::Other;
    uint32_t track = Track::kNoId;
    uint32_t slice = Track::kNoId;
};

/*
 * CallStack: the frames behind one selected slice, innermost first:
 *   [selected GPU activity, its launch] (only for GPU activity with an ac2g flow),
 *   enclosing slices of the CPU slice from the inside out (operators, python_function frames),
 *   then, only when no python_function ancestor gave Python frames, the `Call stack` argument of
 *   the innermost slice that has one (legacy with_stack traces put the Python stack there).
 * cpuTrack/cpuSlice is the CPU slice the stack was walked from (the launch for a kernel).
 */
struct CallStack {
    std::vector<StackFrame> frames;
    uint32_t cpuTrack = Track::kNoId;
    uint32_t cpuSlice = Track::kNoId;
    // Index into frames of the innermost frame with a file and line, or -1: what "open the
    // selection's source" shows.
    int firstSourceFrame = -1;
};

// Builds the stack of slice `slice` of track `track`. Cost: one ancestors() walk plus at most a
// few event re-reads for `Call stack` arguments (only when python_function frames are absent).
CallStack callStackFor(const Session& session, uint32_t track, uint32_t slice);

} // namespace ws
