#include "io/pickle_reader.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <deque>
#include <memory>
#include <unordered_map>

namespace ws::pickle {

namespace {

constexpr size_t kBufferBytes = size_t(1) << 20;
constexpr uint64_t kNoMemo = ~uint64_t(0);
constexpr uint32_t kGenMask = (1u << 28) - 1;
// Memo indices up to this far past the dense table's end extend it; beyond, a hash map holds them
// (a crafted LONG_BINPUT 4000000000 must not allocate 32 GB).
constexpr uint64_t kDenseMemoSlack = uint64_t(1) << 20;
constexpr int kBoxedKind = 15;
// A freed container keeps up to this many items' room for the next one in its slot.
constexpr size_t kKeptItems = 64;

// Opcodes by byte (pickletools' names).
const char* nameOf(uint8_t op) {
    switch (op) {
    case '(': return "MARK";
    case '.': return "STOP";
    case '0': return "POP";
    case '1': return "POP_MARK";
    case '2': return "DUP";
    case 'F': return "FLOAT";
    case 'I': return "INT";
    case 'J': return "BININT";
    case 'K': return "BININT1";
    case 'L': return "LONG";
    case 'M': return "BININT2";
    case 'N': return "NONE";
    case 'P': return "PERSID";
    case 'Q': return "BINPERSID";
    case 'R': return "REDUCE";
    case 'S': return "STRING";
    case 'T': return "BINSTRING";
    case 'U': return "SHORT_BINSTRING";
    case 'V': return "UNICODE";
    case 'X': return "BINUNICODE";
    case 'a': return "APPEND";
    case 'b': return "BUILD";
    case 'c': return "GLOBAL";
    case 'd': return "DICT";
    case '}': return "EMPTY_DICT";
    case 'e': return "APPENDS";
    case 'g': return "GET";
    case 'h': return "BINGET";
    case 'i': return "INST";
    case 'j': return "LONG_BINGET";
    case 'l': return "LIST";
    case ']': return "EMPTY_LIST";
    case 'o': return "OBJ";
    case 'p': return "PUT";
    case 'q': return "BINPUT";
    case 'r': return "LONG_BINPUT";
    case 's': return "SETITEM";
    case 't': return "TUPLE";
    case ')': return "EMPTY_TUPLE";
    case 'u': return "SETITEMS";
    case 'G': return "BINFLOAT";
    case 'B': return "BINBYTES";
    case 'C': return "SHORT_BINBYTES";
    case 0x80: return "PROTO";
    case 0x81: return "NEWOBJ";
    case 0x82: return "EXT1";
    case 0x83: return "EXT2";
    case 0x84: return "EXT4";
    case 0x85: return "TUPLE1";
    case 0x86: return "TUPLE2";
    case 0x87: return "TUPLE3";
    case 0x88: return "NEWTRUE";
    case 0x89: return "NEWFALSE";
    case 0x8a: return "LONG1";
    case 0x8b: return "LONG4";
    case 0x8c: return "SHORT_BINUNICODE";
    case 0x8d: return "BINUNICODE8";
    case 0x8e: return "BINBYTES8";
    case 0x8f: return "EMPTY_SET";
    case 0x90: return "ADDITEMS";
    case 0x91: return "FROZENSET";
    case 0x92: return "NEWOBJ_EX";
    case 0x93: return "STACK_GLOBAL";
    case 0x94: return "MEMOIZE";
    case 0x95: return "FRAME";
    case 0x96: return "BYTEARRAY8";
    case 0x97: return "NEXT_BUFFER";
    case 0x98: return "READONLY_BUFFER";
    default: return nullptr;
    }
}

// Why an opcode that exists is not read.
const char* refusalOf(uint8_t op) {
    switch (op) {
    case 'c': case 0x93: case 'i': case 'o': case 'R': case 'b': case 0x81: case 0x92:
        return "it would import or call Python code";
    case 'P': case 'Q': return "persistent ids refer to objects outside the pickle";
    case 0x82: case 0x83: case 0x84: return "extension codes name Python objects from a registry";
    case 0x8f: case 0x90: case 0x91: return "sets are not part of the data read";
    case 0x97: case 0x98: return "out-of-band buffers are not part of the file";
    case 'S': case 'V': return "protocol 0 text strings are not read (save with protocol 2 or later)";
    default: return nullptr;
    }
}

uint32_t le32(const char* p) {
    uint32_t v;
    std::memcpy(&v, p, 4);
    return v; // little-endian hosts only (x86-64, arm64), as the rest of the readers
}
uint64_t le64(const char* p) {
    uint64_t v;
    std::memcpy(&v, p, 8);
    return v;
}

/*
 * StringArena: every string's bytes in 4 MiB blocks that never move (a string longer than a block
 * gets its own), so growing it never copies what it holds (a growing std::string would briefly hold
 * its contents twice: on a GB pickle, hundreds of MB of peak memory).
 */
class StringArena {
public:
    // Room for n contiguous bytes; add() then records them as the next string.
    char* room(size_t n) {
        if (n > kBlock) {
            m_blocks.emplace_back(new char[n]);
            return m_blocks.back().get();
        }
        if (m_blocks.empty() || m_used + n > kBlock) {
            m_blocks.emplace_back(new char[kBlock]);
            m_current = m_blocks.back().get();
            m_used = 0;
        }
        return m_current + m_used;
    }
    uint64_t add(const char* p, size_t n) {
        if (p == m_current + m_used)
            m_used += n;
        m_ptr.push_back(p);
        m_len.push_back(static_cast<uint32_t>(n));
        return m_ptr.size() - 1;
    }
    std::string_view at(uint64_t id) const {
        return id < m_ptr.size() ? std::string_view(m_ptr[id], m_len[id]) : std::string_view();
    }

private:
    static constexpr size_t kBlock = size_t(4) << 20;
    std::vector<std::unique_ptr<char[]>> m_blocks;
    char* m_current = nullptr;
    size_t m_used = 0;
    std::vector<const char*> m_ptr;
    std::vector<uint32_t> m_len;
};

/*
 * MemoTable: the memo's 8-byte entries in blocks of 64 Ki, so that growing never copies it and an
 * access costs one shift and two loads.
 */
class MemoTable {
public:
    size_t size() const { return m_size; }
    uint64_t operator[](size_t i) const { return m_blocks[i >> kShift][i & kMask]; }
    uint64_t& operator[](size_t i) { return m_blocks[i >> kShift][i & kMask]; }
    const uint64_t* address(size_t i) const { return &m_blocks[i >> kShift][i & kMask]; }
    void resize(size_t n, uint64_t fill) {
        while (m_blocks.size() * kBlock < n) {
            m_blocks.emplace_back(new uint64_t[kBlock]);
            std::fill_n(m_blocks.back().get(), kBlock, fill);
        }
        m_size = std::max(m_size, n);
    }

private:
    static constexpr size_t kShift = 16;
    static constexpr size_t kBlock = size_t(1) << kShift;
    static constexpr size_t kMask = kBlock - 1;
    std::vector<std::unique_ptr<uint64_t[]>> m_blocks;
    size_t m_size = 0;
};

/*
 * ValueStack: the machine's stack. push_back is what nearly every opcode ends with; std::vector's
 * was an out-of-line call in the big opcode switch (11 % of a 1 GB snapshot's import), so the
 * growth is kept out of line and the common case is a store and an increment.
 */
class ValueStack {
public:
    size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    Value* begin() { return m_data.get(); }
    Value* end() { return m_data.get() + m_size; }
    Value& back() { return m_data[m_size - 1]; }
    Value& operator[](size_t i) { return m_data[i]; }
    void push_back(const Value& v) {
        if (m_size == m_capacity) [[unlikely]]
            grow();
        m_data[m_size++] = v;
    }
    Value& emplace() { // a new top whose fields the caller sets
        if (m_size == m_capacity) [[unlikely]]
            grow();
        return m_data[m_size++];
    }
    void pop_back() { --m_size; }
    void resize(size_t n) { // shrinks only (as the reader uses it)
        if (n < m_size)
            m_size = n;
    }
    void clear() { m_size = 0; }
    void reserve(size_t n) {
        while (m_capacity < n)
            grow();
    }
    void shrink_to_fit() {
        m_data.reset();
        m_capacity = m_size = 0;
    }

private:
    [[gnu::noinline]] void grow() {
        const size_t capacity = m_capacity ? m_capacity * 2 : 1024;
        std::unique_ptr<Value[]> data(new Value[capacity]);
        std::copy_n(m_data.get(), m_size, data.get());
        m_data = std::move(data);
        m_capacity = capacity;
    }
    std::unique_ptr<Value[]> m_data;
    size_t m_size = 0, m_capacity = 0;
};

} // namespace

struct Reader::Impl {
    struct Slot {
        std::vector<Value> items; // dicts: key, value, key, value, ...
        Value token;              // when forwarded
        uint64_t memoIndex = kNoMemo; // where the memo holds it (the last MEMOIZE/PUT of it)
        uint32_t gen = 0;
        Kind kind = Kind::List;
        bool forwarded = false;
        bool freed = false;
    };

