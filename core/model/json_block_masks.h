#pragma once

#if defined(__SSE2__)
#include <cstdint>
#include <emmintrin.h>

namespace ws::json_block {

/*
 * The 64-byte block masks of the JSON fast paths (JsonEventScanner's structural pre-pass,
 * EventTextReader's object cutter): a block is loaded as four SSE2 registers, each compare gives
 * one bit per byte (bit i = byte i), and a prefix XOR of the quote mask marks string interiors.
 * Shared so that the rules (which bytes are brackets, which are blank) are written once.
 */
struct Block {
    __m128i v[4];
    explicit Block(const char* p) {
        for (int k = 0; k < 4; ++k)
            v[k] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * k));
    }
};

inline uint64_t bitsOf(__m128i m0, __m128i m1, __m128i m2, __m128i m3) {
    auto b = [](__m128i m) { return static_cast<uint64_t>(static_cast<uint32_t>(_mm_movemask_epi8(m))); };
    return b(m0) | b(m1) << 16 | b(m2) << 32 | b(m3) << 48;
}

inline uint64_t maskOf(const Block& b, char c) {
    const __m128i n = _mm_set1_epi8(c);
    return bitsOf(_mm_cmpeq_epi8(b.v[0], n), _mm_cmpeq_epi8(b.v[1], n), _mm_cmpeq_epi8(b.v[2], n),
                  _mm_cmpeq_epi8(b.v[3], n));
}

// '[' and '{' (or ']' and '}') differ only in bit 0x20: one compare finds both.
inline uint64_t maskOfCaseless(const Block& b, char c) {
    const __m128i n = _mm_set1_epi8(c);
    const __m128i bit = _mm_set1_epi8(0x20);
    auto eq = [&](__m128i x) { return _mm_cmpeq_epi8(_mm_or_si128(x, bit), n); };
    return bitsOf(eq(b.v[0]), eq(b.v[1]), eq(b.v[2]), eq(b.v[3]));
}

// Bytes <= 0x20: JSON whitespace (other control bytes are invalid outside strings anyway).
inline uint64_t maskOfSpace(const Block& b) {
    const __m128i sp = _mm_set1_epi8(0x20);
    auto le = [&](__m128i x) { return _mm_cmpeq_epi8(_mm_min_epu8(x, sp), x); };
    return bitsOf(le(b.v[0]), le(b.v[1]), le(b.v[2]), le(b.v[3]));
}

// Bit i set for every byte after an odd number of quotes up to and including i.
inline uint64_t prefixXor(uint64_t x) {
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    x ^= x << 32;
    return x;
}

} // namespace ws::json_block
#endif
