#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace ws {

/*
 * JsonObjectWriter: one flat JSON object written straight into a string, for event arguments that
 * are decoded per event on demand (a capture's records, storing a session reads every one).
 * Building an nlohmann::json (a std::map node and a string per member) and dumping it cost ~1 µs
 * per event, most of a capture's store time; this costs a few appends.
 *
 * The text is byte for byte what nlohmann's compact dump of the same members writes: keys in
 * byte order (its std::map), strings escaped alike with invalid UTF-8 replaced by U+FFFD (dump's
 * error_handler_t::replace), doubles by its own formatting. Stored sessions and exported args
 * therefore read the same as before. Keys are not copied: they must outlive finish().
 */
class JsonObjectWriter {
public:
    void add(std::string_view key, std::string_view value); // a JSON string
    void add(std::string_view key, const char* value) { add(key, std::string_view(value)); }
    void add(std::string_view key, const std::string& value) { add(key, std::string_view(value)); }
    void add(std::string_view key, bool value) { addRaw(key, value ? "true" : "false"); }
    void add(std::string_view key, double value);
    template <typename Int>
        requires(std::is_integral_v<Int> && !std::is_same_v<Int, bool>)
    void add(std::string_view key, Int value) {
        if constexpr (std::is_signed_v<Int>)
            addInt(key, static_cast<int64_t>(value));
        else
            addUInt(key, static_cast<uint64_t>(value));
    }
    // A value that is JSON text already, written as given (it must be compact to match a dump).
    void addRaw(std::string_view key, std::string_view json);
    // [x,y,z]
    void addDims(std::string_view key, int64_t x, int64_t y, int64_t z);

    bool empty() const { return m_members.empty(); }
    void clear() {
        m_members.clear();
        m_values.clear();
    }
    // {"<wrapper>":{...members...}}, or just {...} when wrapper is empty; the writer is cleared.
    std::string finish(std::string_view wrapper = {});

    // Appends `s` as a JSON string literal, quotes included, as nlohmann's dump writes it.
    static void appendString(std::string& out, std::string_view s);
    // Appends a double as nlohmann's dump writes it ("null" for NaN and infinities).
    static void appendDouble(std::string& out, double v);
    // Appends [x,y,z] (what addDims writes).
    static void appendDims(std::string& out, int64_t x, int64_t y, int64_t z);

private:
    void addInt(std::string_view key, int64_t v);
    void addUInt(std::string_view key, uint64_t v);
    // One member: write(out) appends its value's text.
    template <typename Write> void member(std::string_view key, Write write) {
        const auto from = static_cast<uint32_t>(m_values.size());
        write(m_values);
        m_members.push_back({key, from, static_cast<uint32_t>(m_values.size())});
    }

    struct Member {
        std::string_view key;
        uint32_t from, to; // the value's text in m_values
    };
    std::vector<Member> m_members;
    std::string m_values;
};

// Whether `s` is well-formed UTF-8 (appendString writes such a string unchanged but for escapes).
bool validUtf8(std::string_view s);

// "[[64, 256], []]" (nested arrays of integers, as PyTorch writes shapes) compacted to
// "[[64,256],[]]"; false for anything else (the caller parses that the slow way).
bool compactIntegerArrays(std::string_view text, std::string& out);

} // namespace ws
