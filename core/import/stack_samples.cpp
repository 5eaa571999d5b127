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
            if (running && s->ts - last > kMissedPeriods * period) {
                closeFrom(0, last + period / 2);
                running = false;
            }
            // Each sample stands for the time halfway to its neighbours (half a period at the ends).
            const int64_t boundary = running ? last + (s->ts - last) / 2 : s->ts - samplePeriod / 2;
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
