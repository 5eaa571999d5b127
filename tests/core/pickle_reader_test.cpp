// The restricted unpickler (core/io/pickle_reader.h): data of protocols 2-5 is read, every opcode that
// could run code is refused with its name and offset, memo and big integers, truncation.
#include "io/pickle_reader.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace ws::pickle {
namespace {

// A pickle written as C string pieces ("\x01" "a", so a hex escape never swallows the next letter).
#define PICKLE(lit) std::string(lit, sizeof(lit) - 1)

struct Read {
    Reader reader;
    ReadResult result;
};

ReadFn source(const std::string& bytes, size_t piece = 7) {
    auto pos = std::make_shared<size_t>(0);
    return [bytes, pos, piece](char* out, size_t n) {
        const size_t take = std::min({n, piece, bytes.size() - *pos});
        std::copy_n(bytes.data() + *pos, take, out);
        *pos += take;
        return take;
    };
}

void read(Read& r, const std::string& bytes, Visitor* visitor = nullptr) {
    r.result = r.reader.read(source(bytes), visitor);
}

Value get(const Reader& reader, const Value& dict, const char* key) {
    Value v;
    EXPECT_TRUE(reader.get(dict, key, v)) << key;
    return v;
}

// The same dict pickled by Python 3.11 with protocols 2, 3, 4 and 5 (pickle.dumps), fed 7 bytes at a
// time so that every opcode argument crosses a buffer refill somewhere.
const std::vector<std::string> kPythonPickles = {
    // protocol 2
    std::string("\x80\x02\x7d\x71\x00\x28\x58\x08\x00\x00\x00\x73\x65\x67\x6d\x65\x6e\x74\x73\x71\x01\x5d\x71\x02"
                "\x7d\x71\x03\x28\x58\x06\x00\x00\x00\x64\x65\x76\x69\x63\x65\x71\x04\x4b\x00\x58\x01\x00\x00\x00"
                "\x6e\x71\x05\x4a\xfb\xff\xff\xff\x58\x03\x00\x00\x00\x62\x69\x67\x71\x06\x8a\x09\x00\x00\x00\x00"
                "\x00\x00\x00\x00\x40\x58\x03\x00\x00\x00\x6e\x65\x67\x71\x07\x8a\x08\x00\x00\x00\x00\x00\x00\x00"
                "\x80\x58\x01\x00\x00\x00\x66\x71\x08\x47\x40\x04\x00\x00\x00\x00\x00\x00\x58\x01\x00\x00\x00\x74"
                "\x71\x09\x4b\x01\x58\x01\x00\x00\x00\x78\x71\x0a\x86\x71\x0b\x58\x04\x00\x00\x00\x6e\x6f\x6e\x65"
                "\x71\x0c\x4e\x58\x02\x00\x00\x00\x6f\x6b\x71\x0d\x88\x58\x01\x00\x00\x00\x73\x71\x0e\x58\x03\x00"
                "\x00\x00\x68\xc3\xa9\x71\x0f\x75\x61\x58\x0d\x00\x00\x00\x64\x65\x76\x69\x63\x65\x5f\x74\x72\x61"
                "\x63\x65\x73\x71\x10\x5d\x71\x11\x5d\x71\x12\x61\x75\x2e", 206),
    // protocol 3
    std::string("\x80\x03\x7d\x71\x00\x28\x58\x08\x00\x00\x00\x73\x65\x67\x6d\x65\x6e\x74\x73\x71\x01\x5d\x71\x02"
                "\x7d\x71\x03\x28\x58\x06\x00\x00\x00\x64\x65\x76\x69\x63\x65\x71\x04\x4b\x00\x58\x01\x00\x00\x00"
                "\x6e\x71\x05\x4a\xfb\xff\xff\xff\x58\x03\x00\x00\x00\x62\x69\x67\x71\x06\x8a\x09\x00\x00\x00\x00"
                "\x00\x00\x00\x00\x40\x58\x03\x00\x00\x00\x6e\x65\x67\x71\x07\x8a\x08\x00\x00\x00\x00\x00\x00\x00"
                "\x80\x58\x01\x00\x00\x00\x66\x71\x08\x47\x40\x04\x00\x00\x00\x00\x00\x00\x58\x01\x00\x00\x00\x74"
                "\x71\x09\x4b\x01\x58\x01\x00\x00\x00\x78\x71\x0a\x86\x71\x0b\x58\x04\x00\x00\x00\x6e\x6f\x6e\x65"
                "\x71\x0c\x4e\x58\x02\x00\x00\x00\x6f\x6b\x71\x0d\x88\x58\x01\x00\x00\x00\x73\x71\x0e\x58\x03\x00"
                "\x00\x00\x68\xc3\xa9\x71\x0f\x75\x61\x58\x0d\x00\x00\x00\x64\x65\x76\x69\x63\x65\x5f\x74\x72\x61"
                "\x63\x65\x73\x71\x10\x5d\x71\x11\x5d\x71\x12\x61\x75\x2e", 206),
    // protocol 4
    std::string("\x80\x04\x95\x92\x00\x00\x00\x00\x00\x00\x00\x7d\x94\x28\x8c\x08\x73\x65\x67\x6d\x65\x6e\x74\x73"
                "\x94\x5d\x94\x7d\x94\x28\x8c\x06\x64\x65\x76\x69\x63\x65\x94\x4b\x00\x8c\x01\x6e\x94\x4a\xfb\xff"
                "\xff\xff\x8c\x03\x62\x69\x67\x94\x8a\x09\x00\x00\x00\x00\x00\x00\x00\x00\x40\x8c\x03\x6e\x65\x67"
                "\x94\x8a\x08\x00\x00\x00\x00\x00\x00\x00\x80\x8c\x01\x66\x94\x47\x40\x04\x00\x00\x00\x00\x00\x00"
                "\x8c\x01\x74\x94\x4b\x01\x8c\x01\x78\x94\x86\x94\x8c\x04\x6e\x6f\x6e\x65\x94\x4e\x8c\x02\x6f\x6b"
                "\x94\x88\x8c\x01\x73\x94\x8c\x03\x68\xc3\xa9\x94\x75\x61\x8c\x0d\x64\x65\x76\x69\x63\x65\x5f\x74"
                "\x72\x61\x63\x65\x73\x94\x5d\x94\x5d\x94\x61\x75\x2e", 157),
    // protocol 5
    std::string("\x80\x05\x95\x92\x00\x00\x00\x00\x00\x00\x00\x7d\x94\x28\x8c\x08\x73\x65\x67\x6d\x65\x6e\x74\x73"
                "\x94\x5d\x94\x7d\x94\x28\x8c\x06\x64\x65\x76\x69\x63\x65\x94\x4b\x00\x8c\x01\x6e\x94\x4a\xfb\xff"
                "\xff\xff\x8c\x03\x62\x69\x67\x94\x8a\x09\x00\x00\x00\x00\x00\x00\x00\x00\x40\x8c\x03\x6e\x65\x67"
                "\x94\x8a\x08\x00\x00\x00\x00\x00\x00\x00\x80\x8c\x01\x66\x94\x47\x40\x04\x00\x00\x00\x00\x00\x00"
                "\x8c\x01\x74\x94\x4b\x01\x8c\x01\x78\x94\x86\x94\x8c\x04\x6e\x6f\x6e\x65\x94\x4e\x8c\x02\x6f\x6b"
                "\x94\x88\x8c\x01\x73\x94\x8c\x03\x68\xc3\xa9\x94\x75\x61\x8c\x0d\x64\x65\x76\x69\x63\x65\x5f\x74"
                "\x72\x61\x63\x65\x73\x94\x5d\x94\x5d\x94\x61\x75\x2e", 157),
};

TEST(PickleReader, ReadsProtocols2To5AsPythonWritesThem) {
    for (size_t p = 0; p < kPythonPickles.size(); ++p) {
        SCOPED_TRACE("protocol " + std::to_string(p + 2));
        Read r;
        read(r, kPythonPickles[p]);
        ASSERT_TRUE(r.result.complete) << r.result.error;
        const Value root = r.result.root;
        ASSERT_EQ(root.kind, Kind::Dict);
        const Value segments = get(r.reader, root, "segments");
        ASSERT_EQ(segments.kind, Kind::List);
        ASSERT_EQ(r.reader.size(segments), 1u);
        const Value seg = r.reader.item(segments, 0);
        EXPECT_EQ(get(r.reader, seg, "device").i, 0);
        EXPECT_EQ(get(r.reader, seg, "n").i, -5);
        const Value big = get(r.reader, seg, "big"); // 2**70: saturated, flagged, counted
        EXPECT_EQ(big.i, INT64_MAX);
        EXPECT_TRUE(big.clamped);
        EXPECT_EQ(r.result.clampedInts, 1u);
        EXPECT_EQ(get(r.reader, seg, "neg").i, INT64_MIN);
        EXPECT_FALSE(get(r.reader, seg, "neg").clamped);
        EXPECT_DOUBLE_EQ(get(r.reader, seg, "f").f, 2.5);
        const Value t = get(r.reader, seg, "t");
        ASSERT_EQ(t.kind, Kind::Tuple);
        EXPECT_EQ(r.reader.item(t, 0).i, 1);
        EXPECT_EQ(r.reader.str(r.reader.item(t, 1)), "x");
        EXPECT_EQ(get(r.reader, seg, "none").kind, Kind::None);
        EXPECT_EQ(get(r.reader, seg, "ok").kind, Kind::Bool);
        EXPECT_EQ(get(r.reader, seg, "ok").i, 1);
        EXPECT_EQ(r.reader.str(get(r.reader, seg, "s")), "h\xc3\xa9");
        const Value traces = get(r.reader, root, "device_traces");
        ASSERT_EQ(r.reader.size(traces), 1u);
        EXPECT_EQ(r.reader.item(traces, 0).kind, Kind::List);
    }
}

TEST(PickleReader, RefusesEveryOpcodeThatCouldRunCode) {
    // Each opcode after a valid start: PROTO 4, EMPTY_DICT. The error names it and its offset (3).
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"c", "GLOBAL (0x63)"},       {"\x93", "STACK_GLOBAL (0x93)"}, {"R", "REDUCE (0x52)"},
        {"b", "BUILD (0x62)"},        {"i", "INST (0x69)"},            {"o", "OBJ (0x6f)"},
        {"\x81", "NEWOBJ (0x81)"},    {"\x92", "NEWOBJ_EX (0x92)"},    {"P", "PERSID (0x50)"},
        {"Q", "BINPERSID (0x51)"},    {"\x82", "EXT1 (0x82)"},         {"\x83", "EXT2 (0x83)"},
        {"\x84", "EXT4 (0x84)"},      {"\x8f", "EMPTY_SET (0x8f)"},    {"\x91", "FROZENSET (0x91)"},
        {"\x90", "ADDITEMS (0x90)"},  {"\x97", "NEXT_BUFFER (0x97)"},  {"\x98", "READONLY_BUFFER (0x98)"},
        {"S", "STRING (0x53)"},       {"V", "UNICODE (0x56)"},
    };
    for (const auto& [op, name] : cases) {
        Read r;
        read(r, std::string("\x80\x04}", 3) + op + "os\nsystem\n.");
        EXPECT_FALSE(r.result.complete);
        EXPECT_FALSE(r.result.truncated);
        EXPECT_NE(r.result.error.find(name + " at offset 3"), std::string::npos) << r.result.error;
        EXPECT_EQ(r.result.errorOffset, 3u);
    }
    // What Python writes for bytes under protocol 2: _codecs.encode looked up and called.
    Read r;
    read(r, std::string("\x80\x02\x7d\x71\x00\x58\x01\x00\x00\x00\x62\x71\x01\x63\x5f\x63\x6f\x64\x65\x63\x73\x0a\x65"
                        "\x6e\x63\x6f\x64\x65\x0a\x71\x02\x58\x02\x00\x00\x00\x62\x79\x71\x03\x58\x06\x00\x00\x00\x6c"
                        "\x61\x74\x69\x6e\x31\x71\x04\x86\x71\x05\x52\x71\x06\x73\x2e",
                        61));
    EXPECT_NE(r.result.error.find("GLOBAL (0x63) at offset 13"), std::string::npos) << r.result.error;
}

