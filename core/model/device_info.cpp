#include "model/device_info.h"

#include <algorithm>
#include <cctype>

namespace ws {

DeviceInfo::Vendor deviceVendor(const DeviceInfo& d) {
    if (d.vendor != DeviceInfo::Vendor::Unknown)
        return d.vendor;
    std::string name = d.name;
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
    for (const char* amd : {"amd ", "radeon", "instinct", "gfx9", "gfx1"})
        if (name.find(amd) != std::string::npos)
            return DeviceInfo::Vendor::Amd;
    for (const char* nvidia : {"nvidia", "tesla", "geforce", "quadro", "titan"})
        if (name.find(nvidia) != std::string::npos)
            return DeviceInfo::Vendor::Nvidia;
    return DeviceInfo::Vendor::Unknown;
}

} // namespace ws
