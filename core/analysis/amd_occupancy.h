#pragma once

#include <cstdint>
#include <optional>

namespace ws {

/*
 * Wavefront occupancy of an AMD kernel dispatch, the AMD counterpart of Kineto's `est. achieved
 * occupancy %` (FORMATS.md 2.10): how many of a compute unit's wavefront slots the dispatch can keep
 * busy, from its launch shape and its code object's resource use, capped by how many workgroups
 * each CU actually gets.
 *
 *   wavesPerGroup  = ceil(workgroup size / wavefront size)
 *   vgprs          = align(arch VGPRs, 4) + accum VGPRs (CDNA's unified register file), allocated in
 *                    granules of 8; waves per SIMD by VGPRs = floor(512 / vgprs)
 *   sgprs          = allocated in granules of 16 out of 800 per SIMD; waves per SIMD by SGPRs likewise
 *   waves per SIMD = min(max waves per SIMD, by VGPRs, by SGPRs)
 *   groups per CU  = min(floor(SIMDs per CU × waves per SIMD / wavesPerGroup),
 *                        floor(max waves per CU / wavesPerGroup),
 *                        floor(LDS per CU / LDS per group) when the group uses LDS)
 *   occupancy %    = 100 × min(groups per CU, workgroups / CUs) × wavesPerGroup / max waves per CU
 *
 * It is an estimate like Kineto's (no hardware counters); nullopt when an input is missing (a
 * Kineto trace from ROCm carries no register counts, so there it cannot be computed).
 */
struct AmdKernelShape {
    uint64_t workgroupSize = 0; // work-items per workgroup (x*y*z)
    uint64_t workgroups = 0;    // workgroups in the grid
    uint32_t archVgprs = 0;
    uint32_t accumVgprs = 0;
    uint32_t sgprs = 0;
    uint64_t ldsBytes = 0; // group segment (LDS) per workgroup
};

struct AmdComputeUnit {
    uint32_t cuCount = 0;
    uint32_t simdPerCu = 0;
    uint32_t maxWavesPerSimd = 0;
    uint32_t maxWavesPerCu = 0;
    uint32_t waveSize = 0;
    uint64_t ldsBytes = 0; // per CU
};

std::optional<double> amdOccupancyPercent(const AmdKernelShape& k, const AmdComputeUnit& cu);

} // namespace ws
