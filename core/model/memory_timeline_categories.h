#pragma once

namespace ws {

/*
 * The categories of a PyTorch memory timeline (torch.profiler's export_memory_timeline; torch's
 * _memory_profiler.py _CATEGORY_TO_INDEX): what the model calls the counter series the importer
 * (import/torch_memory_timeline_importer.h) fills and the analyses (analysis/memory_categories.h)
 * read, so that both name them the same way without the analyses reading an importer header.
 *
 * The session holds one series per category under the counter kMemoryTimelineCounter, named by
 * memoryTimelineCategoryName(index): parameter, optimizer state, input, temporary, activation,
 * gradient, autograd detail, unknown.
 */
inline constexpr int kMemoryTimelineCategories = 8;
inline constexpr const char* kMemoryTimelineCounter = "Memory by category";

// The category names, by index; "Unknown" outside [0, kMemoryTimelineCategories).
const char* memoryTimelineCategoryName(int index);

} // namespace ws