    // Input.
    const ReadFn* readFn = nullptr;
    std::unique_ptr<char[]> buf{new char[kBufferBytes]};
    size_t pos = 0, len = 0;
    uint64_t base = 0; // input offset of buf[0]
    bool eof = false;

    // Values.
    StringArena strings;
    std::vector<Slot> slots;
    std::vector<uint32_t> freeSlots;
    std::vector<Value> boxed; // memoized scalars and tokens
    MemoTable memo;
    std::unordered_map<uint64_t, uint64_t> sparseMemo;

    // Machine.
    ValueStack stack;
    std::vector<size_t> marks;
    Visitor* visitor = nullptr;
    ReadResult* result = nullptr;
    Reader* self = nullptr;

    uint64_t offset() const { return base + pos; }
    size_t avail() const { return len - pos; }

    // Tops up the buffer to at least `want` bytes when the input has them; false only at the end.
    bool fill(size_t want) {
        if (avail() >= want)
            return true;
        if (pos > 0) {
            std::memmove(buf.get(), buf.get() + pos, avail());
            base += pos;
            len -= pos;
            pos = 0;
        }
        while (!eof && len < kBufferBytes) {
            const size_t got = (*readFn)(buf.get() + len, kBufferBytes - len);
            if (got == 0)
                eof = true;
            len += got;
            if (len >= want)
                break;
        }
        return avail() >= want;
    }

