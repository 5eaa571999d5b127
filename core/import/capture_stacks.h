#pragma once

#include "format/wscapformat.h"

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ws {

/*
 * CaptureStacks: the native call stacks of one capture stream (format 1.1, "stacks" activity) as
 * `Call stack` argument text for the launching API call, in the form Session::callStack parses:
 * "file(line): function;file(line): function", innermost first.
 *
 * Each StackDef address is mapped to its Module and looked up in the Symbol records the launcher
 * appended after the run (inline frames expand to several entries). Frames of the launch plumbing
 * at the inner end (this profiler's injection library, CUPTI, libcuda, libcudart, a static cudart's
 * cuda* functions and nvcc's __device_stub__ wrappers) are left out, so the innermost frame is the
 * application's launch site. Frames without debug information name their module as the file with
 * line 0 ("libtorch_cuda.so(0): at::native::foo"), or "module+0xoffset" as the function when not
 * even a symbol is known; an address outside every module shows as "(unknown module)(0): 0x...".
 *
 * Python stacks (format 1.2, "pystacks"): a call's PyStack frames follow its native frames, which
 * then stop at the first frame of the Python interpreter (libpython, a python executable): below
 * that the native frames are the interpreter's own loop, which the Python frames say better. A
 * Python frame is "file(line): qualified function", as torch.profiler writes its stacks.
 *
 * Texts are built once per distinct (native, Python) stack pair in finish(); a launch costs one map
 * entry. Immutable after finish(), so concurrent readers are safe.
 */
class CaptureStacks {
public:
    void addModule(wscap::ModuleRecord m);
    void addStack(wscap::StackDefRecord s);
    void addLaunch(const wscap::CallStackRecord& c);
    void addSymbol(wscap::SymbolRecord s);
    void addPyFrame(wscap::PyFrameRecord f);
    void addPyStack(wscap::PyStackRecord s);
    // The stacks taken where a CUDA graph node was made (GraphNode record, format 1.7) or an
    // executable graph instantiated (GraphExec: graphExecId with the top bit set).
    void addGraphNode(uint64_t nodeId, uint32_t stackId, uint32_t pyStackId);
    static constexpr uint64_t kGraphExecKey = uint64_t(1) << 63;
    // Formats every stack; call once after the last record.
    void finish();

    // The `Call stack` text of the launch call with this correlation id; nullptr when it has none.
    const std::string* forCorrelation(uint32_t correlationId) const;
    // The `Call stack` text of a graph node's (or, with kGraphExecKey, an executable graph's) own
    // stacks; nullptr when none was taken.
    const std::string* forGraphNode(uint64_t nodeId) const;
    // The launch call's (native, Python) stack pair as one key, equal for equal stacks; 0: none.
    uint64_t stackKeyFor(uint32_t correlationId) const {
        const auto it = m_launches.find(correlationId);
        return it == m_launches.end() ? 0 : it->second;
    }
    // A PyTorch operator range (at this record offset) takes the stack of the first call with a
    // Python stack inside it: the Python line that called the operator, as torch.profiler's
    // with_stack shows it. Call after finish().
    void setOperatorStack(uint64_t rangeOffset, uint32_t launchCorrelation);
    const std::string* forOperator(uint64_t rangeOffset) const;

    // A Python stack's frame ids, innermost first; nullptr for an unknown id.
    const std::vector<uint64_t>* pyStack(uint32_t pyStackId) const;
    // A Python frame's record; nullptr for an unknown id.
    const wscap::PyFrameRecord* pyFrame(uint32_t frameId) const {
        const auto it = m_pyFrames.find(frameId);
        return it == m_pyFrames.end() ? nullptr : &it->second;
    }
    // A Python frame as "file(line): function", the name of a python_function slice.
    std::string pyFrameText(uint32_t frameId) const;

    size_t launches() const { return m_launches.size(); }
    size_t stacks() const { return m_addresses.size(); }
    size_t pythonStacks() const { return m_pyStacks.size(); }
    bool symbolized() const { return !m_symbols.empty(); }
    bool empty() const {
        return m_addresses.empty() && m_pyStacks.empty() && m_launches.empty() && m_graphNodes.empty();
    }

private:
    const wscap::ModuleRecord* moduleOf(uint64_t address) const;
    // Native frames as text; with stopAtPython, only those above the first interpreter frame.
    std::string format(const std::vector<uint64_t>& addresses, bool stopAtPython) const;
    std::string formatPython(uint32_t pyStackId) const;
    void formatPair(uint64_t key); // into m_text, once per key
    const std::string* textOf(uint64_t key) const;
    static uint64_t pairKey(uint32_t native, uint32_t python) { return (uint64_t(native) << 32) | python; }

    std::map<uint32_t, wscap::ModuleRecord> m_modules;
    std::vector<const wscap::ModuleRecord*> m_byStart; // built by finish()
    std::unordered_map<uint32_t, std::vector<uint64_t>> m_addresses; // stack id -> return addresses
    std::unordered_map<uint32_t, uint64_t> m_launches;               // correlation -> pairKey(native, python)
    std::unordered_map<uint64_t, uint64_t> m_graphNodes;             // graph node id -> pairKey
    std::unordered_map<uint32_t, wscap::PyFrameRecord> m_pyFrames;   // frame id -> frame
    std::unordered_map<uint32_t, std::vector<uint64_t>> m_pyStacks;  // Python stack id -> frame ids
    std::map<std::pair<uint32_t, uint64_t>, std::vector<wscap::SymbolRecord>> m_symbols; // (module, offset)
    std::unordered_map<uint64_t, std::string> m_text;                // pairKey -> `Call stack` text
    std::unordered_map<uint64_t, uint64_t> m_operators;              // range record offset -> pairKey
};

} // namespace ws
