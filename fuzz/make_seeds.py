#!/usr/bin/env python3
"""Writes the fuzz targets' seed corpora under fuzz/corpus/TARGET from tests/data (run once; the
output is committed, so ./test.sh needs neither this script nor the CLI).

Seeds are kept small (libFuzzer mutates small inputs far faster, and a truncated trace is itself
an input the importers must handle): JSON traces decompressed and cut to 24 KB; SQLite exports
rebuilt with the tables the importers read and their first rows, on 512-byte pages; capture
streams cut to 24 KB; session files stored by `warpscope-cli import` from small traces.

Usage: fuzz/make_seeds.py CLI   (CLI: a built warpscope-cli, e.g. build/test/app/cli/warpscope-cli)
       fuzz/make_seeds.py --rocprof   (only the rocprofiler-sdk and memory timeline seeds)
"""
import gzip
import os
import sqlite3
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "tests", "data")
OUT = os.path.join(ROOT, "fuzz", "corpus")
CUT = 24 * 1024


def read(path):
    with open(path, "rb") as f:
        data = f.read()
    return gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data


def put(target, name, data):
    d = os.path.join(OUT, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def small_sqlite(src, tables, rows=12):
    """The named tables of src (those present) with their first rows, on 512-byte pages."""
    with tempfile.TemporaryDirectory() as tmp:
        dst = os.path.join(tmp, "seed.sqlite")
        out = sqlite3.connect(dst)
        out.execute("PRAGMA page_size=512")
        inp = sqlite3.connect(src)
        present = {r[0]: r[1] for r in inp.execute("SELECT name, sql FROM sqlite_master WHERE type='table'")}
        for t in tables:
            if t not in present or not present[t]:
                continue
            out.execute(present[t])
            cols = [r[1] for r in inp.execute(f'PRAGMA table_info("{t}")')]
            marks = ",".join("?" * len(cols))
            out.executemany(f'INSERT INTO "{t}" VALUES ({marks})', inp.execute(f'SELECT * FROM "{t}" LIMIT {rows}'))
        out.commit()
        out.execute("VACUUM")
        out.close()
        with open(dst, "rb") as f:
            return f.read()


def main(cli):
    # Chrome / Kineto JSON: every small trace of tests/data, cut.
    for name in sorted(os.listdir(DATA)):
        if name.endswith((".json", ".json.gz")):
            put("fuzz_chrome_json", name.replace(".gz", ""), read(os.path.join(DATA, name))[:CUT])
    put("fuzz_chrome_json", "array_format.json", b'[{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":2}]')

    nsys = ["StringIds", "CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET",
            "CUPTI_ACTIVITY_KIND_RUNTIME", "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", "NVTX_EVENTS", "OSRT_API",
            "CUDA_GPU_MEMORY_USAGE_EVENTS", "TARGET_INFO_GPU", "TARGET_INFO_SESSION_START_TIME", "PROCESSES",
            "META_DATA_EXPORT", "EXPORT_META_DATA", "GPU_METRICS", "TARGET_INFO_GPU_METRICS", "CUDA_CALLCHAINS"]
    put("fuzz_nsys_sqlite", "nvfuser_h200.sqlite",
        small_sqlite(os.path.join(DATA, "nsys", "nvfuser_report2_h200_nsys2024.6.sqlite"), nsys))
    nvprof = ["StringTable", "Version", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET",
              "CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL", "CUPTI_ACTIVITY_KIND_DRIVER",
              "CUPTI_ACTIVITY_KIND_RUNTIME", "CUPTI_ACTIVITY_KIND_DEVICE", "CUPTI_ACTIVITY_KIND_NAME",
              "CUPTI_ACTIVITY_KIND_MARKER", "CUPTI_ACTIVITY_KIND_MARKER_DATA", "CUPTI_ACTIVITY_KIND_OVERHEAD"]
    put("fuzz_nvprof_sqlite", "pyprof_nvtx.nvvp",
        small_sqlite(os.path.join(DATA, "nvprof", "profiling-lm_pyprof_nvtx_net.sql"), nvprof))

    caps = os.path.join(DATA, "captures")
    for name in ("vector_add.wscap", "vector_add_stacks.wscap", "ddp_launcher.wscap.gz", "sigkill.wscap",
                 "resnet18_plain.wscap.gz"):
        put("fuzz_capture_stream", name.replace(".gz", ""), read(os.path.join(caps, name))[:CUT])

    with tempfile.TemporaryDirectory() as tmp:
        for name in ("triton_example.json.gz", "cuda_event_sync_trace.json.gz", "inference_rank_1_legacy_schema.json.gz"):
            out = os.path.join(tmp, name + ".warpscope")
            subprocess.run([cli, "import", os.path.join(DATA, name), "-o", out], check=True, capture_output=True)
            put("fuzz_session_file", os.path.basename(out), open(out, "rb").read())

    remote = [
        b"s3://bucket/run1/worker0.pt.trace.json.gz\0<ListBucketResult><Contents><Key>run1/w0.json</Key><Size>12</Size>"
        b"<ETag>&quot;abc&quot;</ETag></Contents><NextContinuationToken>t&amp;1</NextContinuationToken></ListBucketResult>",
        b"az://devstoreaccount1/traces/run/w.json?sv=1&sig=secret\0<EnumerationResults><Blobs><Blob><Name>run/w.json</Name>"
        b"<Properties><Content-Length>5</Content-Length><Etag>0x1</Etag></Properties></Blob></Blobs><NextMarker/></EnumerationResults>",
        b"gs://bucket/dir/\0<Error><Code>AccessDenied</Code><Message>no &#x41;ccess</Message></Error>\0"
        b'{"type":"service_account","client_email":"a@b.iam","token_uri":"http://127.0.0.1/token","private_key":"-----BEGIN PRIVATE KEY-----\\nMIIB\\n-----END PRIVATE KEY-----\\n"}',
        b"https://acct.blob.core.windows.net/c/b.json?se=2026&sig=x\0",
    ]
    for i, r in enumerate(remote):
        put("fuzz_remote_text", f"seed{i}", r)
    rules = [
        b"/workspace/model/train.py\0/workspace\0/home/me/src\0code --goto %f:%l:%c\0/home/me/src/model/train.py",
        b"~/x.py\0~\0/root\0vim +%l '%f'\0/root/x.py\0",
        b"C:\\proj\\a.py\0C:\\proj\0/mnt/proj\0\"emacsclient\" -n +%l:%c %f %%\0",
    ]
    for i, r in enumerate(rules):
        put("fuzz_source_rules", f"seed{i}", r)


AGENT_KEYS = ("size", "id", "type", "gpu_index", "logical_node_type_id", "name", "product_name", "cu_count",
              "simd_per_cu", "max_waves_per_simd", "max_waves_per_cu", "wave_front_size", "lds_size_in_kb",
              "gfx_target_version", "local_mem_size")


def rocprof_seeds():
    """rocprofiler-sdk JSON: the real MI350X file reduced to a few records of each part it has, and
    the same with the record kinds it lacks (HIP calls, roctx ranges and messages, copies,
    allocations) in rocprofiler-sdk's schema."""
    import json
    tool = json.loads(read(os.path.join(DATA, "rocprof", "rocprofiler-sdk_908_results.json.gz")))["rocprofiler-sdk-tool"][0]
    dispatches = tool["buffer_records"]["kernel_dispatch"][:6]
    used = {d["dispatch_info"]["kernel_id"] for d in dispatches}
    small = {
        "metadata": {"pid": tool["metadata"]["pid"], "command": tool["metadata"]["command"][:2]},
        "agents": [{k: a[k] for k in AGENT_KEYS if k in a} for a in (tool["agents"][0], tool["agents"][2])],
        "strings": {"buffer_records": [{"kind": r["kind"], "operations": r["operations"][:4]}
                                       for r in tool["strings"]["buffer_records"]],
                    "marker_api": [{"key": 9, "value": "step"}]},
        "kernel_symbols": [k for k in tool["kernel_symbols"] if k["kernel_id"] in used],
        "buffer_records": {"kernel_dispatch": dispatches},
    }
    put("fuzz_rocprof_json", "mi350x_dispatches.json", json.dumps({"rocprofiler-sdk-tool": [small]}).encode())
    corr = {"internal": 9, "external": 0}
    small["buffer_records"].update({
        "hip_api": [{"size": 72, "kind": 5, "operation": 3, "correlation_id": corr, "start_timestamp": 63857982591000,
                     "end_timestamp": 63857982591500, "thread_id": 908}],
        "marker_api": [{"size": 64, "kind": 7, "operation": 1, "correlation_id": corr,
                        "start_timestamp": 63857982590000, "end_timestamp": 63857982599000, "thread_id": 908}],
        "memory_copy": [{"size": 96, "kind": 10, "operation": 2, "thread_id": 908, "correlation_id": corr,
                         "start_timestamp": 63857982592100, "end_timestamp": 63857982592300,
                         "dst_agent_id": {"handle": 37946}, "src_agent_id": {"handle": 37944}, "bytes": 4096,
                         "stream_id": {"handle": 0}}],
        "memory_allocation": [{"size": 96, "kind": 15, "operation": 1, "thread_id": 908, "correlation_id": corr,
                               "start_timestamp": 63857982590100, "end_timestamp": 63857982590200,
                               "agent_id": {"handle": 37946}, "address": "0x00007f0000001000",
                               "allocation_size": 65536, "stream_id": {"handle": 0}}],
    })
    put("fuzz_rocprof_json", "all_record_kinds.json", json.dumps({"rocprofiler-sdk-tool": [small]}).encode())


def memory_timeline_seeds():
    """PyTorch memory timelines: the first rows of the real raw export, and the coalesced layout."""
    import json
    rows = json.loads(read(os.path.join(DATA, "memory_timeline", "pytorch_memory_timeline.raw.gz")))
    put("fuzz_memory_timeline", "raw_rows.json", json.dumps(rows[:300]).encode())
    times, sizes, live = [], [], [0] * 9
    for ts, _action, delta, cat in rows[:1500]:
        t = max(ts, 0) // 1000
        live[cat + 1] += delta
        if times and times[-1] == t:
            sizes[-1] = list(live)
        else:
            times.append(t)
            sizes.append(list(live))
    put("fuzz_memory_timeline", "coalesced.json", json.dumps([times, sizes]).encode())


def xplane_seeds():
    """XSpace: the real JAX profile's first GPU plane and its host plane, each with its first 3 lines,
    re-framed as a whole XSpace, so the seeds stay small and complete. The wire helpers are
    bench/gen_xplane.py's."""
    import importlib.util
    sys.path.insert(0, os.path.join(ROOT, "bench"))  # gen_xplane imports its sibling gen_rocprof_json
    spec = importlib.util.spec_from_file_location("gen_xplane", os.path.join(ROOT, "bench", "gen_xplane.py"))
    wire = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(wire)
    data = read(os.path.join(DATA, "xplane", "jax_0.8_conv_minimal_tw003.xplane.pb"))
    planes = [value for field, _, value, _ in wire.fields(data) if field == 1]
    device = next(p for p in planes if b"/device:GPU:0" in p[:64])
    host = next(p for p in planes if b"/host:CPU" in p[:64])
    for name, plane in (("device_plane.xplane.pb", device), ("host_plane.xplane.pb", host)):
        body = wire.fields(plane)
        lines = [raw for field, _, _, raw in body if field == 3][:3]
        small = b"".join([raw for field, _, _, raw in body if field != 3] + lines)
        put("fuzz_xplane", name, (b"\x0a" + wire.enc(len(small)) + small)[:60000])


def memory_snapshot_seeds():
    """PyTorch memory snapshots: the H100 recordings cut down (a few segments, the first and last
    trace entries, the OOM kept) and re-pickled with protocols 2, 4 and 5, plus one raw cut."""
    import pickle
    for name in ("oom.pickle", "train.pickle"):
        snap = pickle.loads(read(os.path.join(DATA, "memory_snapshots", name)))
        small = dict(snap)
        small["segments"] = snap["segments"][:3]
        small["device_traces"] = [t[:20] + t[-12:] for t in snap["device_traces"]]
        for proto in (2, 4, 5):
            put("fuzz_memory_snapshot", f"{name[:-7]}_p{proto}.pickle", pickle.dumps(small, protocol=proto)[:60000])
    put("fuzz_memory_snapshot", "train_cut.pickle", read(os.path.join(DATA, "memory_snapshots", "train.pickle"))[:30000])


if __name__ == "__main__":
    if sys.argv[1:] == ["--rocprof"]:
        rocprof_seeds()
        memory_timeline_seeds()
        xplane_seeds()
        memory_snapshot_seeds()
    else:
        main(sys.argv[1])
        rocprof_seeds()
        memory_timeline_seeds()
        xplane_seeds()
        memory_snapshot_seeds()
