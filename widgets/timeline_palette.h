#pragma once

#include "model/event_kind.h"

#include <QColor>

#include <string_view>

namespace ws {

/*
 * Colours of timeline slices: stable per name (the same op or kernel has the same colour in every
 * session and every run) from a hash of the name; GPU work by kind so the eye separates compute
 * (greens), communication (warm reds/oranges: NCCL, gloo) and memory traffic (blues for memcpy,
 * purples for memset). Lightness varies by name within a family so neighbours stay distinguishable.
 */
namespace TimelinePalette {

enum class GpuClass { Compute, Communication, Memcpy, Memset, Other };

GpuClass classify(EventKind kind, std::string_view name);
QColor sliceColor(EventKind kind, std::string_view name);
QColor textColorOn(const QColor& background);
QColor foldColor(const QColor& first);

} // namespace TimelinePalette

} // namespace ws
