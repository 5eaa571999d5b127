#!/usr/bin/env python3
"""Independent reference for the rocprofiler-sdk JSON importer (issue #17).

Reads a `rocprofv3 --output-format json` file with Python's json module (no Warpscope code) and
prints, as JSON, what the kernel table grouped by name must show: per kernel name (the symbol's
formatted name without the ".kd" suffix) the calls, total ns, duration-weighted mean workgroups per
compute unit and duration-weighted mean wavefront occupancy (%), plus per-GPU kernel counts.

Occupancy, from the agent and the kernel symbol (the same published rules as amd_occupancy.h,
written again here): waves per workgroup = ceil(work-items / wavefront size); VGPRs =
align(align(arch, 4) + accum, 8), waves per SIMD by VGPRs = 512 // VGPRs; by SGPRs =
800 // align(sgprs, 16); groups per CU = min(SIMDs x waves per SIMD // waves per group, max waves per
CU // waves per group, LDS per CU // LDS per group); occupancy = 100 x min(groups per CU,
workgroups / CUs) x waves per group / max waves per CU.

    python3 reference_rocprof.py FILE.json[.gz]
"""
import gzip
import json
import math
import sys


def load(path):
    with open(path, "rb") as f:
        head = f.read(2)
    opener = gzip.open if head == b"\x1f\x8b" else open
    with opener(path, "rt") as f:
        return json.load(f)


def strip_suffix(name):
    for suffix in (" [clone .kd]", ".kd"):
        if name.endswith(suffix) and len(name) > len(suffix):
            return name[: -len(suffix)]
    return name


def align(v, to):
    return (v + to - 1) // to * to


def occupancy(agent, sym, wg, groups, lds):
    if not sym or agent["wave_front_size"] == 0 or agent["simd_per_cu"] == 0 or agent["max_waves_per_simd"] == 0:
        return None
    wg_size = wg[0] * wg[1] * wg[2]
    max_waves_cu = agent["max_waves_per_cu"] or agent["simd_per_cu"] * agent["max_waves_per_simd"]
    waves_group = math.ceil(wg_size / agent["wave_front_size"])
    per_simd = agent["max_waves_per_simd"]
    vgprs = align(align(sym["arch_vgpr_count"], 4) + sym["accum_vgpr_count"], 8)
    if vgprs:
        per_simd = min(per_simd, 512 // vgprs)
    if sym["sgpr_count"]:
        per_simd = min(per_simd, 800 // align(sym["sgpr_count"], 16))
    per_cu = min(agent["simd_per_cu"] * per_simd // waves_group, max_waves_cu // waves_group)
    lds_cu = agent["lds_size_in_kb"] * 1024
    if lds and lds_cu:
        per_cu = min(per_cu, lds_cu // lds)
    return 100.0 * min(per_cu, groups / agent["cu_count"]) * waves_group / max_waves_cu


def main():
    tool = load(sys.argv[1])["rocprofiler-sdk-tool"]
    rows, per_gpu = {}, {}
    for proc in tool:
        agents = {a["id"]["handle"]: a for a in proc.get("agents", [])}
        symbols = {s["kernel_id"]: s for s in proc.get("kernel_symbols", [])}
        for d in proc.get("buffer_records", {}).get("kernel_dispatch", []):
            info = d["dispatch_info"]
            agent = agents[info["agent_id"]["handle"]]
            sym = symbols.get(info["kernel_id"])
            name = strip_suffix(sym["formatted_kernel_name"]) if sym else "kernel %d" % info["kernel_id"]
            dur = d["end_timestamp"] - d["start_timestamp"]
            wg = [max(1, info["workgroup_size"][k]) for k in "xyz"]
            grid = [max(1, info["grid_size"][k]) for k in "xyz"]
            groups = math.prod(math.ceil(g / w) for g, w in zip(grid, wg))
            lds = max(info["group_segment_size"], sym["group_segment_size"] if sym else 0)
            occ = occupancy(agent, sym, wg, groups, lds)
            r = rows.setdefault(name, {"calls": 0, "total_ns": 0, "bps_w": 0.0, "occ_w": 0.0})
            r["calls"] += 1
            r["total_ns"] += dur
            r["bps_w"] += groups / agent["cu_count"] * dur
            r["occ_w"] += (occ or 0.0) * dur
            gpu = agent["gpu_index"]
            per_gpu[gpu] = per_gpu.get(gpu, 0) + 1
    out = {"kernels": {}, "per_gpu": {str(k): v for k, v in sorted(per_gpu.items())}}
    for name, r in rows.items():
        t = r["total_ns"]
        out["kernels"][name] = {
            "calls": r["calls"],
            "total_ns": t,
            "mean_blocks_per_sm": r["bps_w"] / t if t else 0.0,
            "mean_occupancy_pct": r["occ_w"] / t if t else 0.0,
        }
    json.dump(out, sys.stdout, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
