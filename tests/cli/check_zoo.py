"""The capture zoo's recordings (tests/data/captures/zoo, issue #25) against torch.profiler's traces of
the same programs: every workload's kernels get torch.profiler's operator, those launched from Python
have a Python line, and the Overview finds steps and computes occupancy; the DDP job's two captured
ranks give the communication table of its two traced ranks (sizes and group, from NCCL's profiler
plugin in the capture, from record_param_comms in the trace); no activity buffer request keeps a
thread waiting more than 100 µs.

  python3 check_zoo.py WARPSCOPE_CLI WSCAP_DUMP ZOO_DIR

Uses capture/samples/zoo_compare.py and zoo_python_lines.py, the scripts the GPU-machine runs use.
Exits 1 naming every workload that misses a goal.
"""
import json, os, re, subprocess, sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "capture", "samples"))
from zoo_compare import compare  # noqa: E402
from zoo_python_lines import dump_records, python_lines  # noqa: E402

cli, dump, zoo = sys.argv[1:4]
# The workloads and how many steps the Overview must find at least (a capture records warm-up and
# measured steps: 3 + 6, the first one left out as start-up).
WORKLOADS = {"gpt": 6, "graph": 6, "resnet50": 6, "loader": 6, "ddp_rank0": 6, "compile": 6}
failures = []
for name, min_steps in WORKLOADS.items():
    capture = os.path.join(zoo, name + ".wscap.gz")
    trace = os.path.join(zoo, name + ".pt.trace.json.gz")
    r = compare(cli, capture, trace)
    total, from_python, with_line, _ = python_lines(dump, capture)
    overview = json.loads(subprocess.run([cli, "overview", capture, "--json"], check=True, capture_output=True,
                                         text=True).stdout)
    steps = len(overview["breakdown"].get("steps", []))
    occupancy = [d.get("est_achieved_occupancy") for d in overview["devices"]]
    line_pct = 100.0 * with_line / max(1, from_python)
    print("%-9s operators %6.2f %% of %d paired kernels (%d of the trace's %d missing), Python lines %6.2f %% of %d, "
          "steps %d, occupancy %s" % (name, r["operator_match_pct_of_paired"], r["paired"], r["missing_in_capture"],
                                      r["trace_kernels"], line_pct, from_python, steps, occupancy))
    if r["operator_match_pct_of_paired"] < 99 or r["missing_in_capture"] > 0.01 * r["trace_kernels"]:
        failures.append("%s: operators match %.2f %% (%s)" % (name, r["operator_match_pct_of_paired"],
                                                              r["top_mismatches"][:3]))
    if from_python == 0 or line_pct < 99:
        failures.append("%s: %.2f %% of %d kernels have a Python line" % (name, line_pct, from_python))
    if steps < min_steps:
        failures.append("%s: %d steps, expected at least %d" % (name, steps, min_steps))
    if not occupancy or any(o is None or not (0 < o <= 100) for o in occupancy):
        failures.append("%s: occupancy %s" % (name, occupancy))


def all_reduces(paths):
    """(rank -> (calls, bytes per call, group size)) of a job's all_reduce rows (`dist --json`)."""
    ops = json.loads(subprocess.run([cli, "dist", *paths, "--json"], check=True, capture_output=True,
                                    text=True).stdout)["ops"]
    return {o["rank"]: (o["calls"], o.get("avg_bytes"), o.get("group_size")) for o in ops
            if o["collective"] == "all_reduce"}


def buffer_requests_us(path):
    """Durations in µs of CUPTI's ACTIVITY_BUFFER_REQUEST overhead records: the time a thread, most often
    the program's inside a launch, waited for an activity buffer."""
    waits = []
    for m in re.finditer(r" Overhead overheadKind=(\d+) .*? start=(\d+) end=(\d+)", dump_records(dump, path)):
        if int(m.group(1)) == 7 << 16:  # CUPTI_ACTIVITY_OVERHEAD_ACTIVITY_BUFFER_REQUEST
            waits.append((int(m.group(3)) - int(m.group(2))) / 1e3)
    return waits


# The injection library hands CUPTI zeroed buffers from a pool the writer thread keeps, so a request
# costs a launch microseconds; when CUPTI zeroed each buffer itself, 4 MB took 0.4-2.8 ms of the
# program's launch at every flush (issue #25). Every capture of the zoo but gpt_pm was recorded with it.
for name in ("gpt", "compile", "graph", "resnet50", "loader", "ddp_rank0", "ddp_rank1"):
    waits = buffer_requests_us(os.path.join(zoo, name + ".wscap.gz"))
    print("%-9s %d activity buffer requests, the longest %.0f us" % (name, len(waits), max(waits, default=0)))
    if not waits or max(waits) > 100:
        failures.append("%s: activity buffer requests took up to %.0f us (%d requests)" % (name, max(waits, default=0),
                                                                                         len(waits)))

ranks = ["ddp_rank0", "ddp_rank1"]
captured = all_reduces([os.path.join(zoo, r + ".wscap.gz") for r in ranks])
traced = all_reduces([os.path.join(zoo, r + ".pt.trace.json.gz") for r in ranks])
print("ddp all_reduce per rank (calls, bytes per call, group size): capture %s, trace %s" % (captured, traced))
if sorted(captured) != [0, 1] or any(captured[r][1:] != traced.get(r, (None,))[1:] for r in captured):
    failures.append("ddp: the captured all_reduce sizes %s differ from the traced %s" % (captured, traced))

for f in failures:
    print("FAIL", f)
sys.exit(1 if failures else 0)
