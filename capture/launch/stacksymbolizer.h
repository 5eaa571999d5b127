#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ws::stacksymbolizer {

/*
 * Symbolization of the native call stacks in a capture stream, after the target exited (shared by
 * warpscope-capture and the GUI's capture launcher). The injection library only records raw return
 * addresses and the modules they fall in (wscapformat.h, "Native call stacks"); here, for every
 * module with referenced addresses, `addr2line -a -f -C -i -e MODULE OFFSETS...` runs (fork/exec,
 * an argument vector, never a shell) and its answers are appended to the same stream as Symbol
 * records, so the stream stays one self-contained file. Modules of the launch plumbing (this
 * library, CUPTI, libcuda, libcudart) and files that no longer exist are skipped. Without addr2line
 * nothing is appended and the stack view shows module+offset frames.
 */

/* One frame addr2line gave for an address; inline frames come innermost first. */
struct Frame {
    std::string function; // "" when addr2line said "??"
    std::string file;     // "" when unknown
    uint32_t line = 0;    // 0 when unknown
};

struct Result {
    size_t stacks = 0;          // StackDef records in the stream
    size_t addresses = 0;       // distinct (module, offset) looked up
    size_t withSource = 0;      // of those, how many got a file and line
    size_t modules = 0;         // modules addr2line ran on
    bool alreadySymbolized = false;
    bool toolMissing = false;   // no addr2line: nothing appended
};

// The addr2line program to run: $WARPSCOPE_ADDR2LINE when set, else addr2line from PATH; "" when none.
std::string findAddr2Line();

// Parses the output of `addr2line -a -f -C -i` for `count` addresses: one list of frames per
// address, in order. Each address starts with its "0x..." line; then pairs of function and
// "file:line" lines ("??:0", "??:?", "file:?", " (discriminator N)" are understood).
std::vector<std::vector<Frame>> parseAddr2Line(const std::string& output, size_t count);

// Runs `tool -a -f -C -i -e module` on the offsets (ELF virtual addresses), in batches; false with
// *error when the tool cannot run or says something unparseable.
bool runAddr2Line(const std::string& tool, const std::string& module, const std::vector<uint64_t>& offsets,
                  std::vector<std::vector<Frame>>* frames, std::string* error);

// Symbolizes one stream in place (appends Symbol records; a stream cut inside its last record is
// first cut back to its last complete record). A stream without StackDef records, or one that has
// Symbol records already, is left as it is. False with *error when the file cannot be read or written.
bool symbolizeStream(const std::string& path, const std::string& tool, Result* result, std::string* error);

} // namespace ws::stacksymbolizer
