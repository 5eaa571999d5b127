#include "model/memory_snapshot.h"

namespace ws {

namespace {

bool endsWith(std::string_view s, std::string_view tail) {
    return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}

} // namespace

int MemorySnapshot::userFrame(uint32_t stack) const {
    const size_t n = stackSize(stack);
    int python = -1, withFile = -1;
    for (size_t i = 0; i < n; ++i) {
        const std::string_view file = str(frame(stack, i).file);
        if (endsWith(file, ".py")) {
            // PyTorch's own modules (torch/nn/modules/...) say less about the allocation than the
            // user's line that called them.
            if (file.find("/torch/") == std::string_view::npos)
                return static_cast<int>(i);
            if (python < 0)
                python = static_cast<int>(i);
        } else if (withFile < 0 && !file.empty() && file != "??") {
            withFile = static_cast<int>(i);
        }
    }
    return python >= 0 ? python : withFile >= 0 ? withFile : (n > 0 ? 0 : -1);
}

std::string MemorySnapshot::stackLabel(uint32_t stack) const {
    const int i = userFrame(stack);
    if (i < 0)
        return {};
    const SnapshotFrame& f = frame(stack, static_cast<size_t>(i));
    std::string text(str(f.function));
    if (!str(f.file).empty())
        text += " (" + std::string(str(f.file)) + ":" + std::to_string(f.line) + ")";
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
    bytes += allocations.capacity() * sizeof(SnapshotAllocation) + segmentEvents.capacity() * sizeof(SnapshotSegmentEvent);
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
