#pragma once

#include "analysis/gpu_peaks.h"
#include "analysis/inference_steps.h"
#include "analysis/roofline_bound.h"
#include "model/string_table.h"

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

namespace ws {

class KernelTable;
class Session;

/* Estimated work of a set of kernels: the ones with an estimate, and all of them. */
struct RooflineWork {
    double flops = 0;
    double bytes = 0;
    int64_t estimatedNs = 0; // duration of the kernels with an estimate
    int64_t totalNs = 0;     // duration of all of them
    uint32_t kernels = 0;
    uint32_t estimated = 0;

    RooflineWork& operator+=(const RooflineWork& o) {
        flops += o.flops;
        bytes += o.bytes;
        estimatedNs += o.estimatedNs;
        totalNs += o.totalNs;
        kernels += o.kernels;
        estimated += o.estimated;
        return *this;
    }
    double intensity() const { return bytes > 0 ? flops / bytes : std::numeric_limits<double>::quiet_NaN(); }
    double tflops() const { return estimatedNs > 0 ? flops / static_cast<double>(estimatedNs) / 1e3 : std::numeric_limits<double>::quiet_NaN(); }
    double gbps() const { return estimatedNs > 0 ? bytes / static_cast<double>(estimatedNs) : std::numeric_limits<double>::quiet_NaN(); }
};

/* One kernel name on the roofline: its calls summed. */
struct RooflineGroup {
    StringId name = kEmptyString;
    NumberFormat format = NumberFormat::Unknown;
    bool tensorCores = false;
    RooflineWork work;
    double computeRoofTflops = 0; // the device's peak for its format
    Bound bound = Bound::Unknown; // of the summed work over the summed time
    double roofFraction = std::numeric_limits<double>::quiet_NaN();
    std::array<uint32_t, 4> callsByBound{}; // per Bound, the calls' own verdicts
};

/*
 * One inference phase's (or a whole run's) work over its wall time: MFU = FLOPs / (span x compute
 * peak), MBU = bytes / (span x memory peak), NaN when none of its kernels has an estimate (no
 * shapes), and where the capture has PM sampling the measured means over its forwards (% of peak).
 */
struct RooflinePhase {
    InferencePhase phase = InferencePhase::Decode;
    uint32_t steps = 0;
    RooflineWork work;
    int64_t spanNs = 0;
    double mfu = std::numeric_limits<double>::quiet_NaN(); // fraction
    double mbu = std::numeric_limits<double>::quiet_NaN();
    std::array<double, 3> measured{std::nan(""), std::nan(""), std::nan("")}; // PmCounter order, %
};

struct RooflineOptions {
    std::optional<GpuPeaks> peaks; // set: these instead of the table's row for the device name
};

/*
 * Roofline: a run's kernels placed against its main GPU's peaks (issue #49). The main GPU is the
 * one with the most kernel time; its peaks come from gpu_peaks.h by its name. Groups are the
 * kernel names, costliest first; phases are the inference steps' prefill and decode (when the run
 * is one), each with MFU, MBU and the PM means. The estimate is the kernel table's (op_cost.h).
 * Cost: one pass over the kernel table, and one over the forwards' kernels per phase.
 */
class Roofline {
public:
    static Roofline build(const Session& session, const KernelTable& table, const InferenceSteps* steps,
                          const RooflineOptions& options = {});

    const std::optional<GpuPeaks>& peaks() const { return m_peaks; }
    int device() const { return m_device; }
    std::string_view deviceName() const { return m_deviceName; }
    NumberFormat mainFormat() const { return m_mainFormat; } // of the Tensor Core FLOPs; MFU's peak
    double mfuPeakTflops() const;
    const RooflineWork& total() const { return m_total; }
    const std::vector<RooflineGroup>& groups() const { return m_groups; }
    const std::vector<RooflinePhase>& phases() const { return m_phases; }
    // Per inference step (InferenceSteps::steps() order): its MFU, NaN without peaks.
    const std::vector<double>& stepMfu() const { return m_stepMfu; }

private:
    std::optional<GpuPeaks> m_peaks;
    int m_device = -1;
    std::string m_deviceName;
    NumberFormat m_mainFormat = NumberFormat::Unknown;
    RooflineWork m_total;
    std::vector<RooflineGroup> m_groups;
    std::vector<RooflinePhase> m_phases;
    std::vector<double> m_stepMfu;
};

} // namespace ws
