#include "analysis/recorded_spans.h"

#include "model/session.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace ws {

std::vector<RecordedSpan> recordedSpans(const Session& s) {
    std::vector<RecordedSpan> spans;
    if (s.sourceFormat() != TraceFormat::WarpscopeCapture)
        return spans;
    const auto it = s.metadata().find("warpscopeCapture");
    if (it == s.metadata().end())
        return spans;
    const nlohmann::json info = nlohmann::json::parse(it->second, nullptr, false);
    if (!info.is_object() || !info.contains("streams") || !info["streams"].is_array())
        return spans;
    for (const nlohmann::json& stream : info["streams"]) {
        if (!stream.is_object() || !stream.contains("recorded") || !stream["recorded"].is_array())
            continue;
        for (const nlohmann::json& span : stream["recorded"])
            if (span.is_array() && span.size() == 2 && span[0].is_number_integer() && span[1].is_number_integer() &&
                span[1].get<int64_t>() >= span[0].get<int64_t>())
                spans.push_back({span[0].get<int64_t>(), span[1].get<int64_t>()});
    }
    std::sort(spans.begin(), spans.end(), [](const RecordedSpan& a, const RecordedSpan& b) { return a.start < b.start; });
    // Streams of several processes overlap: merge.
    std::vector<RecordedSpan> merged;
    for (const RecordedSpan& sp : spans) {
        if (!merged.empty() && sp.start <= merged.back().end)
            merged.back().end = std::max(merged.back().end, sp.end);
        else
            merged.push_back(sp);
    }
    return merged;
}

std::vector<RecordedSpan> recordedPieces(const std::vector<RecordedSpan>& spans, int64_t lo, int64_t hi) {
    std::vector<RecordedSpan> pieces;
    if (hi <= lo)
        return pieces;
    if (spans.empty()) {
        pieces.push_back({lo, hi});
        return pieces;
    }
    for (const RecordedSpan& sp : spans) {
        const int64_t a = std::max(lo, sp.start), b = std::min(hi, sp.end);
        if (b > a)
            pieces.push_back({a, b});
    }
    return pieces;
}

bool insideOneSpan(const std::vector<RecordedSpan>& spans, int64_t start, int64_t end) {
    if (spans.empty())
        return true;
    // The last span starting at or before `start`.
    auto it = std::upper_bound(spans.begin(), spans.end(), start,
                               [](int64_t v, const RecordedSpan& sp) { return v < sp.start; });
    return it != spans.begin() && std::prev(it)->end >= end;
}

} // namespace ws
