#include "model/json_members.h"

namespace ws {

namespace {

bool isSpace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

// Index just past the JSON value starting at i (a string, or a balanced object/array, or a bare
// literal/number); s.size() when it runs off the end.
size_t skipValue(std::string_view s, size_t i) {
    if (i >= s.size())
        return s.size();
    if (s[i] == '"') {
        for (++i; i < s.size(); ++i) {
            if (s[i] == '\\')
                ++i;
            else if (s[i] == '"')
                return i + 1;
        }
        return s.size();
    }
    if (s[i] == '{' || s[i] == '[') {
        int depth = 0;
        bool inString = false;
        for (; i < s.size(); ++i) {
            const char c = s[i];
            if (inString) {
                if (c == '\\')
                    ++i;
                else if (c == '"')
                    inString = false;
            } else if (c == '"') {
                inString = true;
            } else if (c == '{' || c == '[') {
                ++depth;
            } else if ((c == '}' || c == ']') && --depth == 0) {
                return i + 1;
            }
        }
        return s.size();
    }
    while (i < s.size() && s[i] != ',' && s[i] != '}' && s[i] != ']' && !isSpace(s[i]))
        ++i;
    return i;
}

} // namespace

std::vector<JsonMember> jsonMembers(std::string_view s) {
    std::vector<JsonMember> out;
    size_t i = 0;
    while (i < s.size() && isSpace(s[i]))
        ++i;
    if (i >= s.size() || s[i] != '{')
        return out;
    ++i;
    while (i < s.size()) {
        while (i < s.size() && (isSpace(s[i]) || s[i] == ','))
            ++i;
        if (i >= s.size() || s[i] != '"')
            break;
        const size_t keyEnd = skipValue(s, i);
        const std::string_view key = s.substr(i + 1, keyEnd - i - 2 < s.size() ? keyEnd - i - 2 : 0);
        i = keyEnd;
        while (i < s.size() && (isSpace(s[i]) || s[i] == ':'))
            ++i;
        const size_t valueEnd = skipValue(s, i);
        out.push_back({key, s.substr(i, valueEnd - i)});
        i = valueEnd;
    }
    return out;
}

std::string_view topLevelMember(std::string_view object, std::string_view key) {
    for (const JsonMember& m : jsonMembers(object))
        if (m.key == key)
            return m.value;
    return {};
}

} // namespace ws
