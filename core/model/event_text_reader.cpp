#include "model/event_text_reader.h"

#include "model/json_block_masks.h"

#include "model/json_members.h"
#include "model/json_string_scan.h"
#include "model/json_trailing_commas.h"

#include <algorithm>
#include <atomic>
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

namespace ws {

namespace {
constexpr size_t kBufferSize = 1 << 20;

/* The object cutter's state between bytes, blocks and buffer refills. */
struct CutState {
    int depth = 0;
    JsonStringScan scan;
    char last = 0;              // the last byte that is not blank (isBlank), in a string or not
    bool trailingComma = false; // a closer (outside strings) came right after a ',' and blanks
    bool done = false;          // the object's closing brace was consumed
};

inline void separatorAt(std::vector<uint32_t>* separators, size_t at) {
    if (separators)
        separators->push_back(static_cast<uint32_t>(at));
}

// Whitespace, and the control bytes JSON forbids unescaped anyway: the block masks' rule (one compare).
inline bool isBlank(char c) { return static_cast<unsigned char>(c) <= 0x20; }

// One byte of the object; `at` is its position in the output text. The byte before a closer,
// blanks skipped, is never inside a string (a string ends with a quote), so `last` == ',' there
// means a trailing comma.
inline void cutByte(char c, CutState& st, std::vector<uint32_t>* separators, size_t at) {
    if (st.scan.outside(c)) {
        switch (c) {
        case '{':
        case '[': ++st.depth; break;
        case '}':
        case ']':
            st.trailingComma |= st.last == ',';
            if (--st.depth == 0) {
                separatorAt(separators, at);
                st.done = true;
            }
            break;
        case ',':
        case ':':
            if (st.depth == 1)
                separatorAt(separators, at);
            break;
        default: break;
        }
    }
    if (!isBlank(c))
        st.last = c;
}

/* One bit per byte of a 64-byte block (bit i = byte i) for each kind of byte the cutter needs. */
struct BlockMasks {
    uint64_t backslash, quote, open, close, blank, comma, colon;
};

#if defined(__SSE2__)
BlockMasks blockMasksSse2(const char* p) {
    using namespace json_block;
    const Block b(p);
    return {maskOf(b, '\\'), maskOf(b, '"'),     maskOfCaseless(b, '{'), maskOfCaseless(b, '}'),
            maskOfSpace(b),  maskOf(b, ','), maskOf(b, ':')};
}
#endif

#if defined(__x86_64__) && defined(__GNUC__)
// AVX-512BW compares 64 bytes into a mask in one instruction: a fifth of the SSE2 path's work,
// where the CPU has it (chosen at run time; the build targets plain x86-64).
__attribute__((target("avx512bw"))) BlockMasks blockMasksAvx512(const char* p) {
    const __m512i v = _mm512_loadu_si512(p);
    const __m512i lower = _mm512_or_si512(v, _mm512_set1_epi8(0x20)); // '[' -> '{', ']' -> '}'
    return {_mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('\\')),
            _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('"')),
            _mm512_cmpeq_epi8_mask(lower, _mm512_set1_epi8('{')),
            _mm512_cmpeq_epi8_mask(lower, _mm512_set1_epi8('}')),
            _mm512_cmple_epu8_mask(v, _mm512_set1_epi8(0x20)),
            _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(',')),
            _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(':'))};
}
#endif

using BlockMasksFn = BlockMasks (*)(const char*);

BlockMasksFn chooseBlockMasks(bool wide) {
#if defined(__x86_64__) && defined(__GNUC__)
    if (wide && __builtin_cpu_supports("avx512bw"))
        return blockMasksAvx512;
#endif
    (void)wide;
#if defined(__SSE2__)
    return blockMasksSse2;
#else
    return nullptr;
#endif
}

std::atomic<BlockMasksFn> g_blockMasks{chooseBlockMasks(true)};

/*
 * 64 bytes of the object at once, the same state changes as 64 cutByte calls (or as many as reach
 * the closing brace): masks of quotes, brackets, colons, commas and blanks (BlockMasks), a prefix
 * XOR of the quotes for the string interiors; then only the brackets outside strings are visited
 * in order (a few per event), which gives the depth and the stretches at depth 1, whose ':' and ','
 * are the separators, taken from the masks. A closer's trailing comma is the last non-blank byte
 * before it (in the block, or carried in `last`). Returns the bytes consumed, or -1 (nothing done)
 * for a block with a backslash: escapes go byte by byte. Most of a store's time went into this
 * scan when it was byte by byte.
 */
