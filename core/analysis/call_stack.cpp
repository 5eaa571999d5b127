#include "analysis/call_stack.h"
#include "analysis/launch_flows.h"

#include <string_view>

namespace ws {

const char* stackFrameKindName(StackFrameKind kind) {
    switch (kind) {
    case StackFrameKind::Kernel:
        return "gpu";
    case StackFrameKind::Launch:
        return "launch";
    case StackFrameKind::Operator:
        return "op";
    case StackFrameKind::Python:
        return "python";
    case StackFrameKind::Native:
        return "native";
    case StackFrameKind::Other:
        break;
    }
    return "other";
}

namespace {

bool endsWith(std::string_view s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

StackFrame sliceFrame(const Session& s, uint32_t track, uint32_t slice, StackFrameKind kind) {
    const Track& t = s.tracks()[track];
    StackFrame f;
    f.function = std::string(s.str(t.names[slice]));
    f.kind = kind;
    f.track = track;
    f.slice = slice;
    return f;
}

StackFrameKind kindForAncestor(EventKind k) {
    switch (k) {
    case EventKind::CpuOp:
    case EventKind::UserAnnotation:
        return StackFrameKind::Operator;
    case EventKind::PythonFunction:
        return StackFrameKind::Python;
    case EventKind::Runtime:
    case EventKind::Driver:
        return StackFrameKind::Launch;
    default:
        return StackFrameKind::Other;
    }
}

// Kineto's python_function names that are not `<file>(<line>): <func>` (e.g. "<built-in method
// ...>", "nn.Module: Linear_0") still are Python frames; they just have no location.
void fillPython(const Session& s, StackFrame& f, StringId name) {
    if (const SourceFrame* sf = s.frameForName(name)) {
        f.file = std::string(s.str(sf->file));
        f.line = sf->line;
        f.function = std::string(s.str(sf->function));
    }
}

} // namespace

CallStack callStackFor(const Session& s, uint32_t track, uint32_t slice) {
    CallStack out;
    if (track >= s.tracks().size() || slice >= s.tracks()[track].sliceCount()) return out;
    const Track& t = s.tracks()[track];
    uint32_t cpuTrack = track;
    uint32_t cpuSlice = slice;
    const EventKind selectedKind = s.kindOf(t, slice);
    if (isGpuActivity(selectedKind)) {
        out.frames.push_back(sliceFrame(s, track, slice, StackFrameKind::Kernel));
        cpuTrack = Track::kNoId;
        // A replayed graph node's stack is where it was captured (LaunchFlows::Follow::Attribution).
        if (const uint32_t fi = LaunchFlows::flowOfSlice(s, track, slice, LaunchFlows::Follow::Attribution);
            fi != LaunchFlows::kNone) {
            cpuTrack = s.flows()[fi].fromTrack;
            cpuSlice = s.flows()[fi].fromSlice;
        }
        if (cpuTrack == Track::kNoId) return out; // no launch known: the GPU activity alone
        out.frames.push_back(sliceFrame(s, cpuTrack, cpuSlice, StackFrameKind::Launch));
    } else {
        StackFrame f = sliceFrame(s, track, slice, kindForAncestor(selectedKind));
        if (selectedKind == EventKind::PythonFunction) fillPython(s, f, t.names[slice]);
        out.frames.push_back(std::move(f));
    }
    out.cpuTrack = cpuTrack;
    out.cpuSlice = cpuSlice;

    const Track& ct = s.tracks()[cpuTrack];
    std::vector<uint32_t> chain = s.ancestors(ct, cpuSlice);
    bool sawPython = selectedKind == EventKind::PythonFunction;
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
        const EventKind k = s.kindOf(ct, *it);
        StackFrame f = sliceFrame(s, cpuTrack, *it, kindForAncestor(k));
        if (k == EventKind::PythonFunction) {
            fillPython(s, f, ct.names[*it]);
            sawPython = true;
        }
        out.frames.push_back(std::move(f));
    }

    if (!sawPython) {
        // The innermost slice (the CPU slice itself, then its ancestors) with a `Call stack`.
        std::vector<StackFrameText> text = s.callStack(ct, cpuSlice);
        for (auto it = chain.rbegin(); text.empty() && it != chain.rend(); ++it)
            if (s.kindOf(ct, *it) == EventKind::CpuOp) text = s.callStack(ct, *it);
        for (StackFrameText& e : text) {
            StackFrame f;
            f.function = std::move(e.function);
            f.file = std::move(e.file);
            f.line = e.line;
            f.kind =
                f.file.empty() || endsWith(f.file, ".py") ? StackFrameKind::Python : StackFrameKind::Native;
            out.frames.push_back(std::move(f));
        }
    }

    for (size_t i = 0; i < out.frames.size(); ++i)
        if (!out.frames[i].file.empty() && out.frames[i].line > 0) {
            out.firstSourceFrame = static_cast<int>(i);
            break;
        }
    return out;
}

} // namespace ws
