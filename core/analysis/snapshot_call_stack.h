#pragma once

#include "analysis/call_stack.h"
#include "model/memory_snapshot.h"

namespace ws {

// A snapshot stack (frames innermost first) as the Stack tab's CallStack: `.py` frames are Python,
// the rest Native; frames without a usable file ("??", "") keep none; the first source frame is the
// stack's userFrame (the allocating user line, not PyTorch's own), so the source pane opens there.
CallStack snapshotCallStack(const MemorySnapshot& snapshot, uint32_t stack);

} // namespace ws