TEST(PickleReader, RefusesNewerProtocolsAndUnknownOpcodes) {
    Read r;
    read(r, std::string("\x80\x06N.", 4));
    EXPECT_NE(r.result.error.find("protocol 6"), std::string::npos) << r.result.error;
    Read u;
    read(u, std::string("\x80\x04\xff.", 4));
    EXPECT_NE(u.result.error.find("unknown opcode 0xff at offset 2"), std::string::npos) << u.result.error;
}

TEST(PickleReader, MemoAndTextOpcodes) {
    // ['abc', 'abc', 7, True, {'k': 'abc'}, 123456789012]: 'abc' memoized once (MEMOIZE, BINGET 0), the
    // long saved by protocol 0's PUT 900 and popped, the dict kept at a LONG_BINPUT index far away
    // (sparse) and popped, both read back with LONG_BINGET and GET.
    const std::string bytes = PICKLE("\x80\x04" "]" "(" "\x8c\x03" "abc" "\x94" "h\x00" "I7\n" "I01\n" "L123456789012L\n"
                                     "p900\n" "0" "}" "\x8c\x01" "k" "h\x00" "s" "r\x00\x00\x00\xf0" "0"
                                     "j\x00\x00\x00\xf0" "g900\n" "e" ".");
    Read r;
    read(r, bytes);
    ASSERT_TRUE(r.result.complete) << r.result.error;
    const Value list = r.result.root;
    ASSERT_EQ(r.reader.size(list), 6u);
    EXPECT_EQ(r.reader.str(r.reader.item(list, 0)), "abc");
    EXPECT_EQ(r.reader.item(list, 0).u, r.reader.item(list, 1).u); // the same string, not a copy
    EXPECT_EQ(r.reader.item(list, 2).i, 7);
    EXPECT_EQ(r.reader.item(list, 3).kind, Kind::Bool);
    EXPECT_EQ(r.reader.str(get(r.reader, r.reader.item(list, 4), "k")), "abc");
    EXPECT_EQ(r.reader.item(list, 5).i, 123456789012);
    Read missing;
    read(missing, PICKLE("\x80\x04" "h\x05" "."));
    EXPECT_NE(missing.result.error.find("memo reference 5 at offset 2 to nothing stored"), std::string::npos)
        << missing.result.error;
}

