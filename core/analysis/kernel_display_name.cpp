#include "analysis/kernel_display_name.h"

#include "analysis/ncu_command.h"

namespace ws {

std::string shortKernelName(std::string_view name) {
    std::string base = kernelFunctionName(name);
    // Folded template arguments: the base is followed by '<' in the name.
    const size_t at = name.find(base);
    if (at != std::string_view::npos && at + base.size() < name.size() && name[at + base.size()] == '<')
        base += "<\u2026>";
    return base;
}

} // namespace ws
