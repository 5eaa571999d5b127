#include "import/nsys_enums.h"

#include <array>

namespace ws {

std::string_view memcpyKindShort(int64_t copyKind) {
    static constexpr std::array<const char*, 14> kNames = {
        "Unknown", "HtoD", "DtoH", "HtoA", "AtoH",         "AtoA",         "AtoD",
        "DtoA",    "DtoD", "HtoH", "PtoP", "Unified HtoD", "Unified DtoH", "Unified DtoD"};
    return copyKind >= 0 && copyKind < static_cast<int64_t>(kNames.size())
               ? kNames[static_cast<size_t>(copyKind)]
               : "Unknown";
}

std::string_view memoryKindName(int64_t kind, CudaEnumNumbering numbering) {
    static constexpr std::array<const char*, 7> kNames = {
        "Pageable", "Pinned", "Device", "Array", "Managed", "Device Static", "Managed Static"};
    const int64_t k = numbering == CudaEnumNumbering::Cupti ? kind - 1 : kind;
    return k >= 0 && k < static_cast<int64_t>(kNames.size()) ? kNames[static_cast<size_t>(k)] : "Unknown";
}

std::string_view syncTypeName(int64_t type) {
    static constexpr std::array<const char*, 5> kNames = {"Unknown Sync", "Event Sync", "Stream Wait Event",
                                                          "Stream Sync", "Context Sync"};
    return type >= 0 && type < static_cast<int64_t>(kNames.size()) ? kNames[static_cast<size_t>(type)]
                                                                   : "Unknown Sync";
}

std::string memcpyName(int64_t copyKind, int64_t srcKind, int64_t dstKind, CudaEnumNumbering numbering) {
    std::string s = "Memcpy ";
    s += memcpyKindShort(copyKind);
    s += " (";
    s += memoryKindName(srcKind, numbering);
    s += " -> ";
    s += memoryKindName(dstKind, numbering);
    s += ')';
    return s;
}

std::string memsetName(int64_t memKind, CudaEnumNumbering numbering) {
    return "Memset (" + std::string(memoryKindName(memKind, numbering)) + ")";
}

std::string_view apiDisplayName(std::string_view name) {
    const size_t v = name.rfind("_v");
    if (v == std::string_view::npos || name.size() - v < 6) return name;
    for (size_t i = v + 2; i < name.size(); ++i)
        if (name[i] < '0' || name[i] > '9') return name;
    return name.substr(0, v);
}

} // namespace ws
