#include "model/memory_timeline_categories.h"

namespace ws {

const char* memoryTimelineCategoryName(int index) {
    static const char* const kNames[kMemoryTimelineCategories] = {
        "Parameter", "Optimizer state", "Input", "Temporary", "Activation", "Gradient", "Autograd detail", "Unknown"};
    return index >= 0 && index < kMemoryTimelineCategories ? kNames[index] : "Unknown";
}

} // namespace ws
