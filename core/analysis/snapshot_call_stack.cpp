#include "analysis/snapshot_call_stack.h"

namespace ws {

CallStack snapshotCallStack(const MemorySnapshot& s, uint32_t stack) {
    CallStack out;
    if (stack >= s.stackCount())
        return out;
    for (size_t i = 0; i < s.stackSize(stack); ++i) {
        const SnapshotFrame& f = s.frame(stack, i);
        StackFrame frame;
        frame.function = std::string(s.str(f.function));
        const std::string_view file = s.str(f.file);
        if (file != "??")
            frame.file = std::string(file);
        frame.line = f.line;
        frame.kind = file.size() > 3 && file.substr(file.size() - 3) == ".py" ? StackFrameKind::Python : StackFrameKind::Native;
        out.frames.push_back(std::move(frame));
    }
    const int user = s.userFrame(stack);
    if (user >= 0 && !out.frames[static_cast<size_t>(user)].file.empty() && out.frames[static_cast<size_t>(user)].line > 0)
        out.firstSourceFrame = user;
    return out;
}

} // namespace ws
