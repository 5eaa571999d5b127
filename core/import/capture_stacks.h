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
 * Texts are built once per distinct stack in finish(); a launch costs one map entry. Immutable
 * after finish(), so concurrent readers are safe.
 */
class CaptureStacks {
public:
    void addModule(wscap::ModuleRecord m);
    void addStack(wscap::StackDefRecord s);
    void addLaunch(const wscap::CallStackRecord& c);
    void addSymbol(wscap::SymbolRecord s);
    // Formats every stack; call once after the last record.
    void finish();

    // The `Call stack` text of the launch call with this correlation id; nullptr when it has none.
    const std::string* forCorrelation(uint32_t correlationId) const;
    // The text of one stack id ("" when unknown), for tests and tools.
    const std::string& textOf(uint32_t stackId) const;

    size_t launches() const { return m_launches.size(); }
    size_t stacks() const { return m_addresses.size(); }
    bool symbolized() const { return !m_symbols.empty(); }
    bool empty() const { return m_addresses.empty() && m_launches.empty(); }

private:
    const wscap::ModuleRecord* moduleOf(uint64_t address) const;
    std::string format(const std::vector<uint64_t>& addresses) const;

    std::map<uint32_t, wscap::ModuleRecord> m_modules;
    std::vector<const wscap::ModuleRecord*> m_byStart; // built by finish()
    std::unordered_map<uint32_t, std::vector<uint64_t>> m_addresses; // stack id -> return addresses
    std::unordered_map<uint32_t, uint32_t> m_launches;               // correlation -> stack id
    std::map<std::pair<uint32_t, uint64_t>, std::vector<wscap::SymbolRecord>> m_symbols; // (module, offset)
    std::unordered_map<uint32_t, std::string> m_text;                // stack id -> `Call stack` text
};

} // namespace ws
