#include "analysis/idle_gaps_text.h"

#include "model/append_format.h"

#include <cstdio>

namespace ws {

namespace {

std::string ms(double ns) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", ns / 1e6);
    return buf;
}

} // namespace

std::string idleGapsText(const IdleGapReport& r, size_t top) {
    std::string out;
    const double steps = static_cast<double>(r.steps.size());
    appendFormat(out, "Why the GPU waits: %zu idle gap(s) of at least %s us in %zu step(s)\n", r.gaps.size(),
                ms(static_cast<double>(r.thresholdNs) * 1000.0).c_str(), r.steps.size());
    appendFormat(out, "GPU idle in them: %s ms (%s ms per step, %.2f %% of the steps' %s ms)\n", ms(static_cast<double>(r.gapNs)).c_str(),
                ms(static_cast<double>(r.gapNs) / steps).c_str(),
                r.stepsNs > 0 ? 100.0 * static_cast<double>(r.gapNs) / static_cast<double>(r.stepsNs) : 0.0,
                ms(static_cast<double>(r.stepsNs)).c_str());
    if (r.gaps.empty()) {
        appendFormat(out, "No gaps: %s\n", r.emptyReason.c_str());
        return out;
    }
    appendFormat(out, "\n%-22s %12s %9s %6s  %s\n", "category", "ms per step", "share", "gaps", "top line");
    for (size_t k = 0; k < kGapCategoryCount; ++k) {
        const GapCategoryTotals& t = r.categories[k];
        appendFormat(out, "%-22s %12s %8.2f%% %6llu  %s\n", gapCategoryName(static_cast<GapCategory>(k)),
                    ms(t.perStepNs).c_str(), 100.0 * t.share, static_cast<unsigned long long>(t.gaps),
                    t.lines.empty() ? "" : gapLineText(r.lines[t.lines.front()]).c_str());
    }
    appendFormat(out, "\nTop lines (ms per step, share of the category)\n");
    for (size_t k = 0; k < kGapCategoryCount; ++k) {
        const GapCategoryTotals& t = r.categories[k];
        if (t.ns <= 0)
            continue;
        appendFormat(out, "  %s\n", gapCategoryName(static_cast<GapCategory>(k)));
        for (size_t i = 0; i < t.lines.size() && i < top; ++i) {
            const GapLine& l = r.lines[t.lines[i]];
            appendFormat(out, "    %10s %7.2f%%  %s\n", ms(static_cast<double>(l.ns) / steps).c_str(),
                        100.0 * static_cast<double>(l.ns) / static_cast<double>(t.ns), gapLineText(l).c_str());
        }
        if (t.lines.size() > top)
            appendFormat(out, "    ... %zu more\n", t.lines.size() - top);
    }
    return out;
}

} // namespace ws
