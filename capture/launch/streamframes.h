#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace ws::frames {

/*
 * The byte protocol of a remote capture's SSH channel (warpscope-capture --stream on the host, read
 * by warpscope-capture --host or the New Capture dialog here). The host's stdout carries, after the
 * line "WSFRAMES 1\n", a sequence of frames:
 *   u8 kind, u32 name length, name, u64 offset, u32 data length, data   (little-endian)
 * Data: bytes of the named capture file at that offset (files only grow, so offsets only rise);
 * Output: the program's stdout and stderr, merged (name empty, offset 0); Exit: the program ended,
 * data = its exit status as decimal text, after the last Data frame; Note: one line the host's
 * warpscope-capture says (no CUDA driver, a symbolization problem).
 * The other way, the client's stdin: 'S' asks the host to stop the program (Ctrl+C to its process
 * group). End of input without 'S' is a dropped connection: the host stops streaming and lets the
 * program and its capture run on.
 */
enum class Kind : uint8_t { Data = 1, Output = 2, Exit = 3, Note = 4 };

inline constexpr std::string_view kGreeting = "WSFRAMES 1\n";
inline constexpr char kStopByte = 'S';
inline constexpr uint32_t kMaxName = 4096;
inline constexpr uint32_t kMaxData = 16u << 20;

void append(std::string& out, Kind kind, std::string_view name, uint64_t offset, std::string_view data);

/* Incremental reader: feed() whatever arrived; each complete frame goes to the callback. */
class Parser {
public:
    using FrameFn = std::function<void(Kind kind, const std::string& name, uint64_t offset, std::string_view data)>;
    explicit Parser(FrameFn fn) : m_fn(std::move(fn)) {}
    // False once the bytes are not this protocol (bad greeting, unknown kind, oversized field);
    // *error says why and nothing more is parsed.
    bool feed(const char* data, size_t size, std::string* error);
    bool sawGreeting() const { return m_greeted; }

private:
    FrameFn m_fn;
    std::string m_buffer;
    bool m_greeted = false;
    bool m_failed = false;
};

} // namespace ws::frames