TEST(PickleReader, TruncatedInputSaysWhereAndHandsOverWholeValues) {
    const std::string& full = kPythonPickles[2];
    for (size_t cut : {size_t(1), size_t(20), full.size() / 2, full.size() - 1}) {
        Read r;
        read(r, full.substr(0, cut));
        EXPECT_FALSE(r.result.complete);
        EXPECT_TRUE(r.result.truncated) << cut;
        EXPECT_NE(r.result.error.find("cut short"), std::string::npos) << r.result.error;
    }
    // A list of dicts cut inside the third, as Python writes them (MARK ... SETITEMS): the two whole
    // ones still reach the visitor, the one being filled does not.
    struct Count : Visitor {
        int dicts = 0;
        bool onAppend(Reader&, const Value&, const Value& e) override { return e.kind != Kind::Dict || (++dicts, true); }
    } count;
    const std::string list = PICKLE("\x80\x04" "]" "(" "}" "(" "\x8c\x01" "a" "K\x01" "\x8c\x01" "b" "K\x02" "u" "}" "("
                                    "\x8c\x01" "a" "K\x03" "u" "}" "(" "\x8c\x01" "a" "K");
    Read r;
    read(r, list, &count);
    EXPECT_TRUE(r.result.truncated);
    EXPECT_EQ(count.dicts, 2);
    EXPECT_EQ(r.result.salvaged, 2u);
}

