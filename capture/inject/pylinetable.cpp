#include "inject/pylinetable.h"

namespace ws {

namespace {

// Reads the location table's entries: one first byte with bit 7 set (code in bits 3-6, code units
// covered - 1 in bits 0-2), then varints of 6-bit chunks (bit 6: more follow).
struct Reader {
    const uint8_t* p;
    const uint8_t* end;
    bool varint(uint32_t* out) {
        uint32_t value = 0;
        for (int shift = 0; p < end && shift < 32; shift += 6) {
            const uint8_t b = *p++;
            value |= static_cast<uint32_t>(b & 0x3f) << shift;
            if (!(b & 0x40)) {
                *out = value;
                return true;
            }
        }
        return false;
    }
    bool svarint(int* out) {
        uint32_t u = 0;
        if (!varint(&u))
            return false;
        *out = (u & 1) ? -static_cast<int>(u >> 1) : static_cast<int>(u >> 1);
        return true;
    }
    bool skip(int bytes) {
        if (end - p < bytes)
            return false;
        p += bytes;
        return true;
    }
};

} // namespace

int lineOfOffset(const uint8_t* table, size_t size, int firstLine, int byteOffset) {
    if (byteOffset < 0)
        return firstLine;
    Reader r{table, table + size};
    int line = firstLine;
    long address = 0; // bytes
    while (r.p < r.end) {
        const uint8_t first = *r.p++;
        if (!(first & 0x80))
            return -1; // not at an entry: a damaged copy
        const int code = (first >> 3) & 15;
        const long end = address + 2 * ((first & 7) + 1);
        bool hasLine = true;
        int delta = 0;
        uint32_t ignored = 0;
        if (code == 15) { // no location
            hasLine = false;
        } else if (code == 14) { // long form: line delta, end line delta, column, end column
            if (!r.svarint(&delta) || !r.varint(&ignored) || !r.varint(&ignored) || !r.varint(&ignored))
                return -1;
        } else if (code == 13) { // no columns: line delta
            if (!r.svarint(&delta))
                return -1;
        } else if (code >= 10) { // one line: delta code - 10, then start and end column
            delta = code - 10;
            if (!r.skip(2))
                return -1;
        } else if (!r.skip(1)) { // short form: same line, one byte of columns
            return -1;
        }
        line += delta;
        if (byteOffset >= address && byteOffset < end)
            return hasLine ? line : -1;
        address = end;
    }
    return -1;
}

} // namespace ws
