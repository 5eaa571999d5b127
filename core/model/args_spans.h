#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace ws {

/*
 * ArgsSpans: where each event's "args" value lies in a JSON trace's text, as the importer's parse
 * found it. Storing a session copies every event's args out of the source (SessionStore): with the
 * spans it copies the bytes, instead of cutting each event object again to find its args member,
 * which was a third of the store's time.
 *
 * Kept only for an import that is going to be stored (ImportControl::forStore, StorePreparation),
 * and dropped after the store: 12 bytes per event with args. Refs are the events'
 * source offsets (their Track::argRef), added in ascending order; the value starts `offset` bytes
 * into its event. An event whose args start further in or run longer than the packing holds gets no
 * span, and the store cuts that one as before.
 */
class ArgsSpans {
public:
    static constexpr uint32_t kOffsetBits = 12;
    static constexpr uint32_t kMaxOffset = (1u << kOffsetBits) - 1;
    static constexpr uint32_t kMaxLength = (1u << (32 - kOffsetBits)) - 1;

    struct Span {
        uint64_t begin = 0; // source offset of the value's first byte ('{')
        uint32_t length = 0;
    };

    // False (and nothing kept) when the span does not fit the packing or ref does not ascend.
    bool add(uint64_t ref, uint32_t offset, uint32_t length);
    // Appends another's spans, whose refs all follow this one's (the next block of the file); false
    // (nothing appended) when they do not.
    bool append(const ArgsSpans& later);
    // Removes the spans from index `size` on (a parse group that is redone).
    void truncate(size_t size);
    size_t size() const { return m_refs.size(); }
    bool empty() const { return m_refs.empty(); }
    // The refs in ascending order, and the span of the i-th.
    const std::vector<uint64_t>& refs() const { return m_refs; }
    Span at(size_t i) const { return Span{m_refs[i] + (m_packed[i] & kMaxOffset), m_packed[i] >> kOffsetBits}; }
    size_t memoryBytes() const { return m_refs.capacity() * sizeof(uint64_t) + m_packed.capacity() * sizeof(uint32_t); }

    // Looks refs up in ascending order, each from where the previous one was found.
    class Cursor {
    public:
        explicit Cursor(const ArgsSpans& spans) : m_spans(spans) {}
        std::optional<Span> find(uint64_t ref);

    private:
        const ArgsSpans& m_spans;
        size_t m_next = 0;
    };

private:
    std::vector<uint64_t> m_refs;
    std::vector<uint32_t> m_packed; // offset in the low kOffsetBits bits, length above
};

} // namespace ws
