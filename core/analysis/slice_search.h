#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ws {

class Session;

/*
 * Search of slices by name: a substring (case-insensitive) or an ECMAScript regex. The pattern is
 * matched once per distinct name in the string table, then the name columns of all tracks are
 * scanned against that set, so the cost is one pass over the ids (about 10 ms per 10 M slices)
 * plus one match per distinct name. Matches come sorted by start time (ties by track, slice).
 */
struct SliceMatch {
    int64_t start = 0;
    uint32_t track = 0;
    uint32_t slice = 0;
};

struct SliceSearchResult {
    std::vector<SliceMatch> matches;
    std::string error; // invalid regex
};

SliceSearchResult searchSlices(const Session& session, const std::string& pattern, bool regex);

} // namespace ws
