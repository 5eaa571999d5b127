#include "timeline_palette.h"

#include <algorithm>
#include <cstdint>

namespace ws::TimelinePalette {

namespace {

uint32_t fnv1a(std::string_view s) {
    uint32_t h = 2166136261u;
    for (char c : s) {
        h ^= static_cast<uint8_t>(c);
        h *= 16777619u;
    }
    return h;
}

bool contains(std::string_view haystack, std::string_view needle) {
    return haystack.find(needle) != std::string_view::npos;
}

} // namespace

GpuClass classify(EventKind kind, std::string_view name) {
    switch (kind) {
    case EventKind::Memcpy:
        return GpuClass::Memcpy;
    case EventKind::Memset:
        return GpuClass::Memset;
    case EventKind::Kernel:
        if (contains(name, "nccl") || contains(name, "Nccl") || contains(name, "gloo") || contains(name, "rccl"))
            return GpuClass::Communication;
        return GpuClass::Compute;
    default:
        return GpuClass::Other;
    }
}

QColor sliceColor(EventKind kind, std::string_view name) {
    const uint32_t h = fnv1a(name);
    const int vary = static_cast<int>(h % 5); // five lightness steps within a family
    switch (classify(kind, name)) {
    case GpuClass::Compute:
        return QColor::fromHsl(90 + static_cast<int>(h % 50), 150, 95 + vary * 14);
    case GpuClass::Communication:
        return QColor::fromHsl(5 + static_cast<int>(h % 30), 190, 110 + vary * 12);
    case GpuClass::Memcpy:
        return QColor::fromHsl(205 + static_cast<int>(h % 20), 170, 120 + vary * 12);
    case GpuClass::Memset:
        return QColor::fromHsl(275 + static_cast<int>(h % 20), 120, 130 + vary * 10);
    case GpuClass::Other:
        break;
    }
    // Host-side events: any hue, moderate saturation, light enough for dark text.
    return QColor::fromHsl(static_cast<int>(h % 360), 110 + static_cast<int>((h >> 9) % 60),
                           150 + static_cast<int>((h >> 17) % 40));
}

QColor textColorOn(const QColor& background) {
    // Perceived luminance (Rec. 601 weights) decides black or white text.
    const int y = (background.red() * 299 + background.green() * 587 + background.blue() * 114) / 1000;
    return y > 140 ? QColor(20, 20, 20) : QColor(250, 250, 250);
}

QColor foldColor(const QColor& first) {
    // Darker and a little greyer than the slice colour.
    return QColor::fromHsl(first.hslHue(), first.hslSaturation() * 2 / 3, std::max(40, first.lightness() * 2 / 3));
}

} // namespace ws::TimelinePalette
