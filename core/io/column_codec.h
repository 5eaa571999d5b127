#pragma once

#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ws {

/*
 * ColumnCodec: how the session store packs one chunk of a column into a blob.
 *
 * - Int64 columns (timestamps, durations, offsets) are delta-encoded against the previous row,
 *   zigzag-mapped and written as LEB128 varints, then zstd-compressed: sorted timestamps become
 *   small deltas of one or two bytes before zstd even starts.
 * - Fixed-width columns of other types (ids, categories, floats) are byte-shuffled (all first
 *   bytes, then all second bytes, ...) and zstd-compressed; shuffling puts the mostly-zero high
 *   bytes together, which zstd then nearly erases.
 *
 * Every blob starts with a one-byte codec tag and the row count (varint), so a reader checks that
 * a chunk is what it expects; a damaged blob decodes to false, never to garbage or a crash.
 */
namespace ColumnCodec {

std::string encodeInt64(std::span<const int64_t> values, int zstdLevel = 3);
bool decodeInt64(std::string_view blob, std::vector<int64_t>& out);

std::string encodeFixed(const void* data, size_t count, size_t width, int zstdLevel = 3);
bool decodeFixed(std::string_view blob, size_t width, std::vector<uint8_t>& out, size_t& count);

// The row count a blob's header announces (any codec), without decoding it; false if unreadable.
bool rowCount(std::string_view blob, uint64_t& count);

template <typename T> std::string encode(std::span<const T> values, int zstdLevel = 3) {
    return encodeFixed(values.data(), values.size(), sizeof(T), zstdLevel);
}
template <typename T> bool decode(std::string_view blob, std::vector<T>& out) {
    std::vector<uint8_t> bytes;
    size_t count = 0;
    if (!decodeFixed(blob, sizeof(T), bytes, count))
        return false;
    out.resize(count);
    if (count)
        std::memcpy(out.data(), bytes.data(), count * sizeof(T));
    return true;
}

} // namespace ColumnCodec

} // namespace ws
