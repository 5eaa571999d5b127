#include "analysis/amd_occupancy.h"

#include <algorithm>

namespace ws {

namespace {

uint64_t alignUp(uint64_t v, uint64_t to) {
    return (v + to - 1) / to * to;
}

constexpr uint64_t kVgprsPerSimdLane = 512;
constexpr uint64_t kVgprGranule = 8;
constexpr uint64_t kSgprsPerSimd = 800;
constexpr uint64_t kSgprGranule = 16;

} // namespace

std::optional<double> amdOccupancyPercent(const AmdKernelShape& k, const AmdComputeUnit& cu) {
    if (k.workgroupSize == 0 || k.workgroups == 0 || cu.cuCount == 0 || cu.simdPerCu == 0 ||
        cu.maxWavesPerSimd == 0 || cu.waveSize == 0)
        return std::nullopt;
    const uint64_t maxWavesPerCu = cu.maxWavesPerCu ? cu.maxWavesPerCu : uint64_t(cu.simdPerCu) * cu.maxWavesPerSimd;
    const uint64_t wavesPerGroup = (k.workgroupSize + cu.waveSize - 1) / cu.waveSize;
    uint64_t wavesPerSimd = cu.maxWavesPerSimd;
    const uint64_t vgprs = alignUp(alignUp(k.archVgprs, 4) + k.accumVgprs, kVgprGranule);
    if (vgprs > 0)
        wavesPerSimd = std::min(wavesPerSimd, kVgprsPerSimdLane / vgprs);
    if (k.sgprs > 0)
        wavesPerSimd = std::min(wavesPerSimd, kSgprsPerSimd / alignUp(k.sgprs, kSgprGranule));
    uint64_t groupsPerCu = std::min(cu.simdPerCu * wavesPerSimd / wavesPerGroup, maxWavesPerCu / wavesPerGroup);
    if (k.ldsBytes > 0 && cu.ldsBytes > 0)
        groupsPerCu = std::min(groupsPerCu, cu.ldsBytes / k.ldsBytes);
    const double groupsGiven = static_cast<double>(k.workgroups) / static_cast<double>(cu.cuCount);
    const double active = std::min(static_cast<double>(groupsPerCu), groupsGiven);
    return 100.0 * active * static_cast<double>(wavesPerGroup) / static_cast<double>(maxWavesPerCu);
}

} // namespace ws
