#include "analysis/idle_gaps.h"

#include "analysis/gap_classifier.h"

#include "analysis/recommendations.h"
#include "analysis/step_ranges.h"
#include "model/saturating.h"
#include "model/session.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_map>

namespace ws {

const char* gapCategoryId(GapCategory c) {
    static const char* const kIds[kGapCategoryCount] = {"sync", "collective", "data", "cpu", "none"};
    return kIds[static_cast<size_t>(c)];
}

const char* gapCategoryName(GapCategory c) {
    static const char* const kNames[kGapCategoryCount] = {"host synchronization", "collective wait", "data loading",
                                                          "Python / CPU work", "nothing recorded"};
    return kNames[static_cast<size_t>(c)];
}

std::string gapLineText(const GapLine& l) {
    std::string where;
    if (!l.file.empty()) {
        where = l.file;
        if (l.line > 0) {
            // Appended in two steps: GCC 12 warns falsely (-Wrestrict) on ":" + std::to_string(...) here.
            where += ':';
            where += std::to_string(l.line);
        }
        if (!l.function.empty())
            where += " " + l.function;
    }
    if (l.what.empty())
        return where.empty() ? std::string("(unknown)") : where;
    return where.empty() ? l.what : l.what + " (" + where + ")";
}

std::string IdleGapReport::causeText(const IdleGap& gap) const {
    std::string out = gapCategoryName(gap.category);
    if (gap.cause < lines.size())
        out += ": " + gapLineText(lines[gap.cause]);
    // What the host did after a synchronization returned keeps the synchronization's name: it is why
    // the GPU had nothing queued.
    if (gap.drainedBy < lines.size())
        out += ", after " + lines[gap.drainedBy].what + " drained the GPU's queue";
    return out;
}

std::vector<StepRange> overviewWindowSteps(const OverviewData& d, const std::optional<OverviewRange>& range,
                                           std::vector<std::string>* labels) {
    std::vector<StepRange> steps;
    for (size_t i = 0; i < d.steps.steps.size(); ++i) {
        StepRange c = d.steps.steps[i];
        if (range) {
            if (c.end <= range->start || c.start >= range->end)
                continue;
            c.start = std::max(c.start, range->start);
            c.end = std::min(c.end, range->end);
        }
        steps.push_back(c);
        if (labels)
            labels->push_back(i < d.stepLabels.size() ? d.stepLabels[i] : std::string());
    }
    if (range && steps.empty() && range->end > range->start) {
        steps.push_back({range->start, range->end});
        if (labels)
            labels->emplace_back();
    }
    return steps;
}


namespace {

// The analysis over given steps (with their labels) and per-device merged GPU busy time.
IdleGapReport computeGaps(const Session& s, std::vector<StepRange> steps, std::vector<std::string> labels,
                          const std::map<int, const IntervalList*>& busyByDevice, const IdleGapOptions& o) {
    IdleGapReport rep;
    rep.thresholdNs = o.thresholdNs;
    rep.steps = std::move(steps);
    rep.stepLabels = std::move(labels);
    for (const StepRange& st : rep.steps)
        rep.stepsNs += st.end - st.start;
    rep.valid = !rep.steps.empty() && rep.stepsNs > 0;
    if (!rep.valid) {
        rep.emptyReason = "no steps to analyse";
        return rep;
    }
    std::map<int, std::vector<uint32_t>> streams;
    for (uint32_t ti = 0; ti < s.tracks().size(); ++ti)
        if (s.tracks()[ti].gpu)
            streams[s.processes()[s.tracks()[ti].process].deviceId].push_back(ti);

    std::vector<GapSpan> spans;
    const int64_t lo = rep.steps.front().start, hi = rep.steps.back().end;
    for (const auto& [id, busyList] : busyByDevice) {
        const IntervalList& busy = *busyList;
        auto it = std::upper_bound(busy.begin(), busy.end(), lo, [](int64_t v, const Interval& iv) { return v < iv.end; });
        if (it != busy.begin())
            --it;
        for (; it != busy.end() && std::next(it) != busy.end() && it->end < hi; ++it) {
            const Interval& next = *std::next(it);
            if (next.start - it->end < o.thresholdNs || next.start <= lo)
                continue;
            spans.push_back({id, it->end, next.start, &busy, next.start, next.end});
        }
    }
    std::optional<ClassifiedGaps> classified = classifyGaps(s, o, spans, streams);
    if (!classified)
        return rep; // cancelled
    const std::vector<ClassifiedGap>& gaps = classified->gaps;
    rep.lines = std::move(classified->lines);
    rep.callStacksRead = classified->callStacksRead;

    // Pieces per step.
    std::vector<std::map<uint32_t, int64_t>> perGapLines;
    for (const ClassifiedGap& g : gaps) {
        auto st = std::upper_bound(rep.steps.begin(), rep.steps.end(), g.start,
                                   [](int64_t v, const StepRange& r) { return v < r.end; });
        for (; st != rep.steps.end() && st->start < g.end; ++st) {
            IdleGap piece;
            piece.start = std::max(g.start, st->start);
            piece.end = std::min(g.end, st->end);
            if (piece.end <= piece.start)
                continue;
            piece.step = static_cast<uint32_t>(st - rep.steps.begin());
            piece.device = g.device;
            piece.thread = g.thread;
            piece.launchTrack = g.launchTrack;
            piece.launchSlice = g.launchSlice;
            piece.drainedBy = g.drainedBy;
            std::map<uint32_t, int64_t> byLine;
            for (const GapSegment& seg : g.segments) {
                const int64_t len = std::min(seg.end, piece.end) - std::max(seg.start, piece.start);
                if (len <= 0)
                    continue;
                piece.ns[seg.category] += len;
                byLine[seg.line] += len;
            }
            size_t main = 0;
            for (size_t k = 1; k < kGapCategoryCount; ++k)
                if (piece.ns[k] > piece.ns[main])
                    main = k;
            piece.category = static_cast<GapCategory>(main);
            if (piece.category == GapCategory::Sync)
                piece.drainedBy = IdleGap::kNone; // the cause names the synchronization already
            int64_t causeNs = -1;
            for (const auto& [line, ns] : byLine) {
                GapLine& l = rep.lines[line];
                l.ns += ns;
                ++l.gaps;
                if (static_cast<size_t>(l.category) == main &&
                    (ns > causeNs || (ns == causeNs && gapLineText(l) < gapLineText(rep.lines[piece.cause])))) {
                    causeNs = ns;
                    piece.cause = line;
                }
            }
            for (size_t k = 0; k < kGapCategoryCount; ++k)
                rep.categories[k].ns += piece.ns[k];
            ++rep.categories[main].gaps;
            rep.gapNs += piece.duration();
            rep.gaps.push_back(piece);
        }
    }
    std::vector<std::string> texts(rep.lines.size());
    for (size_t i = 0; i < rep.lines.size(); ++i)
        texts[i] = gapLineText(rep.lines[i]);
    for (uint32_t i = 0; i < rep.lines.size(); ++i)
        if (rep.lines[i].ns > 0)
            rep.categories[static_cast<size_t>(rep.lines[i].category)].lines.push_back(i);
    for (GapCategoryTotals& t : rep.categories) {
        t.perStepNs = static_cast<double>(t.ns) / static_cast<double>(rep.steps.size());
        t.share = rep.gapNs > 0 ? static_cast<double>(t.ns) / static_cast<double>(rep.gapNs) : 0.0;
        std::sort(t.lines.begin(), t.lines.end(), [&](uint32_t a, uint32_t b) {
            if (rep.lines[a].ns != rep.lines[b].ns)
                return rep.lines[a].ns > rep.lines[b].ns;
            return texts[a] < texts[b];
        });
    }
    if (rep.gaps.empty())
        rep.emptyReason = busyByDevice.empty() ? "no GPU activity in this trace" : "no GPU idle gap this long inside the steps";
    return rep;
}

} // namespace

IdleGapReport computeIdleGaps(const Session& s, const OverviewData& d, const IdleGapOptions& o) {
    std::vector<std::string> labels;
    std::vector<StepRange> steps = overviewWindowSteps(d, o.range, &labels);
    std::map<int, const IntervalList*> busy;
    for (const auto& [id, dev] : d.devices)
        busy[id] = &dev.gpuBusy;
    return computeGaps(s, std::move(steps), std::move(labels), busy, o);
}

IdleGapReport computeIdleGaps(const Session& s, const StepRanges& ranges, const IdleGapOptions& o) {
    OverviewData d; // only the steps and the GPU busy time: one pass over the GPU tracks
    d.steps = ranges;
    d.stepLabels = ranges.labels;
    d.stepLabels.resize(ranges.steps.size());
    std::map<int, IntervalList> busy;
    for (const Track& t : s.tracks()) {
        if (!t.gpu)
            continue;
        IntervalList& list = busy[s.processes()[t.process].deviceId];
        for (size_t i = 0; i < t.sliceCount(); ++i)
            if (isGpuActivity(s.kindOf(t, i)))
                list.push_back({t.start[i], t.end(i)});
    }
    std::map<int, const IntervalList*> pointers;
    for (auto& [id, list] : busy) {
        mergeIntervals(list);
        if (!list.empty())
            pointers[id] = &list;
    }
    std::vector<std::string> labels;
    std::vector<StepRange> steps = overviewWindowSteps(d, o.range, &labels);
    return computeGaps(s, std::move(steps), std::move(labels), pointers, o);
}

IdleGapReport computeIdleGaps(const Session& s, const IdleGapOptions& o) {
    const OverviewData d = prepareOverview(s);
    return computeIdleGaps(s, d, o);
}

std::string idleGapsCsv(const Session& s, const IdleGapReport& r) {
    auto quote = [](const std::string& v) {
        if (v.find_first_of(",\"\n") == std::string::npos)
            return v;
        std::string out = "\"";
        for (char ch : v) {
            if (ch == '"')
                out += '"';
            out += ch;
        }
        return out + "\"";
    };
    std::string out = "step,device,start_ns,end_ns,duration_ns,category,sync_ns,collective_ns,data_ns,cpu_ns,none_ns,thread,cause\n";
    // Appended field by field: GCC 12 warns falsely (-Wrestrict) on "," + std::string temporaries.
    auto field = [&out](const std::string& v) {
        out += ',';
        out += v;
    };
    for (const IdleGap& g : r.gaps) {
        const std::string& label = g.step < r.stepLabels.size() ? r.stepLabels[g.step] : std::string();
        out += quote(label.empty() ? std::to_string(g.step + 1) : label);
        field(std::to_string(g.device));
        field(std::to_string(g.start));
        field(std::to_string(g.end));
        field(std::to_string(g.duration()));
        field(gapCategoryId(g.category));
        for (int64_t v : g.ns)
            field(std::to_string(v));
        field(quote(g.thread == IdleGap::kNone ? std::string() : s.trackLabel(s.tracks()[g.thread])));
        field(quote(r.causeText(g)));
        out += '\n';
    }
    return out;
}

} // namespace ws
