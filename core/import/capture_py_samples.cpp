#include "import/capture_py_samples.h"

#include "import/capture_stacks.h"

#include <algorithm>

namespace ws {

void CapturePySamples::add(const wscap::PySampleRecord& r, uint64_t offset) {
    m_samples.push_back(Sample{r.timestamp, offset, r.threadId, r.pyStackId, r.periodNs});
}

void CapturePySamples::slices(const CaptureStacks& stacks, const std::function<void(const Slice&)>& emit) const {
    std::vector<const Sample*> order;
    order.reserve(m_samples.size());
    for (const Sample& s : m_samples)
        order.push_back(&s);
    std::stable_sort(order.begin(), order.end(), [](const Sample* a, const Sample* b) {
        return a->threadId != b->threadId ? a->threadId < b->threadId : a->ts < b->ts;
    });

    struct Open {
        uint32_t frameId;
        uint64_t start;
        uint64_t offset;
    };
    std::vector<Open> open; // outermost first
    uint32_t thread = 0;
    uint64_t last = 0, period = 0;
    auto closeFrom = [&](size_t depth, uint64_t end) {
        while (open.size() > depth) {
            const Open& o = open.back();
            emit(Slice{thread, o.start, std::max(end, o.start), o.frameId, o.offset});
            open.pop_back();
        }
    };
    std::vector<uint32_t> frames;
    for (const Sample* s : order) {
        if (s->threadId != thread || (!open.empty() && s->ts - last > kMissedPeriods * std::max<uint64_t>(period, 1))) {
            closeFrom(0, last + period);
            thread = s->threadId;
        }
        frames.clear();
        if (const std::vector<uint64_t>* ids = stacks.pyStack(s->stackId))
            for (auto it = ids->rbegin(); it != ids->rend(); ++it) // stored innermost first
                frames.push_back(static_cast<uint32_t>(*it));
        size_t same = 0;
        while (same < open.size() && same < frames.size() && open[same].frameId == frames[same])
            ++same;
        closeFrom(same, s->ts);
        for (size_t k = same; k < frames.size(); ++k)
            open.push_back(Open{frames[k], s->ts, s->offset});
        last = s->ts;
        period = s->periodNs;
    }
    closeFrom(0, last + period);
}

} // namespace ws
