#!/usr/bin/env python3
"""Writes a large rocprofiler-sdk JSON file (rocprofv3 --output-format json) for import benchmarks
(issue #17): the real MI350X file of tests/data/rocprof (its metadata, agents, strings and kernel
symbols) with its kernel dispatches repeated, shifted in time, until the file has the asked size,
and a hipLaunchKernel record per dispatch (same correlation id, on the launching thread, just
before it), as rocprofv3 --kernel-trace --hip-trace writes them. Streamed: memory stays small.

    bench/gen_rocprof_json.py OUT.json --size 1G
"""
import argparse
import gzip
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "..", "tests", "data", "rocprof", "rocprofiler-sdk_908_results.json.gz")


def parse_size(text):
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    return int(float(text[:-1]) * units[text[-1].upper()]) if text[-1].upper() in units else int(text)


def out_and_size():
    """The generators' command line, `OUT [--size 1G]`: the output path and the size in bytes."""
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--size", default="1G")
    args = ap.parse_args()
    return args.out, parse_size(args.size)


def main():
    out_path, target = out_and_size()
    tool = json.load(gzip.open(SOURCE))["rocprofiler-sdk-tool"][0]
    dispatches = tool["buffer_records"]["kernel_dispatch"]
    span = dispatches[-1]["end_timestamp"] - dispatches[0]["start_timestamp"] + 1000
    kinds = [r["kind"] for r in tool["strings"]["buffer_records"]]
    hip_kind = kinds.index("HIP_RUNTIME_API")
    hip_op = tool["strings"]["buffer_records"][hip_kind]["operations"].index("hipLaunchKernel")
    head = {k: v for k, v in tool.items() if k != "buffer_records"}
    with open(out_path, "w") as out:
        text = json.dumps(head)
        out.write('{"rocprofiler-sdk-tool": [' + text[:-1] + ', "buffer_records": {"kernel_dispatch": [')
        written, rep, corr = out.tell(), 0, 0
        launches = []
        first = True
        while written < target * 0.6:
            for d in dispatches:
                corr += 1
                d = dict(d)
                shift = rep * span
                d["start_timestamp"] += shift
                d["end_timestamp"] += shift
                d["correlation_id"] = {"internal": corr, "external": 0}
                line = ("" if first else ",\n") + json.dumps(d)
                first = False
                out.write(line)
                written += len(line)
                launches.append((d["start_timestamp"] - 3000, d["thread_id"], corr))
            rep += 1
        out.write('], "hip_api": [')
        first = True
        for start, thread, c in launches:
            rec = {"size": 72, "kind": hip_kind, "operation": hip_op,
                   "correlation_id": {"internal": c, "external": 0, "ancestor": 0},
                   "start_timestamp": start, "end_timestamp": start + 1500, "thread_id": thread}
            out.write(("" if first else ",\n") + json.dumps(rec))
            first = False
        out.write("]}}]}\n")
    print("%s: %.1f MB, %d dispatches, %d launches" % (out_path, os.path.getsize(out_path) / 1e6, corr, corr))


if __name__ == "__main__":
    main()