TEST(PickleReader, ConsumedAndForwardedValues) {
    // [d] APPENDed and consumed by the visitor, then a memo reference to d: refused.
    struct Consume : Visitor {
        bool onAppend(Reader&, const Value&, const Value& e) override { return e.kind != Kind::Dict; }
    } consume;
    const std::string bytes = PICKLE("\x80\x04" "]" "}" "\x94" "a" "h\x00" "a" ".");
    Read r;
    read(r, bytes, &consume);
    EXPECT_NE(r.result.error.find("already read and handed over"), std::string::npos) << r.result.error;
    // Forwarding: a list replaced by a token is the token wherever it is referenced afterwards.
    struct Forward : Visitor {
        bool onAppend(Reader&, const Value&, const Value&) override { return true; }
        void onSetItem(Reader& reader, const Value&, const Value&, Value& value) override {
            if (value.kind == Kind::List) {
                reader.forward(value, Value::token(42));
                value = Value::token(42);
            }
        }
    } forward;
    // [{'f': L}, L] with L = [1, 2] memoized and referenced again by BINGET after it was forwarded.
    const std::string shared =
        PICKLE("\x80\x04" "]" "(" "}" "\x8c\x01" "f" "]" "(" "K\x01" "K\x02" "e" "\x94" "s" "h\x00" "e" ".");
    Read f;
    read(f, shared, &forward);
    ASSERT_TRUE(f.result.complete) << f.result.error;
    const Value outer = f.result.root;
    ASSERT_EQ(f.reader.size(outer), 2u);
    EXPECT_EQ(get(f.reader, f.reader.item(outer, 0), "f").kind, Kind::Token);
    EXPECT_EQ(f.reader.item(outer, 1).kind, Kind::Token);
    EXPECT_EQ(f.reader.item(outer, 1).u, 42u);
}

