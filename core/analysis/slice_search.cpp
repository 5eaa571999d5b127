#include "analysis/slice_search.h"

#include "model/session.h"

#include <algorithm>
#include <cctype>
#include <regex>

namespace ws {

namespace {

bool containsFolded(std::string_view haystack, const std::string& lowerNeedle) {
    if (lowerNeedle.empty())
        return false;
    auto it = std::search(haystack.begin(), haystack.end(), lowerNeedle.begin(), lowerNeedle.end(),
                          [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == b; });
    return it != haystack.end();
}

} // namespace

SliceSearchResult searchSlices(const Session& session, const std::string& pattern, bool regex) {
    SliceSearchResult result;
    if (pattern.empty())
        return result;
    const StringTable& strings = session.strings();
    std::vector<uint8_t> nameMatches(strings.size(), 0);
    if (regex) {
        std::regex re;
        try {
            re = std::regex(pattern, std::regex::ECMAScript | std::regex::icase | std::regex::optimize);
        } catch (const std::regex_error& e) {
            result.error = e.what();
            return result;
        }
        for (StringId id = 0; id < strings.size(); ++id) {
            const std::string_view s = strings.str(id);
            nameMatches[id] = std::regex_search(s.begin(), s.end(), re) ? 1 : 0;
        }
    } else {
        std::string lower = pattern;
        std::transform(lower.begin(), lower.end(), lower.begin(),
                       [](char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); });
        for (StringId id = 0; id < strings.size(); ++id)
            nameMatches[id] = containsFolded(strings.str(id), lower) ? 1 : 0;
    }
    const auto& tracks = session.tracks();
    for (uint32_t t = 0; t < tracks.size(); ++t) {
        const Track& track = tracks[t];
        for (uint32_t i = 0; i < track.names.size(); ++i)
            if (nameMatches[track.names[i]])
                result.matches.push_back({track.start[i], t, i});
    }
    std::sort(result.matches.begin(), result.matches.end(), [](const SliceMatch& a, const SliceMatch& b) {
        return std::tie(a.start, a.track, a.slice) < std::tie(b.start, b.track, b.slice);
    });
    return result;
}

} // namespace ws
