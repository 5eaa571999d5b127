#include "model/memory_snapshot.h"

#include "model/torch_frames.h"

namespace ws {

namespace {

bool endsWith(std::string_view s, std::string_view tail) {
    return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}

// Frames of the allocation machinery itself (the unwinder, the caching allocator, empty tensors):
// never the answer to "who allocated this".
bool allocatorInternal(std::string_view function) {
    for (std::string_view prefix : {"torch::unwind", "torch::CapturedTraceback", "torch::cuda::", "c10::cuda::CUDACachingAllocator",
                                    "at::detail::empty", "c10::"})
        if (function.substr(0, prefix.size()) == prefix)
            return true;
    return false;
}

// A C++ function without its argument list: "at::native::foo(at::Tensor const&)" -> "at::native::foo".
std::string_view withoutArguments(std::string_view function) {
    int depth = 0;
    for (size_t i = 0; i < function.size(); ++i) {
        const char c = function[i];
        depth += c == '<' ? 1 : c == '>' ? -1 : 0;
        if (c == '(' && depth <= 0 && i > 0)
            return function.substr(0, i);
    }
    return function;
}

} // namespace

int MemorySnapshot::userFrame(uint32_t stack) const {
    const size_t n = stackSize(stack);
    int python = -1, backward = -1, outermostOp = -1, native = -1;
    for (size_t i = 0; i < n; ++i) {
        const std::string_view file = str(frame(stack, i).file);
        const std::string_view function = str(frame(stack, i).function);
        if (endsWith(file, ".py")) {
            // PyTorch's own modules (torch/nn/modules/...) say less about the allocation than the
            // user's line that called them.
            if (!isTorchPackageFile(file))
                return static_cast<int>(i);
            if (python < 0)
                python = static_cast<int>(i);
            continue;
        }
        // A stack without Python frames is the autograd engine's thread: its node names the backward
        // of the operator; else the outermost operator call; else the first frame past the allocator.
        const std::string_view name = withoutArguments(function);
        if (backward < 0 && name.find("Backward") != std::string_view::npos && endsWith(name, "::apply"))
            backward = static_cast<int>(i);
        if (name.substr(0, 10) == "at::_ops::" && endsWith(name, "::call"))
            outermostOp = static_cast<int>(i);
        if (native < 0 && !function.empty() && !allocatorInternal(function))
            native = static_cast<int>(i);
    }
    for (int candidate : {python, backward, outermostOp, native})
        if (candidate >= 0)
            return candidate;
    return n > 0 ? 0 : -1;
}

std::string MemorySnapshot::stackLabel(uint32_t stack) const {
    const int i = userFrame(stack);
    if (i < 0)
        return {};
    const SnapshotFrame& f = frame(stack, static_cast<size_t>(i));
    std::string text(withoutArguments(str(f.function)));
    const std::string_view file = str(f.file);
    if (!file.empty() && file != "??") {
        text += " (";
        text += file;
        if (f.line > 0) {
            text += ':';
            text += std::to_string(f.line);
        }
        text += ')';
    }
    return text;
}

std::string MemorySnapshot::stackKey(uint32_t stack) const {
    std::string key;
    for (size_t i = 0; i < stackSize(stack); ++i) {
        const SnapshotFrame& f = frame(stack, i);
        if (i)
            key += ';';
        key += str(f.file);
        key += ':';
        key += std::to_string(f.line);
        key += ':';
        key += str(f.function);
    }
    return key;
}

size_t MemorySnapshot::memoryBytes() const {
    size_t bytes = sizeof(*this);
    for (const std::string& s : strings)
        bytes += s.capacity() + sizeof(std::string);
    bytes += frames.capacity() * sizeof(SnapshotFrame) + stackStart.capacity() * 4 + stackFrames.capacity() * 4;
    bytes += allocations.size() * sizeof(SnapshotAllocation) + segmentEvents.capacity() * sizeof(SnapshotSegmentEvent);
    bytes += ooms.capacity() * sizeof(SnapshotOom) + segments.capacity() * sizeof(SnapshotSegment);
    bytes += blocks.capacity() * sizeof(SnapshotBlock);
    for (const auto& [k, v] : allocatorSettings)
        bytes += k.size() + v.size() + 64;
    return bytes;
}

const char* snapshotBlockStateName(SnapshotBlockState state) {
    switch (state) {
    case SnapshotBlockState::ActiveAllocated: return "active_allocated";
    case SnapshotBlockState::ActivePending: return "active_pending_free";
    case SnapshotBlockState::Inactive: return "inactive";
    case SnapshotBlockState::Unknown: break;
    }
    return "unknown";
}

} // namespace ws
