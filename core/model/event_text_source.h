#pragma once

#include <cstdint>
#include <string>

namespace ws {

/*
 * EventTextSource: where a session finds the JSON text of an event (its arguments) on demand, by
 * the slice's argRef. Arguments are never held in the model's columns: an imported trace reads
 * them back from its source file, a stored session from its compressed args table.
 */
class EventTextSource {
public:
    virtual ~EventTextSource() = default;
    // The event's JSON object text (at least {"args": ...}); empty when unavailable.
    virtual std::string eventJson(uint64_t argRef) const = 0;
    // Whether threads may call eventJson side by side at different places and each go as fast as
    // alone. Sources that read forward or cache one block (a stored session's chunks, an XSpace
    // stream) say no: interleaved callers would make them read again from the start or the block.
    virtual bool parallelReads() const { return false; }
};

} // namespace ws
