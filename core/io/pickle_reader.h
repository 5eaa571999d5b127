#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ws::pickle {

/*
 * A restricted unpickler for data-only pickles (protocols 2-5, the binary data opcodes of 0-1):
 * it builds dicts, lists, tuples, str, bytes, int, float, bool and None, nothing else. Every opcode
 * that would look up or call Python code (GLOBAL, STACK_GLOBAL, REDUCE, BUILD, INST, OBJ, NEWOBJ,
 * NEWOBJ_EX, PERSID, BINPERSID, EXT1/2/4), sets, out-of-band buffers and protocol 0's text strings
 * stop the read with an error naming the opcode and its offset: nothing in a file ever executes.
 *
 * Values are 16-byte handles (Value). Strings go to a byte arena of fixed blocks (a str is its id);
 * containers live in a slot table with a generation per slot, so a handle to a freed slot is
 * detected instead of read. Every memo entry is 8 bytes whatever it holds.
 *
 * Streaming: a large pickle is mostly a few long lists of small records (a memory snapshot's trace
 * entries). The Visitor sees each dict element as it is appended to a list and may take it (consume):
 * the element is then not stored in the list and its slot is freed, so memory follows what the
 * visitor keeps, not the file. A memo reference (GET) to a consumed element is an error (shared
 * records are not supported once handed over). A visitor may also replace a finished container by
 * an opaque Token (forward()): later references, including memo GETs, see the token, and the
 * container's items are freed (a memory snapshot's frame lists become stack ids). When the input
 * is cut short, the whole values waiting for their APPENDS are still handed to the visitor, so a
 * truncated file gives what it holds.
 *
 * Cost: O(bytes) with one switch per opcode; reads through a 1 MiB buffer from ReadFn.
 */

enum class Kind : uint8_t { None, Bool, Int, Float, Str, Bytes, List, Dict, Tuple, Token };

struct Value {
    Kind kind = Kind::None;
    bool clamped = false; // an int that did not fit int64 (LONG1/LONG4), saturated
    uint32_t gen = 0;     // containers: the slot's generation
    union {
        int64_t i = 0;
        double f;
        uint64_t u; // Str/Bytes: string id; containers: slot; Token: the visitor's payload
    };
    bool isContainer() const { return kind == Kind::List || kind == Kind::Dict || kind == Kind::Tuple; }
    static Value none() { return {}; }
    static Value integer(int64_t v) {
        Value x;
        x.kind = Kind::Int;
        x.i = v;
        return x;
    }
    static Value token(uint64_t payload) {
        Value x;
        x.kind = Kind::Token;
        x.u = payload;
        return x;
    }
};

class Reader;

class Visitor {
public:
    virtual ~Visitor() = default;
    // Dict `element` is appended to `list` (APPEND/APPENDS; other elements are stored without a
    // call). Return false to consume it: it is not stored, and its slot is freed after this call.
    virtual bool onAppend(Reader& reader, const Value& list, const Value& element) = 0;
    // SETITEMS is about to set `items` (key, value, key, value, ...) into `dict`: return true to
    // take them (they are not stored and onSetItem is not called for them: a record read on the
    // spot, whose dict stays an empty handle until it is appended). Called before anything else.
    virtual bool onDictItems(Reader& reader, const Value& dict, std::span<const Value> items) {
        (void)reader, (void)dict, (void)items;
        return false;
    }
    // A dict item whose value is a container is set (SETITEM/SETITEMS/DICT; other items are stored
    // without a call); the visitor may replace `value` (e.g. by a token).
    virtual void onSetItem(Reader& reader, const Value& dict, const Value& key, Value& value) {
        (void)reader, (void)dict, (void)key, (void)value;
    }
};

// Reads up to n bytes into out; 0 at the end of the input.
using ReadFn = std::function<size_t(char* out, size_t n)>;

struct ReadResult {
    bool complete = false; // reached STOP with one value on the stack
    Value root;            // the result when complete
    std::string error;     // why not: one sentence with the offset
    uint64_t errorOffset = 0;
    uint64_t bytesRead = 0;
    bool truncated = false; // the input ended before STOP
    uint64_t salvaged = 0;  // values handed to the visitor from an APPENDS batch the cut left open
    uint64_t clampedInts = 0;
};

class Reader {
public:
    Reader();
    ~Reader();
    Reader(const Reader&) = delete;
    Reader& operator=(const Reader&) = delete;

    // Reads one pickle from `read`. `visitor` may be null (everything is kept).
    ReadResult read(const ReadFn& read, Visitor* visitor);

    // Accessors for values of this reader (valid during and after read()).
    std::string_view str(const Value& v) const; // Str or Bytes; empty otherwise
    size_t size(const Value& container) const;  // items of a list/tuple, pairs of a dict
    Value item(const Value& container, size_t i) const; // list/tuple item i
    Value key(const Value& dict, size_t i) const;
    // The raw items of a live container that is not forwarded (a dict's as key, value, key, value,
    // ...), for a visitor's tight loops; handles of forwarded containers among them are not
    // resolved (resolve() them). Empty otherwise. Valid until the container changes.
    std::span<const Value> items(const Value& container) const;
    Value value(const Value& dict, size_t i) const;
    // The value of the last item whose key is the str `key`; nullptr-like None with found=false.
    bool get(const Value& dict, std::string_view key, Value& out) const;
    // Follows a forwarded container to its token; anything else as it is.
    Value resolve(const Value& v) const;
    // Replaces container `v` by `token` for every later reference and frees its items. With
    // `release`, the slot itself is reused too: only the memo knows the token afterwards, so a handle
    // to `v` held elsewhere (an item of another container) no longer resolves to it.
    void forward(const Value& v, const Value& token, bool release = false);
    // Whether a container handle still points at a live container.
    bool alive(const Value& v) const;

    static const char* opcodeName(uint8_t op);

private:
    struct Impl;
    Impl* m;
};

} // namespace ws::pickle
