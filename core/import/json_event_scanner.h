#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ws {

/*
 * JsonEventScanner: the structural pre-pass of the Chrome JSON importer.
 *
 * It walks the text once, block by block, tracking only strings (with escapes) and bracket depth,
 * and reports the byte span of every complete event object in the `traceEvents` array (object
 * form) or the top-level array (array form). Other top-level members are captured as raw JSON
 * text (they are small: deviceProperties, distributedInfo, ...). It never builds a DOM and never
 * needs more than the current block: the caller keeps the unfinished event's bytes (from
 * openEventStart()) when it moves on to the next block and calls shift().
 *
 * Cost: O(n) with memchr-accelerated string skipping; state is a few bytes. Errors in the outer
 * structure stop the scan (error()); errors inside an event object are left to the event parser,
 * which sees each span separately, so one bad event costs one event.
 */
class JsonEventScanner {
public:
    using Span = std::pair<size_t, size_t>; // [begin, end) in the caller's buffer

    // Scans buf[from, to); appends complete event spans to `events`.
    void scan(const char* buf, size_t from, size_t to, std::vector<Span>& events);
    // Buffer offset where an unfinished event (or other element) starts; SIZE_MAX if none.
    size_t openEventStart() const { return m_inEvent ? m_eventStart : SIZE_MAX; }
    // The caller dropped the first `by` bytes of its buffer.
    void shift(size_t by) {
        if (m_inEvent)
            m_eventStart -= by;
    }
    // Call at end of input: true when the text ended where a complete JSON document may end.
    bool complete() const { return m_state == State::Done; }
    bool failed() const { return m_state == State::Error; }
    const std::string& error() const { return m_error; }
    bool sawEventArray() const { return m_sawEventArray; }
    bool arrayForm() const { return m_arrayForm; }
    bool inEventArray() const { return m_state == State::EventsBetween || m_inEvent; }
    uint64_t nonObjectElements() const { return m_nonObjectElements; }
    // Top-level members other than traceEvents: (key, raw JSON value).
    const std::vector<std::pair<std::string, std::string>>& members() const { return m_members; }
    // Describes where the scanner stopped (for truncation messages).
    std::string whereText() const;
    // Non-whitespace bytes after the document ended.
    bool trailingGarbage() const { return m_trailingGarbage; }

private:
    enum class State : uint8_t {
        Start,
        ObjExpectKey,
        ObjKey,
        ObjExpectColon,
        ObjExpectValue,
        ObjRawValue,
        ObjAfterValue,
        EventsBetween,
        Done,
        Error,
    };

    void fail(const std::string& why, uint64_t at);
    void scanScalar(const char* buf, size_t from, size_t to, std::vector<Span>& events, uint64_t absBase);
    size_t scanFast(const char* buf, size_t pos, size_t to, std::vector<Span>& events);
    // Skips a string body starting after the opening quote; returns position after the closing
    // quote or `to` when the string continues past the block. Appends to *capture if non-null.
    size_t skipString(const char* buf, size_t pos, size_t to, std::string* capture);

    State m_state = State::Start;
    bool m_inString = false;
    bool m_escape = false;
    bool m_inEvent = false;
    bool m_eventIsObject = true;
    bool m_sawEventArray = false;
    bool m_arrayForm = false;
    bool m_trailingGarbage = false;
    bool m_rawIsScalar = false;
    uint32_t m_depth = 0;
    size_t m_eventStart = 0;
    uint64_t m_consumed = 0;   // absolute offset scanned so far
    uint64_t m_nonObjectElements = 0;
    std::string m_key;
    std::string m_raw;
    std::string m_error;
    std::vector<std::pair<std::string, std::string>> m_members;
};

} // namespace ws