int cutBlock(const char* p, CutState& st, std::vector<uint32_t>* separators, size_t at) {
    const BlockMasksFn masks = g_blockMasks.load(std::memory_order_relaxed);
    if (!masks)
        return -1;
    const BlockMasks m = masks(p);
    if (m.backslash)
        return -1;
    const uint64_t outside = ~(json_block::prefixXor(m.quote) ^ (st.scan.inString ? ~uint64_t(0) : 0));
    const uint64_t open = m.open & outside;
    const uint64_t close = m.close & outside;
    const uint64_t nonBlank = ~m.blank;
    auto below = [](unsigned i) { return i >= 64 ? ~uint64_t(0) : (uint64_t(1) << i) - 1; }; // bits [0, i)
    uint64_t depthOne = 0; // bytes at depth 1
    unsigned from = 0;     // where the current depth-1 stretch began
    int depth = st.depth;
    int end = -1;
    for (uint64_t bits = open | close; bits; bits &= bits - 1) {
        const auto i = static_cast<unsigned>(__builtin_ctzll(bits));
        if (depth == 1)
            depthOne |= below(i) & ~below(from);
        if ((open >> i) & 1) {
            ++depth;
        } else {
            const uint64_t before = nonBlank & below(i);
            const char previous = before ? p[63 - __builtin_clzll(before)] : st.last;
            st.trailingComma |= previous == ',';
            if (--depth == 0) {
                end = static_cast<int>(i);
                break;
            }
        }
        if (depth == 1)
            from = i + 1;
    }
    if (end < 0 && depth == 1)
        depthOne |= ~below(from);
    if (separators)
        for (uint64_t bits = (m.comma | m.colon) & outside & depthOne; bits; bits &= bits - 1)
            separators->push_back(static_cast<uint32_t>(at + static_cast<unsigned>(__builtin_ctzll(bits))));
    st.depth = depth;
    if (end >= 0) {
        separatorAt(separators, at + static_cast<size_t>(end));
        st.done = true;
        st.scan.inString = false;
        st.last = '}';
        return end + 1;
    }
    if (nonBlank)
        st.last = p[63 - __builtin_clzll(nonBlank)];
    st.scan.inString = !((outside >> 63) & 1);
    return 64;
}

} // namespace

void EventTextReader::setWideBlocks(bool on) { g_blockMasks = chooseBlockMasks(on); }

bool EventTextReader::open(const std::string& path) {
    if (!m_in.open(path)) {
        m_error = m_in.error();
        return false;
    }
    m_buf.resize(kBufferSize);
    m_len = m_pos = 0;
    m_bufStart = 0;
    return true;
}

bool EventTextReader::fill() {
    m_bufStart += m_len;
    m_len = m_in.read(m_buf.data(), m_buf.size());
    m_pos = 0;
    if (m_observer && m_len > 0)
        m_observer(m_buf.data(), m_len);
    return m_len > 0;
}

bool EventTextReader::observeFileBytes(std::function<void(const char*, size_t)> observer) {
    if (m_in.compression() != InputStream::Compression::None || m_bufStart + m_len > 0)
        return false;
    m_observer = std::move(observer);
    return true;
}

bool EventTextReader::readToEnd() {
    while (fill()) {
    }
    m_pos = m_len; // nothing left to cut objects from
    return m_in.error().empty();
}

bool EventTextReader::skipTo(uint64_t offset) {
    const uint64_t here = m_bufStart + m_pos;
    if (offset < here)
        return false;
    // Skip forward, a buffer at a time when the target is further away.
    uint64_t skip = offset - here;
    while (skip > 0) {
        if (m_pos == m_len && !fill())
            return false;
        const size_t step = static_cast<size_t>(std::min<uint64_t>(skip, m_len - m_pos));
        m_pos += step;
        skip -= step;
    }
    return m_pos < m_len || fill();
}

