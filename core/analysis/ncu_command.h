#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ws {

class KernelTable;
class Session;

/*
 * The Nsight Compute run that profiles chosen launches of a kernel (issue #49's hand-off).
 *
 * ncu selects kernels by name and counts launches: `--kernel-name-base function` compares the
 * function's own name (no namespace, template arguments or parameters: "elementwise_kernel" for
 * "void at::native::elementwise_kernel<128, 4, ...>(int, ...)"), which is the part of a name ncu's
 * demangler and ours write alike; `--launch-skip N` skips the first N launches that match the
 * filter. So the k-th launch of a kernel is the number of earlier launches, in the run, of kernels
 * with the same function name. The table's rows are in GPU start order, which is launch order on one
 * stream; across streams a launch may start out of order by a few.
 *
 * The program and its arguments are the capture's (the command line its stream header recorded);
 * a trace from torch.profiler does not say them, and the command then ends in "PROGRAM [ARGS]".
 */
struct NcuCommand {
    std::string function;  // the kernel-name-base function name matched
    uint64_t skip = 0;     // launches of that name before the chosen one
    uint32_t count = 1;
    uint64_t launches = 0; // of that name in the whole run
    std::vector<std::string> program; // empty when the session does not know it
    std::string reportName;           // the -o name, without .ncu-rep

    // ncu's arguments, then the program's (or the placeholder).
    std::vector<std::string> arguments() const;
    // The whole command line, for a shell (POSIX single quotes where needed).
    std::string shellCommand() const;
    // The two exports Warpscope reads back (ncu_import.h): --page raw and --page details, as CSV.
    std::string exportCommands() const;
    // Both, as the views copy them: the command, then the exports.
    std::string handOffText() const { return shellCommand() + "\n" + exportCommands(); }
};

// The function name ncu's `--kernel-name-base function` compares, of a demangled kernel name.
std::string kernelFunctionName(std::string_view name);

// The ncu run for `count` launches starting at the table's row `row`.
NcuCommand ncuCommandFor(const Session& session, const KernelTable& table, uint32_t row, uint32_t count = 1);

// A shell word: unchanged when it is made of safe characters, else in single quotes.
std::string shellQuote(std::string_view word);

} // namespace ws
