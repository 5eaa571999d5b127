#include "analysis/line_totals.h"
#include "analysis/launch_flows.h"
#include "model/saturating.h"

#include "model/session.h"

#include <algorithm>
#include <vector>

namespace ws {

namespace {

using FileLines = std::unordered_map<std::string, std::map<int32_t, LineCost>>;

/* Adds one event's cost to every distinct source line of a stack, each line once. */
class LineCharger {
public:
    explicit LineCharger(FileLines& files) : m_files(files) {}

    void clear() { m_lines.clear(); }
    void add(std::string_view file, int32_t line) {
        if (line > 0 && !file.empty())
            m_lines.emplace_back(file, line);
    }
    template <typename Charge>
    void charge(Charge&& apply) {
        std::sort(m_lines.begin(), m_lines.end());
        m_lines.erase(std::unique(m_lines.begin(), m_lines.end()), m_lines.end());
        for (const auto& [file, line] : m_lines)
            apply(m_files[std::string(file)][line]);
    }

private:
    FileLines& m_files;
    std::vector<std::pair<std::string_view, int32_t>> m_lines;
};

// The Python frames (python_function slices) enclosing `slice`, and the slice itself.
void addPythonFrames(const Session& s, const Track& t, uint32_t slice, LineCharger& charger) {
    auto visit = [&](uint32_t i) {
        if (const SourceFrame* f = s.frameForName(t.names[i]))
            charger.add(s.str(f->file), f->line);
    };
    for (uint32_t a : s.ancestors(t, slice))
        visit(a);
    visit(slice);
}

} // namespace

LineTotals LineTotals::compute(const Session& s) {
    LineTotals out;
    LineCharger charger(out.m_files);
    // Kernels, through the flow that ends at them, from the launching runtime call: its Python
    // frames, and the native frames of its `Call stack` argument (Warpscope captures with stacks).
    struct Launch {
        uint32_t track, slice;
        int64_t dur;
    };
    std::vector<Launch> launches;
    // Each kernel once, through the flow it is attributed by (a replayed graph node: where it was captured).
    const LaunchFlows attribution = LaunchFlows::build(s, LaunchFlows::Follow::Attribution);
    for (uint32_t ti = 0; ti < s.tracks().size(); ++ti) {
        const Track& to = s.tracks()[ti];
        if (!to.gpu)
            continue;
        for (uint32_t i = 0; i < to.sliceCount(); ++i) {
            if (s.kindOf(to, i) != EventKind::Kernel)
                continue;
            const uint32_t fi = attribution.flowOf(ti, i);
            if (fi == LaunchFlows::kNone)
                continue;
            const Flow& f = s.flows()[fi];
            launches.push_back({f.fromTrack, f.fromSlice, to.dur[i]});
        }
    }
    auto chargeKernel = [](int64_t dur) {
        return [dur](LineCost& c) {
            addSaturating(c.kernelNs, dur);
            ++c.kernels;
        };
    };
    if (!s.frames().empty()) {
        for (const Launch& l : launches) {
            charger.clear();
            addPythonFrames(s, s.tracks()[l.track], l.slice, charger);
            charger.charge(chargeKernel(l.dur));
        }
    }
    std::vector<uint64_t> refs(launches.size());
    for (size_t i = 0; i < launches.size(); ++i)
        refs[i] = s.tracks()[launches[i].track].argRef[launches[i].slice];
    s.forEachArgValues(refs, {"Call stack"}, [&](size_t i, const std::vector<std::string_view>& v) {
        if (v[0].empty())
            return;
        const std::vector<StackFrameText> frames = parseCallStackText(v[0]);
        charger.clear();
        for (const StackFrameText& f : frames)
            charger.add(f.file, f.line);
        charger.charge(chargeKernel(launches[i].dur));
    });
    // Allocations: the deepest slice on the allocating thread at the record's time.
    if (!s.frames().empty()) {
        for (const MemoryEvent& m : s.memoryEvents()) {
            if (m.bytes == MemoryEvent::kUnknown || m.bytes <= 0 || m.track >= s.tracks().size())
                continue;
            const Track& t = s.tracks()[m.track];
            const uint32_t slice = t.enclosingSlice(m.ts);
            if (slice == Track::kNoId)
                continue;
            charger.clear();
            addPythonFrames(s, t, slice, charger);
            const int64_t bytes = m.bytes;
            charger.charge([bytes](LineCost& c) {
                c.allocatedBytes += bytes;
                ++c.allocations;
            });
        }
    }
    return out;
}

const std::map<int32_t, LineCost>* LineTotals::forFile(std::string_view recordedFile) const {
    auto it = m_files.find(std::string(recordedFile));
    return it == m_files.end() ? nullptr : &it->second;
}

} // namespace ws
