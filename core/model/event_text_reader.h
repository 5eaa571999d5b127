#pragma once

#include "io/input_stream.h"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace ws {

/*
 * EventTextReader: one sequential pass over a trace's (decompressed) text that returns the JSON
 * object starting at each requested offset. Offsets must come in ascending order, so a whole
 * session's arguments are pulled out of a gzip file with one inflate, not one per event. Memory is
 * one read buffer plus the current object.
 */
class EventTextReader {
public:
    bool open(const std::string& path);
    const std::string& error() const { return m_error; }

    // The balanced object at `offset` (strings and escapes honoured), trailing commas blanked
    // (json_trailing_commas.h); false when the offset is behind the previous one, past the end, or
    // not at a '{'.
    // With `separators`: also the positions in `out` of the object's top-level ':' and ',' and of
    // its closing '}', in order, for member() (one scan instead of two).
    bool objectAt(uint64_t offset, std::string& out, std::vector<uint32_t>* separators = nullptr);
    // The same object without copying it where it can: `object` points into the read buffer (valid
    // until the next call), or into `scratch` when the object straddles a refill or needed the
    // trailing-comma repair.
    bool objectViewAt(uint64_t offset, std::string_view& object, std::string& scratch,
                      std::vector<uint32_t>* separators = nullptr);
    // `length` bytes at `offset` as they are (a span the importer found, args_spans.h): in the read
    // buffer (valid until the next call), or in `scratch` when they straddle a refill. Offsets
    // ascend, as for objectAt.
    bool bytesAt(uint64_t offset, size_t length, std::string_view& bytes, std::string& scratch);
    // The value text of a top-level member, as topLevelMember (json_members.h) gives it, from the
    // separators objectAt found; for an object of any other shape, topLevelMember itself.
    static std::string_view member(std::string_view object, const std::vector<uint32_t>& separators,
                                   std::string_view key);

    // Whether the object cutter compares 64-byte blocks with AVX-512 where the CPU has it (the
    // default) or with SSE2 only (the tests run both).
    static void setWideBlocks(bool on);

    // Hands every byte of the file, in order, to `observer` as it is read (call before the first
    // objectAt); only where the text is the file itself (not compressed): false otherwise. With
    // readToEnd(), whoever reads the events anyway hashes the file without reading it again.
    bool observeFileBytes(std::function<void(const char*, size_t)> observer);
    // Reads (and hands to the observer) the rest of the file; false on a read error.
    bool readToEnd();

private:
    bool fill();
    // Moves to `offset` (at or after the current position) with at least one byte there to read.
    bool skipTo(uint64_t offset);
    bool getChar(char& c);

    InputStream m_in;
    std::vector<char> m_buf;
    size_t m_len = 0;
    size_t m_pos = 0;        // position inside m_buf
    uint64_t m_bufStart = 0; // absolute offset of m_buf[0]
    std::string m_error;
    std::function<void(const char*, size_t)> m_observer;
};

} // namespace ws
