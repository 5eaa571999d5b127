#include "import/capture_names.h"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>

namespace ws::capture {

const char* memcpyKindName(uint32_t kind) {
    static const char* const names[] = {"Unknown", "HtoD", "DtoH", "HtoA", "AtoH", "AtoA",
                                        "AtoD",    "DtoA", "DtoD", "HtoH", "PtoP"};
    return kind < std::size(names) ? names[kind] : "Unknown";
}

const char* memoryKindName(uint32_t kind) {
    static const char* const names[] = {"Unknown", "Pageable", "Pinned",        "Device",
                                        "Array",   "Managed",  "Device Static", "Managed Static"};
    return kind < std::size(names) ? names[kind] : "Unknown";
}

const char* syncTypeName(uint32_t type) {
    static const char* const names[] = {"Unknown Synchronization", "Event Synchronize", "Stream Wait Event",
                                        "Stream Synchronize", "Context Synchronize"};
    return type < std::size(names) ? names[type] : "Unknown Synchronization";
}

const char* overheadKindName(uint32_t kind) {
    switch (kind) {
    case 1: return "Driver compiler";
    case 1u << 16: return "CUPTI buffer flush";
    case 2u << 16: return "CUPTI instrumentation";
    case 3u << 16: return "CUPTI resource";
    case 4u << 16: return "Runtime-triggered module loading";
    case 5u << 16: return "Lazy function loading";
    case 6u << 16: return "Command buffer full";
    case 7u << 16: return "Activity buffer request";
    case 8u << 16: return "UVM activity init";
    default: return "CUPTI overhead";
    }
}

std::string_view apiDisplayName(std::string_view name) {
    const size_t v = name.rfind("_v");
    if (v == std::string_view::npos || v == 0 || v + 2 >= name.size())
        return name;
    for (size_t i = v + 2; i < name.size(); ++i)
        if (name[i] < '0' || name[i] > '9')
            return name;
    return name.substr(0, v);
}

std::string demangle(const std::string& name) {
    if (name.size() < 3 || name[0] != '_' || name[1] != 'Z')
        return name;
    int status = 0;
    std::unique_ptr<char, void (*)(void*)> out(abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status), std::free);
    return status == 0 && out ? std::string(out.get()) : name;
}

} // namespace ws::capture
