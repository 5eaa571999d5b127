#!/usr/bin/env python3
"""Independent reference for the CUDA occupancy calculator (issue #25, core/analysis/cuda_occupancy.h).

Re-derives Kineto's `est. achieved occupancy %` (FORMATS.md 2.10) of every kernel of Kineto traces
from the kernel's own args ("grid", "block", "registers per thread", "shared memory") and the
device's `deviceProperties`, with the rules of CUDA's occupancy calculator (cuda_occupancy.h,
cudaOccMaxActiveBlocksPerMultiprocessor) written out here from its description, sharing no code
with the C++ side:

  warps per block  = ceil(threads per block / warp size)
  by warps         = floor(max warps per SM / warps per block)  (0 if the block is too large)
  by blocks        = the architecture's max resident blocks per SM
  registers        = regs/thread x warp size rounded up to 256 per warp; the SM's registers are
                     split over 4 sub-partitions (2 on sm_60) that each hold whole warps:
                     by registers = floor(floor(regs per SM / parts / regs per warp) x parts / warps per block)
                     (0 past 255/256 registers per thread or past the per-block register limit)
  shared memory    = static + dynamic + the per-block reservation (1 KiB on sm_80+), rounded up to
                     the allocation unit (256 B before sm_80, 128 B after); the limit per block is
                     the default 48 KiB (+ the reservation) as Kineto asks (no opt-in), so a kernel
                     above it gets 0 blocks; by shared memory = floor(shared memory per SM / that)
  active blocks    = min(by warps, by blocks, by registers, by shared memory)
  occupancy %      = int(0.5 + 100 x min(active blocks, grid blocks / SMs) x threads per block
                                   / max threads per SM), the fraction in single precision as
                     Kineto computes it (47.5 % is 0.474999994 in float, written as 47)

With --optin the per-block limit is the device's opt-in maximum (a kernel that ran with more than
48 KiB had opted in), which is what Warpscope uses for captures.

Usage: python3 reference_occupancy.py [--optin] TRACE...   (prints the agreement per trace)
"""
import os
import struct
import sys
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reference_memory_timeline import load  # noqa: E402  (JSON, gzip or not)

BLOCKS_PER_SM = {(3, None): 16, (5, None): 32, (6, None): 32, (7, 5): 16, (7, None): 32, (8, 0): 32,
                 (8, 9): 24, (8, None): 16, (9, None): 32, (10, 1): 24, (10, None): 32, (11, 0): 24,
                 (11, None): 32, (12, None): 24}


def arch(table, major, minor):
    return table.get((major, minor), table.get((major, None)))


def shared_memory_config(size, major, minor):
    """The smallest shared memory carveout of the architecture that holds `size` bytes."""
    kib = 1024
    if major == 7:
        steps = [32, 64] if minor == 5 else [0, 8, 16, 32, 64, 96]
    elif major == 8:
        steps = [0, 8, 16, 32, 64, 100, 132, 164] if minor in (0, 7) else [0, 8, 16, 32, 64, 100]
    elif major in (9, 10, 11):
        steps = [0, 8, 16, 32, 64, 100, 132, 164, 196, 228]
    elif major == 12:
        steps = [0, 8, 16, 32, 64, 100]
    else:
        return size
    for s in steps:
        if size <= s * kib:
            return s * kib
    return None


def active_blocks(p, threads, regs, smem, optin):
    major, minor = p["computeMajor"], p["computeMinor"]
    warp = p.get("warpSize", 32)
    warps = -(-threads // warp)
    # warps
    by_warps = 0 if threads > p["maxThreadsPerBlock"] else (p["maxThreadsPerMultiprocessor"] // warp) // warps
    by_blocks = arch(BLOCKS_PER_SM, major, minor)
    # registers
    parts = 2 if (major, minor) == (6, 0) else 4
    max_regs = 255 if major < 7 else 256
    per_warp = -(-regs * warp // 256) * 256
    if (per_warp * warps > p["regsPerBlock"] or per_warp * (-(-warps // parts) * parts) > p["regsPerBlock"]
            or regs > max_regs):
        by_regs = 0
    elif per_warp == 0:
        by_regs = 1 << 31
    else:
        by_regs = (p["regsPerMultiprocessor"] // parts // per_warp) * parts // warps
    # shared memory
    unit = 128 if major >= 8 else 256
    reserved = 1024 if major >= 8 else 0
    allocated = -(-(smem + reserved) // unit) * unit
    limit = p["sharedMemPerBlock"]
    if optin and allocated > p["sharedMemPerBlock"] + reserved:
        limit = p.get("sharedMemPerBlockOptin", limit)
    limit += reserved
    per_sm = shared_memory_config(p["sharedMemPerMultiprocessor"], major, minor)
    if allocated > limit or per_sm is None:
        by_smem = 0
    else:
        if per_sm < allocated:
            per_sm = shared_memory_config(allocated, major, minor) if major >= 7 else p["sharedMemPerMultiprocessor"]
        by_smem = per_sm // allocated if allocated else 1 << 31
    return min(by_warps, by_blocks, by_regs, by_smem)


def f32(x):
    """x rounded to single precision: Kineto computes the fraction in float."""
    return struct.unpack("f", struct.pack("f", x))[0]


def occupancy_percent(p, grid, block, regs, smem, optin):
    threads = block[0] * block[1] * block[2]
    if threads <= 0:
        return None
    active = active_blocks(p, threads, regs, smem, optin)
    given = f32(grid[0] * grid[1] * grid[2] / p["numSms"])
    fraction = f32(f32(min(active, given) * threads) / p["maxThreadsPerMultiprocessor"])
    return int(0.5 + fraction * 100.0)


def main(argv):
    optin = "--optin" in argv
    for path in [a for a in argv if a != "--optin"]:
        trace = load(path)
        props = {d["id"]: d for d in trace.get("deviceProperties", [])}
        agree = total = 0
        off = Counter()
        for e in trace["traceEvents"]:
            a = e.get("args", {})
            if e.get("cat") != "kernel" or "est. achieved occupancy %" not in a:
                continue
            p = props.get(a.get("device", 0))
            if p is None:
                continue
            mine = occupancy_percent(p, a["grid"], a["block"], a["registers per thread"], a["shared memory"], optin)
            total += 1
            if mine == a["est. achieved occupancy %"]:
                agree += 1
            else:
                off[(e["name"][:60], a["shared memory"], a["est. achieved occupancy %"], mine)] += 1
        print(f"{path}: {agree}/{total} kernels agree with Kineto")
        for k, n in off.most_common(5):
            print(f"  {n}x {k[0]} (shared memory {k[1]} B): Kineto {k[2]} %, here {k[3]} %")


if __name__ == "__main__":
    main(sys.argv[1:])
