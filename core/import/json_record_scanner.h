#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ws {

/*
 * JsonRecordScanner: the structural pre-pass of importers whose records sit at known places of one
 * big JSON document (rocprofiler-sdk's `buffer_records.kernel_dispatch[]`, a memory timeline's
 * top-level array), where the Chrome scanner only knows `traceEvents`.
 *
 * The caller names the values it wants by path: keys joined by '.', "[]" for every element of an
 * array ("rocprofiler-sdk-tool[].buffer_records.kernel_dispatch[]", "[]" for the elements of a
 * top-level array). The scanner walks the text once, block by block, following the structure only
 * along the wanted paths and skipping everything else by bracket depth, and reports the byte span
 * of every complete value found at a wanted path (objects, arrays, and scalars such as the numbers
 * of a time array). Like JsonEventScanner it never builds
 * a DOM and needs no more than the current block: the caller keeps the bytes from openStart() on
 * when it moves to the next block, then calls shift(). O(n), a table lookup per byte.
 *
 * Malformed structure stops the scan (failed()), and what was reported before it stands. A scalar
 * that ends the text is not reported (it may have been cut).
 */
class JsonRecordScanner {
public:
    struct Span {
        size_t begin = 0; // [begin, end) in the caller's buffer
        size_t end = 0;
        uint32_t path = 0;       // index of the wanted path, in want() order
        uint32_t outerIndex = 0; // element index in the outermost array on the path (0 if none)
    };

    // Registers a wanted path; returns its index. Call before the first scan().
    uint32_t want(std::string_view path);
    void scan(const char* buf, size_t from, size_t to, std::vector<Span>& spans);
    // Buffer offset where a value still being captured starts; SIZE_MAX if none.
    size_t openStart() const { return m_capturing ? m_captureStart : SIZE_MAX; }
    void shift(size_t by) {
        if (m_capturing)
            m_captureStart -= by;
    }

    bool complete() const { return m_state == State::Done; }
    bool failed() const { return m_state == State::Error; }
    const std::string& error() const { return m_error; }
    // Whether the document's first value was an object whose first key was `key` (format sniffing).
    const std::string& firstKey() const { return m_firstKey; }
    // Bytes scanned so far (for "the file ends at byte N").
    uint64_t position() const { return m_consumed; }
    bool trailingGarbage() const { return m_trailingGarbage; }

private:
    enum class State : uint8_t {
        Value,      // expecting a value (after ':' or '[' or ',' in an array, or at the start)
        Key,        // expecting a key or '}' in an object
        KeyString,  // inside a key
        Colon,      // after a key
        After,      // after a value: ',' or the closing bracket
        Skip,       // inside a skipped or captured value (depth counting)
        Scalar,     // inside a scalar that is not followed (number, true, ...)
        Done,
        Error,
    };
    // A trie of the wanted paths; node 0 is the document root.
    struct Node {
        std::vector<std::pair<std::string, uint32_t>> keys; // key -> child
        uint32_t element = 0;                               // child for "[]"; 0: none
        int32_t wanted = -1;                                // path index if a path ends here
    };
    // One container being followed along a wanted path.
    struct Frame {
        uint32_t node;
        bool array;
        uint32_t index; // next element index (arrays)
    };

    uint32_t child(uint32_t node, bool array, const std::string& key) const;
    void startValue(size_t pos, char c);
    void endContainer(char c, uint64_t at);
    void fail(const std::string& why, uint64_t at);

    std::vector<Node> m_nodes{Node{}};
    std::vector<Frame> m_frames;
    State m_state = State::Value;
    bool m_started = false;
    bool m_inString = false;
    bool m_escape = false;
    bool m_capturing = false;
    bool m_trailingGarbage = false;
    uint32_t m_depth = 0;        // bracket depth inside a skipped or captured value
    uint32_t m_capturePath = 0;
    uint32_t m_captureOuter = 0;
    size_t m_captureStart = 0;
    uint64_t m_consumed = 0;
    uint32_t m_pendingNode = 0;  // node of the value about to start (resolved at the key)
    std::string m_key;
    std::string m_firstKey;
    std::string m_error;
};

} // namespace ws