bool EventTextReader::bytesAt(uint64_t offset, size_t length, std::string_view& bytes, std::string& scratch) {
    scratch.clear();
    if (length == 0 || !skipTo(offset))
        return false;
    if (m_len - m_pos >= length) {
        bytes = std::string_view(m_buf.data() + m_pos, length);
        m_pos += length;
        return true;
    }
    while (scratch.size() < length) {
        if (m_pos == m_len && !fill())
            return false;
        const size_t take = std::min(length - scratch.size(), m_len - m_pos);
        scratch.append(m_buf.data() + m_pos, take);
        m_pos += take;
    }
    bytes = scratch;
    return true;
}

bool EventTextReader::getChar(char& c) {
    if (m_pos == m_len && !fill())
        return false;
    c = m_buf[m_pos++];
    return true;
}

bool EventTextReader::objectAt(uint64_t offset, std::string& out, std::vector<uint32_t>* separators) {
    std::string_view object;
    if (!objectViewAt(offset, object, out, separators))
        return false;
    if (object.data() != out.data())
        out.assign(object);
    return true;
}

bool EventTextReader::objectViewAt(uint64_t offset, std::string_view& object, std::string& out,
                                   std::vector<uint32_t>* separators) {
    out.clear();
    if (separators)
        separators->clear();
    if (!skipTo(offset))
        return false;
    if (m_buf[m_pos] != '{')
        return false;
    // Scan the buffer in place (no per-byte call or append): depth outside strings, and whether a
    // comma is followed (after whitespace) by a closer, the only case the trailing-comma repair
    // has work for. 64-byte blocks without a backslash go through the SIMD cutter (cutBlock),
    // the rest byte by byte; both keep the same state, so they take turns at any block.
    CutState st;
    bool straddles = false; // the object goes on past the buffer: it is put together in `out`
    for (;;) {
        const char* const data = m_buf.data();
        const size_t outBase = out.size() - m_pos; // out position of buffer byte i: outBase + i
        size_t i = m_pos;
        while (!st.done && i < m_len) {
            if (m_len - i >= 64 && !st.scan.escape) {
                const int taken = cutBlock(data + i, st, separators, outBase + i);
                if (taken >= 0) {
                    i += static_cast<size_t>(taken);
                    continue;
                }
            }
            const size_t blockEnd = std::min(m_len, i + 64);
            for (; i < blockEnd && !st.done; ++i)
                cutByte(data[i], st, separators, outBase + i);
        }
        if (st.done && !straddles && !st.trailingComma) {
            object = std::string_view(data + m_pos, i - m_pos); // in the buffer as it is: no copy
            m_pos = i;
            return true;
        }
        out.append(data + m_pos, i - m_pos);
        m_pos = i;
        if (st.done)
            break;
        straddles = true;
        if (!fill())
            return false;
    }
    if (st.trailingComma)
        blankTrailingCommas(out.data(), out.size()); // the text goes to a JSON parser or the store
    object = out;
    return true;
}

std::string_view EventTextReader::member(std::string_view object, const std::vector<uint32_t>& separators,
                                         std::string_view key) {
    auto isSpace = [](char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; };
    auto trim = [&](size_t from, size_t to) {
        while (from < to && isSpace(object[from]))
            ++from;
        while (to > from && isSpace(object[to - 1]))
            --to;
        return object.substr(from, to - from);
    };
    // Members are `key : value` between '{' or ',' and the next ',' or the closing '}'; a blanked
    // trailing comma (' ') is followed by the closer.
    size_t begin = 1, s = 0;
    while (s < separators.size()) {
        const size_t colon = separators[s];
        if (colon >= object.size())
            return topLevelMember(object, key);
        if (object[colon] == '}')
            return {};
        if (object[colon] != ':' || s + 1 >= separators.size())
            return topLevelMember(object, key); // not the regular shape: the general reader decides
        const size_t end = separators[s + 1];
        if (end >= object.size() || (object[end] != ',' && object[end] != '}' && object[end] != ' '))
            return topLevelMember(object, key);
        const std::string_view quoted = trim(begin, colon);
        if (quoted.size() < 2 || quoted.front() != '"' || quoted.back() != '"')
            return topLevelMember(object, key);
        if (quoted.substr(1, quoted.size() - 2) == key)
            return trim(colon + 1, end);
        if (object[end] == '}')
            return {};
        begin = end + 1;
        s += 2;
    }
    return {};
}

} // namespace ws
