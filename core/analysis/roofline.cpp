#include "analysis/roofline.h"

#include "analysis/kernel_table.h"
#include "analysis/pm_counters.h"
#include "model/session.h"

#include <algorithm>
#include <map>

namespace ws {

namespace {

bool hasEstimate(const KernelRow& r) { return !std::isnan(r.flops) && !std::isnan(r.bytes); }

void add(RooflineWork& w, const KernelRow& r) {
    ++w.kernels;
    w.totalNs += r.dur;
    if (!hasEstimate(r))
        return;
    ++w.estimated;
    w.flops += r.flops;
    w.bytes += r.bytes;
    w.estimatedNs += r.dur;
}

// The format MFU is measured against: that of most Tensor Core FLOPs whose kernels name one, else
// the format most kernel time names.
NumberFormat mainFormatOf(const std::vector<const KernelRow*>& rows) {
    std::array<double, 5> flops{}, time{};
    for (const KernelRow* r : rows) {
        if (r->format == NumberFormat::Unknown)
            continue;
        const auto f = static_cast<size_t>(r->format);
        time[f] += static_cast<double>(r->dur);
        if (r->tensorCores && !std::isnan(r->flops))
            flops[f] += r->flops;
    }
    const auto& by = *std::max_element(flops.begin(), flops.end()) > 0 ? flops : time;
    const auto best = std::max_element(by.begin(), by.end());
    return *best > 0 ? static_cast<NumberFormat>(best - by.begin()) : NumberFormat::Unknown;
}

} // namespace

double Roofline::mfuPeakTflops() const {
    if (!m_peaks)
        return 0;
    return m_peaks->computeTflops(m_mainFormat == NumberFormat::Unknown ? NumberFormat::Fp16 : m_mainFormat, true);
}

Roofline Roofline::build(const Session& session, const KernelTable& table, const InferenceSteps* steps,
                         const RooflineOptions& options) {
    Roofline out;
    std::map<int, int64_t> timeByDevice;
    for (const KernelRow& r : table.rows())
        timeByDevice[r.device] += r.dur;
    if (timeByDevice.empty())
        return out;
    out.m_device = std::max_element(timeByDevice.begin(), timeByDevice.end(),
                                    [](const auto& a, const auto& b) { return a.second < b.second; })->first;
    for (const DeviceInfo& d : session.devices())
        if (d.id == out.m_device)
            out.m_deviceName = d.name;
    out.m_peaks = options.peaks ? options.peaks : gpuPeaksFor(out.m_deviceName);

    std::vector<const KernelRow*> rows; // the main device's, in start order
    for (const KernelRow& r : table.rows())
        if (r.device == out.m_device)
            rows.push_back(&r);
    out.m_mainFormat = mainFormatOf(rows);

    std::vector<uint32_t> groupOf(table.names().size(), KernelRow::kNoInputs);
    for (const KernelRow* r : rows) {
        add(out.m_total, *r);
        uint32_t& g = groupOf[r->nameIndex];
        if (g == KernelRow::kNoInputs) {
            g = static_cast<uint32_t>(out.m_groups.size());
            RooflineGroup group;
            group.name = r->name;
            group.format = r->format;
            group.tensorCores = r->tensorCores;
            out.m_groups.push_back(group);
        }
        RooflineGroup& group = out.m_groups[g];
        add(group.work, *r);
        if (out.m_peaks)
            ++group.callsByBound[static_cast<size_t>(
                classifyBound(*out.m_peaks, r->flops, r->bytes, r->dur, r->format, r->tensorCores))];
    }
    for (RooflineGroup& g : out.m_groups) {
        if (!out.m_peaks)
            break;
        g.computeRoofTflops = out.m_peaks->computeTflops(g.format, g.tensorCores);
        const RooflineWork& w = g.work;
        if (w.estimated > 0) {
            g.bound = classifyBound(*out.m_peaks, w.flops, w.bytes, w.estimatedNs, g.format, g.tensorCores);
            g.roofFraction = roofFraction(*out.m_peaks, w.flops, w.bytes, w.estimatedNs, g.format, g.tensorCores);
        } else {
            g.bound = classifyBound(*out.m_peaks, std::nan(""), std::nan(""), w.totalNs / std::max<uint32_t>(1, w.kernels),
                                    g.format, g.tensorCores);
        }
    }
    std::stable_sort(out.m_groups.begin(), out.m_groups.end(),
                     [](const RooflineGroup& a, const RooflineGroup& b) { return a.work.totalNs > b.work.totalNs; });

    if (!steps || steps->empty())
        return out;
    const double peakFlops = out.mfuPeakTflops() * 1e12;      // FLOP/s
    const double peakBytes = out.m_peaks ? out.m_peaks->memoryGBps * 1e9 : 0; // B/s
    std::array<int32_t, kPmCounterCount> pm{};
    for (size_t m = 0; m < kPmCounterCount; ++m)
        pm[m] = pmCounterIndex(session, out.m_device, static_cast<PmCounter>(m));
    std::array<RooflinePhase, 2> phases{};
    std::array<std::array<std::array<double, 2>, kPmCounterCount>, 2> phasePm{};
    phases[0].phase = InferencePhase::Prefill;
    phases[1].phase = InferencePhase::Decode;
    auto byStart = [](const KernelRow* r, int64_t t) { return r->start < t; };
    for (const InferenceStep& step : steps->steps()) {
        RooflineWork w;
        for (auto it = std::lower_bound(rows.begin(), rows.end(), step.start, byStart);
             it != rows.end() && (*it)->start < step.end; ++it)
            add(w, **it);
        const int64_t span = step.end - step.start;
        const double seconds = static_cast<double>(span) * 1e-9;
        out.m_stepMfu.push_back(peakFlops > 0 && span > 0 && w.estimated > 0 ? w.flops / seconds / peakFlops : std::nan(""));
        const size_t p = step.phase == InferencePhase::Prefill ? 0 : 1;
        RooflinePhase& phase = phases[p];
        ++phase.steps;
        phase.spanNs += span;
        phase.work += w;
        for (size_t m = 0; m < kPmCounterCount; ++m)
            if (pm[m] >= 0)
                if (const auto mean = sampledMean(session.counters()[static_cast<size_t>(pm[m])], step.start, step.end)) {
                    phasePm[p][m][0] += *mean * static_cast<double>(span);
                    phasePm[p][m][1] += static_cast<double>(span);
                }
    }
    for (size_t p = 0; p < 2; ++p) {
        RooflinePhase& phase = phases[p];
        if (phase.steps == 0)
            continue;
        // Without any estimate (no shapes recorded) the utilizations are unknown, not zero.
        const double seconds = static_cast<double>(phase.spanNs) * 1e-9;
        if (seconds > 0 && peakFlops > 0 && phase.work.estimated > 0)
            phase.mfu = phase.work.flops / seconds / peakFlops;
        if (seconds > 0 && peakBytes > 0 && phase.work.estimated > 0)
            phase.mbu = phase.work.bytes / seconds / peakBytes;
        for (size_t m = 0; m < kPmCounterCount; ++m)
            if (phasePm[p][m][1] > 0)
                phase.measured[m] = phasePm[p][m][0] / phasePm[p][m][1];
        out.m_phases.push_back(phase);
    }
    return out;
}

} // namespace ws
