#include "import/stack_samples.h"

#include <algorithm>

namespace ws {

void StackSamples::add(int64_t thread, int64_t ts, uint32_t stack, uint32_t periodNs, uint64_t tag) {
    m_samples.push_back(Sample{thread, ts, tag, stack, periodNs});
}

namespace {

// The median spacing of one thread's samples (sorted by time), at least 1 ns.
int64_t medianSpacing(const int64_t* begin, size_t n) {
    if (n < 2)
        return 1;
    std::vector<int64_t> gaps;
    gaps.reserve(n - 1);
    for (size_t i = 1; i < n; ++i)
        if (begin[i] > begin[i - 1])
            gaps.push_back(begin[i] - begin[i - 1]);
    if (gaps.empty())
        return 1;
    std::nth_element(gaps.begin(), gaps.begin() + static_cast<std::ptrdiff_t>(gaps.size() / 2), gaps.end());
    return std::max<int64_t>(1, gaps[gaps.size() / 2]);
}

} // namespace

void StackSamples::addCall(int64_t thread, int64_t start, int64_t end) {
    if (end >= start)
        m_calls.push_back(Call{thread, start, end});
}

void StackSamples::slices(const FramesOf& framesOf, const std::function<void(const Slice&)>& emit) const {
    std::vector<const Sample*> order;
    order.reserve(m_samples.size());
    for (const Sample& s : m_samples)
        order.push_back(&s);
    std::stable_sort(order.begin(), order.end(), [](const Sample* a, const Sample* b) {
        return a->thread != b->thread ? a->thread < b->thread : a->ts < b->ts;
    });

    struct Open {
        uint64_t frame;
        int64_t start;
        uint64_t tag;
    };
    // The sampler's rounds (every sample of a round has its time), when it records every thread.
    std::vector<int64_t> rounds;
    if (m_everyThreadEachRound) {
        rounds.reserve(m_samples.size());
        for (const Sample& s : m_samples)
            rounds.push_back(s.ts);
        std::sort(rounds.begin(), rounds.end());
        rounds.erase(std::unique(rounds.begin(), rounds.end()), rounds.end());
    }
    // No round strictly between a and b: the sampler itself missed the stretch.
    auto stalled = [&](int64_t a, int64_t b) {
        if (rounds.empty())
            return false;
        auto it = std::upper_bound(rounds.begin(), rounds.end(), a);
        return it == rounds.end() || *it >= b;
    };
    // Calls by thread and start, each with the call of the thread's calls so far that ends last: the
    // call containing a moment, if any, is that of the last call starting at or before it.
    std::vector<Call> calls = m_calls;
    std::sort(calls.begin(), calls.end(),
              [](const Call& a, const Call& b) { return a.thread != b.thread ? a.thread < b.thread : a.start < b.start; });
    std::vector<uint32_t> reach(calls.size());
    for (size_t i = 0; i < calls.size(); ++i)
        reach[i] = i > 0 && calls[i - 1].thread == calls[i].thread && calls[reach[i - 1]].end >= calls[i].end
                       ? reach[i - 1]
                       : static_cast<uint32_t>(i);
    auto callAt = [&](int64_t thread, int64_t ts) -> const Call* {
        auto it = std::upper_bound(calls.begin(), calls.end(), std::make_pair(thread, ts), [](const auto& v, const Call& c) {
            return v.first != c.thread ? v.first < c.thread : v.second < c.start;
        });
        if (it == calls.begin() || std::prev(it)->thread != thread)
            return nullptr;
        const Call& c = calls[reach[static_cast<size_t>(std::prev(it) - calls.begin())]];
        return c.end >= ts ? &c : nullptr;
    };
    // Where the sample at a hands over to the sample at b across a stall of the sampler (see the header).
    auto bridge = [&](int64_t thread, int64_t a, int64_t b) {
        const Call* before = callAt(thread, a);
        const Call* after = callAt(thread, b);
        if (before && before->end >= b)
            before = nullptr; // one call across the stall: halfway
        if (after && after->start <= a)
            after = nullptr;
        int64_t at = a + (b - a) / 2;
        if (before && after)
            at = before->end < after->start ? before->end + (after->start - before->end) / 2 : before->end;
        else if (before)
            at = before->end;
        else if (after)
            at = after->start;
        return std::clamp(at, a, b);
    };

    std::vector<Open> open; // outermost first
    std::vector<uint64_t> frames;
    std::vector<int64_t> times;
    for (size_t begin = 0; begin < order.size();) {
        const int64_t thread = order[begin]->thread;
        size_t end = begin;
        times.clear();
        while (end < order.size() && order[end]->thread == thread)
            times.push_back(order[end++]->ts);
        const int64_t spacing = medianSpacing(times.data(), times.size());
        int64_t last = 0, period = 1;
        bool running = false; // a sample came less than kMissedPeriods periods ago
        // Outermost first: slices of a run often share start and end, and a reader that orders
        // equal intervals by their order in the file must see the caller before the callee.
        auto closeFrom = [&](size_t depth, int64_t at) {
            for (size_t k = depth; k < open.size(); ++k)
                emit(Slice{thread, open[k].start, std::max(at, open[k].start), open[k].frame, open[k].tag});
            open.resize(std::min(depth, open.size()));
        };
        for (size_t i = begin; i < end; ++i) {
            const Sample* s = order[i];
            const int64_t samplePeriod = s->periodNs ? s->periodNs : spacing;
            bool stall = false;
            if (running && s->ts - last > kMissedPeriods * period) {
                stall = stalled(last, s->ts);
                if (!stall) {
                    closeFrom(0, last + period / 2);
                    running = false;
                }
            }
            // Each sample stands for the time halfway to its neighbours (half a period at the ends).
            const int64_t boundary = stall      ? bridge(thread, last, s->ts)
                                     : running ? last + (s->ts - last) / 2
                                               : s->ts - samplePeriod / 2;
            frames.clear();
            if (const std::vector<uint64_t>* ids = framesOf(s->stack))
                frames.assign(ids->rbegin(), ids->rend()); // stored innermost first
            size_t same = 0;
            while (same < open.size() && same < frames.size() && open[same].frame == frames[same])
                ++same;
            closeFrom(same, boundary);
            for (size_t k = same; k < frames.size(); ++k)
                open.push_back(Open{frames[k], boundary, s->tag});
            last = s->ts;
            period = samplePeriod;
            running = true;
        }
        closeFrom(0, last + period / 2);
        begin = end;
    }
}

} // namespace ws
