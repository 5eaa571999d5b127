#include "model/end_args_merge.h"

#include "model/json_members.h"

#include <vector>

namespace ws {

namespace {

// The last member named `key` (a repeated key's later value wins, as in a JSON parser), or null.
const JsonMember* findMember(const std::vector<JsonMember>& members, std::string_view key) {
    for (auto it = members.rbegin(); it != members.rend(); ++it)
        if (it->key == key)
            return &*it;
    return nullptr;
}

} // namespace

std::string mergeEndArgs(std::string_view beginObject, std::string_view endObject) {
    const std::vector<JsonMember> endArgs = jsonMembers(topLevelMember(endObject, "args"));
    if (endArgs.empty())
        return std::string(beginObject);
    const std::string_view beginArgsText = topLevelMember(beginObject, "args");
    const std::vector<JsonMember> beginArgs = jsonMembers(beginArgsText);

    std::string merged = "{";
    auto put = [&merged](std::string_view key, std::string_view value) {
        if (merged.size() > 1)
            merged += ',';
        merged += '"';
        merged += key;
        merged += "\":";
        merged += value;
    };
    for (const JsonMember& b : beginArgs) {
        const JsonMember* e = findMember(endArgs, b.key);
        put(b.key, e ? e->value : b.value);
    }
    for (const JsonMember& e : endArgs)
        if (!findMember(beginArgs, e.key) && findMember(endArgs, e.key) == &e)
            put(e.key, e.value);
    merged += '}';

    std::string out;
    if (!beginArgsText.empty()) {
        // B's args (an object, or something else such as "__stripped__") are replaced in place.
        const size_t at = static_cast<size_t>(beginArgsText.data() - beginObject.data());
        out.append(beginObject.substr(0, at));
        out += merged;
        out.append(beginObject.substr(at + beginArgsText.size()));
        return out;
    }
    // B has no args: they go before its closing brace.
    const size_t close = beginObject.rfind('}');
    if (close == std::string_view::npos)
        return std::string(beginObject);
    out.append(beginObject.substr(0, close));
    if (!jsonMembers(beginObject).empty())
        out += ',';
    out += "\"args\":";
    out += merged;
    out.append(beginObject.substr(close));
    return out;
}

} // namespace ws