    bool fail(uint64_t at, std::string why) {
        if (result->error.empty()) {
            result->error = std::move(why);
            result->errorOffset = at;
        }
        return false;
    }
    bool truncatedAt(uint64_t at, uint8_t op) {
        result->truncated = true;
        return fail(at, std::string("the pickle ends inside ") + nameOf(op) + " at offset " + std::to_string(at) +
                            " (the file is cut short)");
    }

    // ---- values ----
    uint64_t newString(const char* p, size_t n) {
        char* to = strings.room(n);
        std::memcpy(to, p, n);
        return strings.add(to, n);
    }
    Value makeString(Kind kind, uint64_t id) {
        Value v;
        v.kind = kind;
        v.u = id;
        return v;
    }
    Value newContainer(Kind kind) {
        uint32_t s;
        if (!freeSlots.empty()) {
            s = freeSlots.back();
            freeSlots.pop_back();
        } else {
            s = static_cast<uint32_t>(slots.size());
            slots.emplace_back();
        }
        Slot& slot = slots[s];
        slot.kind = kind;
        slot.forwarded = false;
        slot.freed = false;
        slot.memoIndex = kNoMemo;
        Value v;
        v.kind = kind;
        v.u = s;
        v.gen = slot.gen;
        return v;
    }
    Slot* slotOf(const Value& v) {
        if (!v.isContainer() || v.u >= slots.size())
            return nullptr;
        Slot& s = slots[v.u];
        return s.freed || s.gen != v.gen ? nullptr : &s;
    }
    const Slot* slotOf(const Value& v) const { return const_cast<Impl*>(this)->slotOf(v); }
    void freeSlot(const Value& v) {
        Slot* s = slotOf(v);
        if (!s || s->forwarded)
            return;
        // The next container in this slot is most likely the next record of the same kind: its
        // items reuse the room (a trace entry's 16 items would otherwise cost five allocations).
        if (s->items.capacity() <= kKeptItems)
            s->items.clear();
        else
            std::vector<Value>().swap(s->items);
        s->freed = true;
        s->gen = (s->gen + 1) & kGenMask;
        freeSlots.push_back(static_cast<uint32_t>(v.u));
    }

    // ---- memo ----
    uint64_t toMemo(const Value& v) {
        switch (v.kind) {
        case Kind::Str:
        case Kind::Bytes: return (uint64_t(v.kind) << 60) | v.u;
        case Kind::List:
        case Kind::Dict:
        case Kind::Tuple: return (uint64_t(v.kind) << 60) | (uint64_t(v.gen) << 32) | (v.u & 0xffffffffu);
        case Kind::Token:
            if (v.u < (uint64_t(1) << 60))
                return (uint64_t(Kind::Token) << 60) | v.u;
            [[fallthrough]];
        default: boxed.push_back(v); return (uint64_t(kBoxedKind) << 60) | (boxed.size() - 1);
        }
    }
    Value fromMemo(uint64_t word) const {
        const int kind = static_cast<int>(word >> 60);
        const uint64_t payload = word & ((uint64_t(1) << 60) - 1);
        if (kind == kBoxedKind)
            return boxed[payload];
        if (kind == static_cast<int>(Kind::Token))
            return Value::token(payload);
        Value v;
        v.kind = static_cast<Kind>(kind);
        if (v.isContainer()) {
            v.u = payload & 0xffffffffu;
            v.gen = static_cast<uint32_t>(payload >> 32);
        } else {
            v.u = payload;
        }
        return v;
    }
    void put(uint64_t index, const Value& v) {
        const uint64_t word = toMemo(v);
        if (Slot* s = slotOf(v))
            s->memoIndex = index;
        if (index < memo.size()) {
            memo[index] = word;
        } else if (index < memo.size() + kDenseMemoSlack) {
            memo.resize(index + 1, kNoMemo);
            memo[index] = word;
        } else {
            sparseMemo[index] = word;
        }
    }
    // GET straight onto the stack (a Value built in place: assembling one in a local and copying
    // it made each GET wait on a store it had just made).
    bool getInto(uint64_t index, uint64_t at) {
        if (index < memo.size()) [[likely]] {
            const uint64_t word = memo[index];
            const auto kind = static_cast<Kind>(word >> 60);
            if (kind == Kind::Token || kind == Kind::Str) {
                Value& out = stack.emplace();
                out.kind = kind;
                out.clamped = false;
                out.gen = 0;
                out.u = word & ((uint64_t(1) << 60) - 1);
                return true;
            }
        }
        Value v;
        if (!getSlow(index, at, v))
            return false;
        stack.push_back(v);
        return true;
    }
    [[gnu::noinline]] bool getSlow(uint64_t index, uint64_t at, Value& out) {
        uint64_t word = kNoMemo;
        if (index < memo.size())
            word = memo[index];
        else if (auto it = sparseMemo.find(index); it != sparseMemo.end())
            word = it->second;
        if (word == kNoMemo)
            return fail(at, "memo reference " + std::to_string(index) + " at offset " + std::to_string(at) +
                                " to nothing stored");
        out = fromMemo(word);
        if (out.isContainer()) {
            const Slot* s = slotOf(out);
            if (!s)
                return fail(at, "memo reference " + std::to_string(index) + " at offset " + std::to_string(at) +
                                    " to a record already read and handed over (records shared this way are not "
                                    "supported)");
            if (s->forwarded)
                out = s->token;
        }
        return true;
    }

