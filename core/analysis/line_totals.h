#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>

namespace ws {

class Session;

/* What happened under one source line: inclusive totals (the line anywhere on the stack). */
struct LineCost {
    int64_t kernelNs = 0;     // GPU time of kernels launched with this line on the Python stack
    uint64_t kernels = 0;
    int64_t allocatedBytes = 0; // bytes of allocations made with this line on the stack
    uint64_t allocations = 0;
};

/*
 * LineTotals: per source file and line, the kernel time and allocations whose stack passes through
 * that line, for the source pane's gutter. A kernel's stack is the chain of python_function slices
 * enclosing its launching runtime call (found through its ac2g flow) plus the native frames of that
 * call's `Call stack` argument (captures with launch stacks); an allocation's is the Python chain
 * enclosing its [memory] record on its thread. Totals are inclusive, like a flame graph's:
 * a kernel counts once for every distinct line on its stack (recursion does not count it twice),
 * so lines of one file do not add up to the total.
 * Cost: O((kernels + allocations) * stack depth * log n) plus one pass over the launches' arguments.
 */
class LineTotals {
public:
    static LineTotals compute(const Session& session);

    // Totals by line of a file as the trace names it; nullptr when nothing maps to it.
    const std::map<int32_t, LineCost>* forFile(std::string_view recordedFile) const;
    size_t fileCount() const { return m_files.size(); }

private:
    std::unordered_map<std::string, std::map<int32_t, LineCost>> m_files;
};

} // namespace ws