TEST(PickleReader, LongIntegersOfUpTo8BytesSignExtended) {
    // pickle.dumps([2**31, -2**31-1, 2**40+5, -2**40-7, 2**63-1, -2**63, 255, -129, 2**56+3, -2**55, 2**47,
    // 2**32-1], protocol=4): LONG1 of 5 to 8 bytes, positive and negative (read without the byte loop),
    // and the last one 4 bytes before the end of the input (read by the byte loop).
    const std::string bytes = PICKLE(
        "\x80\x04\x95\x61\x00\x00\x00\x00\x00\x00\x00\x5d\x94\x28\x8a\x05\x00\x00\x00\x80\x00\x8a\x05\xff\xff\xff\x7f"
        "\xff\x8a\x06\x05\x00\x00\x00\x00\x01\x8a\x06\xf9\xff\xff\xff\xff\xfe\x8a\x08\xff\xff\xff\xff\xff\xff\xff\x7f"
        "\x8a\x08\x00\x00\x00\x00\x00\x00\x00\x80\x4b\xff\x4a\x7f\xff\xff\xff\x8a\x08\x03\x00\x00\x00\x00\x00\x00\x01"
        "\x8a\x07\x00\x00\x00\x00\x00\x00\x80\x8a\x07\x00\x00\x00\x00\x00\x80\x00\x8a\x05\xff\xff\xff\xff\x00\x65\x2e");
    const int64_t want[] = {2147483648LL, -2147483649LL, 1099511627781LL, -1099511627783LL, INT64_MAX, INT64_MIN,
                            255, -129, 72057594037927939LL, -36028797018963968LL, 140737488355328LL, 4294967295LL};
    Read r;
    read(r, bytes);
    ASSERT_TRUE(r.result.complete) << r.result.error;
    ASSERT_EQ(r.reader.size(r.result.root), std::size(want));
    for (size_t i = 0; i < std::size(want); ++i) {
        const Value v = r.reader.item(r.result.root, i);
        EXPECT_EQ(v.kind, Kind::Int) << i;
        EXPECT_EQ(v.i, want[i]) << i;
        EXPECT_FALSE(v.clamped) << i;
    }
}

} // namespace
} // namespace ws::pickle