    // ---- stack ----
    size_t markBase() const { return marks.empty() ? 0 : marks.back(); }
    bool pop(Value& v, uint64_t at, uint8_t op) {
        if (stack.size() <= markBase())
            return fail(at, std::string(nameOf(op)) + " at offset " + std::to_string(at) + " on an empty stack");
        v = stack.back();
        stack.pop_back();
        return true;
    }
    bool popMark(size_t& from, uint64_t at, uint8_t op) {
        if (marks.empty())
            return fail(at, std::string(nameOf(op)) + " at offset " + std::to_string(at) + " without a MARK");
        from = marks.back();
        marks.pop_back();
        return true;
    }
    Slot* target(const Value& v, Kind want, uint64_t at, uint8_t op) {
        Slot* s = v.kind == want ? slotOf(v) : nullptr;
        if (!s || s->forwarded) {
            fail(at, std::string(nameOf(op)) + " at offset " + std::to_string(at) + " applied to something that is not " +
                         (want == Kind::Dict ? "a dict" : "a list"));
            return nullptr;
        }
        return s;
    }
    // The visitor sees dict elements only (the records a large pickle is made of); anything else
    // is stored without a call.
    void append(const Value& list, const Value& element) {
        if (visitor && element.kind == Kind::Dict && !visitor->onAppend(*self, list, element)) {
            freeSlot(element);
            return;
        }
        // The visitor may have grown the slot table: index again.
        slots[list.u].items.push_back(element);
    }
    // APPENDS of stack[from, end) to `list`: runs of non-dict elements (a frame list's tokens) are
    // stored in one insert.
    void appendRange(const Value& list, size_t from) {
        size_t k = from;
        const size_t n = stack.size();
        while (k < n) {
            size_t run = k;
            while (run < n && (!visitor || stack[run].kind != Kind::Dict))
                ++run;
            if (run > k) {
                std::vector<Value>& items = slots[list.u].items;
                items.insert(items.end(), stack.begin() + k, stack.begin() + run);
                k = run;
                continue;
            }
            append(list, stack[k++]);
        }
    }
    // The visitor sees items whose value is a container (what it may want to replace); the rest
    // are stored without a call.
    void setItem(const Value& dict, const Value& key, Value value) {
        if (visitor && value.isContainer())
            visitor->onSetItem(*self, dict, key, value);
        std::vector<Value>& items = slots[dict.u].items;
        items.push_back(key);
        items.push_back(value);
    }

    // A string of n bytes at the read position (after the opcode's length field).
    bool readString(Kind kind, uint64_t n, uint64_t at, uint8_t op) {
        if (n <= kBufferBytes / 2) {
            if (!fill(n))
                return truncatedAt(at, op);
            stack.push_back(makeString(kind, newString(buf.get() + pos, n)));
            pos += n;
            return true;
        }
        // Long: gathered piece by piece as the input delivers it (the length is the file's claim: a
        // damaged one must not allocate gigabytes before the input runs out), then given its room.
        if (n >= (uint64_t(1) << 32))
            return fail(at, std::string(nameOf(op)) + " at offset " + std::to_string(at) + " holds a string of 4 GiB or more");
        std::string gathered;
        while (gathered.size() < n) {
            if (avail() == 0 && !fill(1))
                return truncatedAt(at, op);
            const size_t take = static_cast<size_t>(std::min<uint64_t>(n - gathered.size(), avail()));
            gathered.append(buf.get() + pos, take);
            pos += take;
        }
        char* to = strings.room(gathered.size());
        std::memcpy(to, gathered.data(), gathered.size());
        stack.push_back(makeString(kind, strings.add(to, gathered.size())));
        return true;
    }

    // LONG1/LONG4 payload: little-endian two's complement of n bytes, saturated to int64.
    bool readLong(uint64_t n, uint64_t at, uint8_t op) {
        int64_t v = 0;
        bool clamped = false;
        if (n == 0) {
            stack.push_back(Value::integer(0));
            return true;
        }
        unsigned char first8[8] = {};
        uint64_t done = 0;
        bool highNonSign = false;
        unsigned char last = 0;
        while (done < n) {
            if (avail() == 0 && !fill(1))
                return truncatedAt(at, op);
            const size_t take = static_cast<size_t>(std::min<uint64_t>(n - done, avail()));
            for (size_t k = 0; k < take; ++k) {
                const auto b = static_cast<unsigned char>(buf[pos + k]);
                if (done + k < 8)
                    first8[done + k] = b;
                else // fits int64 only when every higher byte repeats the sign of byte 7
                    highNonSign = highNonSign || b != ((first8[7] & 0x80) ? 0xff : 0x00);
                last = b;
            }
            pos += take;
            done += take;
        }
        const bool negative = (last & 0x80) != 0;
        if (n <= 8) {
            uint64_t u = 0;
            for (uint64_t k = 0; k < n; ++k)
                u |= uint64_t(first8[k]) << (8 * k);
            if (negative && n < 8)
                u |= ~uint64_t(0) << (8 * n);
            v = static_cast<int64_t>(u);
        } else if (!highNonSign) {
            uint64_t u = 0;
            for (int k = 0; k < 8; ++k)
                u |= uint64_t(first8[k]) << (8 * k);
            v = static_cast<int64_t>(u);
        } else {
            v = negative ? INT64_MIN : INT64_MAX;
            clamped = true;
            ++result->clampedInts;
        }
        Value x = Value::integer(v);
        x.clamped = clamped;
        stack.push_back(x);
        return true;
    }

    // The text line of a protocol 0 opcode (INT, LONG, FLOAT, GET, PUT), without its newline.
    bool textLine(std::string_view& line, uint64_t at, uint8_t op) {
        for (size_t want = 64;; want *= 2) {
            fill(std::min(want, kBufferBytes));
            const char* nl = static_cast<const char*>(std::memchr(buf.get() + pos, '\n', avail()));
            if (nl) {
                line = std::string_view(buf.get() + pos, static_cast<size_t>(nl - (buf.get() + pos)));
                pos += line.size() + 1;
                return true;
            }
            if (eof || want >= kBufferBytes)
                return eof ? truncatedAt(at, op) : fail(at, std::string(nameOf(op)) + " at offset " +
                                                                std::to_string(at) + " has a line too long");
        }
    }
    bool textInt(std::string_view line, int64_t& v) {
        if (!line.empty() && line.back() == 'L')
            line.remove_suffix(1);
        if (!line.empty() && line.front() == '+')
            line.remove_prefix(1);
        const auto [p, ec] = std::from_chars(line.data(), line.data() + line.size(), v);
        return ec == std::errc() && p == line.data() + line.size();
    }

    bool run();

    // After a cut: the values waiting above a MARK for their APPENDS are whole (only the value
    // under the next MARK, being filled, is not): hand them to their list, as APPENDS would have.
    void salvage() {
        for (size_t k = 0; k < marks.size(); ++k) {
            const size_t from = marks[k];
            size_t to = k + 1 < marks.size() ? marks[k + 1] : stack.size();
            if (k + 1 < marks.size() && to > from)
                --to; // the container the next mark fills
            if (from == 0 || stack[from - 1].kind != Kind::List || !slotOf(stack[from - 1]))
                continue;
            for (size_t i = from; i < to && i < stack.size(); ++i) {
                append(stack[from - 1], stack[i]);
                ++result->salvaged;
            }
        }
    }
};

bool Reader::Impl::run() {
    for (;;) {
        fill(16);
        if (avail() == 0) {
            result->truncated = true;
            return fail(offset(), "the pickle ends at offset " + std::to_string(offset()) +
                                      " before its STOP opcode (the file is cut short)");
        }
        const uint64_t at = offset();
        const auto op = static_cast<uint8_t>(buf[pos++]);
        // Fixed-size arguments: check once.
        auto need = [&](size_t n) { return avail() >= n || fill(n); };
        switch (op) {
        case 0x80: { // PROTO
            if (!need(1))
                return truncatedAt(at, op);
            const auto proto = static_cast<uint8_t>(buf[pos++]);
            if (proto > 5)
                return fail(at, "pickle protocol " + std::to_string(proto) + " (newer than 5, the newest read)");
            break;
        }
        case 0x95: // FRAME: framing is transparent to a sequential reader
            if (!need(8))
                return truncatedAt(at, op);
            pos += 8;
            break;
        case '(': marks.push_back(stack.size()); break;
        case '.': { // STOP
            if (stack.size() != 1 || !marks.empty())
                return fail(at, "STOP at offset " + std::to_string(at) + " with " + std::to_string(stack.size()) +
                                    " values on the stack (one expected)");
            result->root = stack.back();
            result->complete = true;
            return true;
        }
        case '0': { // POP: a value, or the topmost mark when none is above it
            if (stack.size() > markBase())
                stack.pop_back();
            else if (!marks.empty())
                marks.pop_back();
            else
                return fail(at, "POP at offset " + std::to_string(at) + " on an empty stack");
            break;
        }
        case '1': { // POP_MARK
            size_t from = 0;
            if (!popMark(from, at, op))
                return false;
            stack.resize(from);
            break;
        }
        case '2': // DUP
            if (stack.size() <= markBase())
                return fail(at, "DUP at offset " + std::to_string(at) + " on an empty stack");
            stack.push_back(stack.back());
            break;
        case 'N': stack.push_back(Value::none()); break;
        case 0x88:
        case 0x89: {
            Value v;
            v.kind = Kind::Bool;
            v.i = op == 0x88;
            stack.push_back(v);
            break;
        }
        case 'J':
            if (!need(4))
                return truncatedAt(at, op);
            stack.push_back(Value::integer(static_cast<int32_t>(le32(buf.get() + pos))));
            pos += 4;
            break;
        case 'K':
            if (!need(1))
                return truncatedAt(at, op);
            stack.push_back(Value::integer(static_cast<uint8_t>(buf[pos++])));
            break;
        case 'M': {
            if (!need(2))
                return truncatedAt(at, op);
            uint16_t v;
            std::memcpy(&v, buf.get() + pos, 2);
            pos += 2;
            stack.push_back(Value::integer(v));
            break;
        }
        case 0x8a: // LONG1
            if (!need(1))
                return truncatedAt(at, op);
            // Up to 8 bytes (a snapshot's addresses and times): read at once, sign-extended.
            if (const auto n = static_cast<uint8_t>(buf[pos]); n >= 1 && n <= 8 && avail() >= 9) {
                uint64_t u = le64(buf.get() + pos + 1);
                if (n < 8) {
                    const int shift = 64 - 8 * n;
                    u = static_cast<uint64_t>(static_cast<int64_t>(u << shift) >> shift);
                }
                pos += 1 + n;
                stack.push_back(Value::integer(static_cast<int64_t>(u)));
                break;
            }
            if (!readLong(static_cast<uint8_t>(buf[pos++]), at, op))
                return false;
            break;
        case 0x8b: { // LONG4
            if (!need(4))
                return truncatedAt(at, op);
            const auto n = static_cast<int32_t>(le32(buf.get() + pos));
            pos += 4;
            if (n < 0)
                return fail(at, "LONG4 at offset " + std::to_string(at) + " with a negative length");
            if (!readLong(static_cast<uint64_t>(n), at, op))
                return false;
            break;
        }
        case 'G': { // BINFLOAT: big-endian IEEE double
            if (!need(8))
                return truncatedAt(at, op);
            uint64_t u = 0;
            for (int k = 0; k < 8; ++k)
                u = (u << 8) | static_cast<uint8_t>(buf[pos + k]);
            pos += 8;
            Value v;
            v.kind = Kind::Float;
            std::memcpy(&v.f, &u, 8);
            stack.push_back(v);
            break;
        }
        case 'I':
        case 'L': { // protocol 0 INT / LONG (INT 01/00 are True/False)
            std::string_view line;
            if (!textLine(line, at, op))
                return false;
            int64_t v = 0;
            if (op == 'I' && (line == "01" || line == "00")) {
                Value b;
                b.kind = Kind::Bool;
                b.i = line == "01";
                stack.push_back(b);
                break;
            }
            if (!textInt(line, v))
                return fail(at, std::string(nameOf(op)) + " at offset " + std::to_string(at) + " is not an integer that fits 64 bits");
            stack.push_back(Value::integer(v));
            break;
        }
        case 'F': {
            std::string_view line;
            if (!textLine(line, at, op))
                return false;
            Value v;
            v.kind = Kind::Float;
            const auto [p, ec] = std::from_chars(line.data(), line.data() + line.size(), v.f);
            if (ec != std::errc() || p != line.data() + line.size())
                return fail(at, "FLOAT at offset " + std::to_string(at) + " is not a number");
            stack.push_back(v);
            break;
        }
        case 0x8c: // SHORT_BINUNICODE
        case 'C':  // SHORT_BINBYTES
        case 'U':  // SHORT_BINSTRING
            if (!need(1))
                return truncatedAt(at, op);
            if (!readString(op == 0x8c ? Kind::Str : Kind::Bytes, static_cast<uint8_t>(buf[pos++]), at, op))
                return false;
            break;
        case 'X': // BINUNICODE
        case 'B': // BINBYTES
        case 'T': // BINSTRING
            if (!need(4))
                return truncatedAt(at, op);
            {
                const uint32_t n = le32(buf.get() + pos);
                pos += 4;
                if (op == 'T' && static_cast<int32_t>(n) < 0)
                    return fail(at, "BINSTRING at offset " + std::to_string(at) + " with a negative length");
                if (!readString(op == 'X' ? Kind::Str : Kind::Bytes, n, at, op))
                    return false;
            }
            break;
        case 0x8d: // BINUNICODE8
        case 0x8e: // BINBYTES8
        case 0x96: // BYTEARRAY8 (read as bytes)
            if (!need(8))
                return truncatedAt(at, op);
            {
                const uint64_t n = le64(buf.get() + pos);
                pos += 8;
                if (n > (uint64_t(1) << 40))
                    return fail(at, std::string(nameOf(op)) + " at offset " + std::to_string(at) + " claims " +
                                        std::to_string(n) + " bytes");
                if (!readString(op == 0x8d ? Kind::Str : Kind::Bytes, n, at, op))
                    return false;
            }
            break;
        case '}': stack.push_back(newContainer(Kind::Dict)); break;
        case ']': stack.push_back(newContainer(Kind::List)); break;
        case ')': stack.push_back(newContainer(Kind::Tuple)); break;
        case 0x85:
        case 0x86:
        case 0x87: { // TUPLE1/2/3
            const size_t n = op - 0x84u;
            if (stack.size() < markBase() + n)
                return fail(at, std::string(nameOf(op)) + " at offset " + std::to_string(at) + " with too few values");
            const Value t = newContainer(Kind::Tuple);
            slots[t.u].items.assign(stack.end() - static_cast<ptrdiff_t>(n), stack.end());
            stack.resize(stack.size() - n);
            stack.push_back(t);
            break;
        }
        case 't':
        case 'l':
        case 'd': { // TUPLE, LIST, DICT: from the values above the mark
            size_t from = 0;
            if (!popMark(from, at, op))
                return false;
            const Kind kind = op == 't' ? Kind::Tuple : op == 'l' ? Kind::List : Kind::Dict;
            if (kind == Kind::Dict && (stack.size() - from) % 2 != 0)
                return fail(at, "DICT at offset " + std::to_string(at) + " with an odd number of values");
            std::vector<Value> items(stack.begin() + static_cast<ptrdiff_t>(from), stack.end());
            stack.resize(from);
            const Value c = newContainer(kind);
            if (kind == Kind::Tuple) {
                slots[c.u].items = std::move(items);
            } else if (kind == Kind::List) {
                for (const Value& e : items)
                    append(c, e);
            } else {
                for (size_t k = 0; k + 1 < items.size(); k += 2)
                    setItem(c, items[k], items[k + 1]);
            }
            stack.push_back(c);
            break;
        }
        case 'a': { // APPEND
            Value v;
            if (!pop(v, at, op))
                return false;
            if (stack.size() <= markBase() || !target(stack.back(), Kind::List, at, op))
                return fail(at, "APPEND at offset " + std::to_string(at) + " without a list");
            append(stack.back(), v);
            break;
        }
        case 'e': { // APPENDS
            size_t from = 0;
            if (!popMark(from, at, op))
                return false;
            if (from == 0 || from <= markBase() || !target(stack[from - 1], Kind::List, at, op))
                return fail(at, "APPENDS at offset " + std::to_string(at) + " without a list");
            const Value list = stack[from - 1];
            appendRange(list, from);
            stack.resize(from);
            break;
        }
        case 's': { // SETITEM
            Value k, v;
            if (!pop(v, at, op) || !pop(k, at, op))
                return false;
            if (stack.size() <= markBase() || !target(stack.back(), Kind::Dict, at, op))
                return fail(at, "SETITEM at offset " + std::to_string(at) + " without a dict");
            setItem(stack.back(), k, v);
            break;
        }
        case 'u': { // SETITEMS
            size_t from = 0;
            if (!popMark(from, at, op))
                return false;
            if (from == 0 || from <= markBase() || !target(stack[from - 1], Kind::Dict, at, op))
                return fail(at, "SETITEMS at offset " + std::to_string(at) + " without a dict");
            if ((stack.size() - from) % 2 != 0)
                return fail(at, "SETITEMS at offset " + std::to_string(at) + " with an odd number of values");
            // A trace entry's SETITEMS: a dozen scalar items and at most one container. The visitor
            // replaces values in place on the stack, then all items go in with one insert.
            // (The dict holds the items before a container's when the visitor sees it, as with
            // SETITEM: a segment's block list reads the segment's address.)
            const Value dict = stack[from - 1];
            if (visitor && visitor->onDictItems(*self, dict, std::span<const Value>(stack.begin() + from, stack.end()))) {
                stack.resize(from);
                break;
            }
            size_t stored = from;
            if (visitor)
                for (size_t k = from; k + 1 < stack.size(); k += 2)
                    if (stack[k + 1].isContainer()) {
                        std::vector<Value>& items = slots[dict.u].items;
                        items.insert(items.end(), stack.begin() + stored, stack.begin() + k);
                        stored = k;
                        visitor->onSetItem(*self, dict, stack[k], stack[k + 1]);
                    }
            std::vector<Value>& items = slots[dict.u].items; // the visitor may have grown the slot table
            items.insert(items.end(), stack.begin() + stored, stack.end());
            stack.resize(from);
            break;
        }
        case 0x94: // MEMOIZE
            if (stack.size() <= markBase())
                return fail(at, "MEMOIZE at offset " + std::to_string(at) + " on an empty stack");
            put(memo.size() + sparseMemo.size(), stack.back());
            break;
        case 'q':
        case 'r':
        case 'p': { // BINPUT, LONG_BINPUT, PUT
            uint64_t index = 0;
            if (op == 'p') {
                std::string_view line;
                int64_t v = 0;
                if (!textLine(line, at, op))
                    return false;
                if (!textInt(line, v) || v < 0)
                    return fail(at, "PUT at offset " + std::to_string(at) + " with a bad index");
                index = static_cast<uint64_t>(v);
            } else {
                if (!need(op == 'q' ? 1 : 4))
                    return truncatedAt(at, op);
                index = op == 'q' ? static_cast<uint8_t>(buf[pos]) : le32(buf.get() + pos);
                pos += op == 'q' ? 1 : 4;
            }
            if (stack.size() <= markBase())
                return fail(at, std::string(nameOf(op)) + " at offset " + std::to_string(at) + " on an empty stack");
            put(index, stack.back());
            break;
        }
        case 'h':
        case 'j': { // BINGET, LONG_BINGET: the bulk of a large snapshot (a frame list is tens of them)
            const size_t width = op == 'h' ? 1 : 4;
            if (!need(width))
                return truncatedAt(at, op);
            const uint64_t index = op == 'h' ? static_cast<uint8_t>(buf[pos]) : le32(buf.get() + pos);
            pos += width;
            // The memo entry of the LONG_BINGET four opcodes on (when they are all LONG_BINGETs, as
            // in a frame list) is fetched now: the entries are scattered over the memo, and the wait
            // for each is what this loop would otherwise spend its time on.
            if (avail() >= 20 && buf[pos + 15] == 'j') {
                const uint64_t ahead = le32(buf.get() + pos + 16);
                if (ahead < memo.size())
                    __builtin_prefetch(memo.address(ahead));
            }
            if (!getInto(index, at))
                return false;
            // The GETs that follow (the rest of a frame list, an entry's keys) are read here, in a
            // loop whose branch the processor predicts, rather than one indirect jump each through
            // the opcode switch.
            while (avail() >= 26 && (buf[pos] == 'j' || buf[pos] == 'h')) {
                const uint64_t at2 = offset();
                const bool longGet = buf[pos] == 'j';
                const uint64_t i = longGet ? le32(buf.get() + pos + 1) : static_cast<uint8_t>(buf[pos + 1]);
                pos += longGet ? 5 : 2;
                if (buf[pos + 15] == 'j') {
                    const uint64_t ahead = le32(buf.get() + pos + 16);
                    if (ahead < memo.size())
                        __builtin_prefetch(memo.address(ahead));
                }
                if (!getInto(i, at2))
                    return false;
            }
            break;
        }
        case 'g': { // GET (protocol 0)
            std::string_view line;
            int64_t index = 0;
            if (!textLine(line, at, op))
                return false;
            if (!textInt(line, index) || index < 0)
                return fail(at, "GET at offset " + std::to_string(at) + " with a bad index");
            if (!getInto(static_cast<uint64_t>(index), at))
                return false;
            break;
        }
        default: {
            const char* name = nameOf(op);
            const char* why = refusalOf(op);
            char hex[8];
            std::snprintf(hex, sizeof hex, "0x%02x", op);
            if (name && why)
                return fail(at, std::string("the pickle uses ") + name + " (" + hex + ") at offset " + std::to_string(at) +
                                    ", which is not read: " + why + "; only data (dict, list, tuple, str, bytes, int, "
                                    "float, bool, None) is read and nothing in a file is ever executed");
            return fail(at, std::string("not a pickle: unknown opcode ") + hex + " at offset " + std::to_string(at));
        }
        }
    }
}

Reader::Reader() : m(new Impl) {
    m->self = this;
    m->stack.reserve(4096);
}
Reader::~Reader() {
    delete m;
}

ReadResult Reader::read(const ReadFn& read, Visitor* visitor) {
    ReadResult result;
    m->readFn = &read;
    m->visitor = visitor;
    m->result = &result;
    m->run();
    if (result.truncated && visitor)
        m->salvage();
    result.bytesRead = m->offset();
    m->result = nullptr;
    m->stack.clear();
    m->stack.shrink_to_fit();
    m->marks.clear();
    return result;
}

std::string_view Reader::str(const Value& v) const {
    if (v.kind != Kind::Str && v.kind != Kind::Bytes)
        return {};
    return m->strings.at(v.u);
}

size_t Reader::size(const Value& c) const {
    const Impl::Slot* s = m->slotOf(c);
    if (!s || s->forwarded)
        return 0;
    return c.kind == Kind::Dict ? s->items.size() / 2 : s->items.size();
}

Value Reader::item(const Value& c, size_t i) const {
    const Impl::Slot* s = m->slotOf(c);
    if (!s || s->forwarded || c.kind == Kind::Dict || i >= s->items.size())
        return {};
    return resolve(s->items[i]);
}

std::span<const Value> Reader::items(const Value& c) const {
    const Impl::Slot* s = m->slotOf(c);
    if (!s || s->forwarded)
        return {};
    return {s->items.data(), s->items.size()};
}

Value Reader::key(const Value& d, size_t i) const {
    const Impl::Slot* s = m->slotOf(d);
    if (!s || s->forwarded || d.kind != Kind::Dict || 2 * i + 1 >= s->items.size())
        return {};
    return resolve(s->items[2 * i]);
}

Value Reader::value(const Value& d, size_t i) const {
    const Impl::Slot* s = m->slotOf(d);
    if (!s || s->forwarded || d.kind != Kind::Dict || 2 * i + 1 >= s->items.size())
        return {};
    return resolve(s->items[2 * i + 1]);
}

bool Reader::get(const Value& d, std::string_view k, Value& out) const {
    const Impl::Slot* s = m->slotOf(d);
    if (!s || s->forwarded || d.kind != Kind::Dict)
        return false;
    for (size_t i = s->items.size(); i >= 2; i -= 2) {
        const Value& key = s->items[i - 2];
        if (key.kind == Kind::Str && str(key) == k) {
            out = resolve(s->items[i - 1]);
            return true;
        }
    }
    return false;
}

Value Reader::resolve(const Value& v) const {
    if (!v.isContainer())
        return v;
    const Impl::Slot* s = m->slotOf(v);
    return s && s->forwarded ? s->token : v;
}

void Reader::forward(const Value& v, const Value& token, bool release) {
    Impl::Slot* s = m->slotOf(v);
    if (!s)
        return;
    // The memo entry becomes the token itself: a GET of it then never reads the slot (a snapshot's
    // frame dicts are fetched by GET fifty times per allocation).
    if (s->memoIndex != kNoMemo) {
        const uint64_t encoded = m->toMemo(token);
        if (s->memoIndex < m->memo.size())
            m->memo[s->memoIndex] = encoded;
        else
            m->sparseMemo[s->memoIndex] = encoded;
    }
    if (!release) {
        std::vector<Value>().swap(s->items);
        s->forwarded = true;
        s->token = token;
        return;
    }
    // Released: the slot is reused (a snapshot has one frame list per allocation).
    m->freeSlot(v);
}

bool Reader::alive(const Value& v) const {
    return m->slotOf(v) != nullptr;
}

const char* Reader::opcodeName(uint8_t op) {
    return nameOf(op);
}

} // namespace ws::pickle
