#!/usr/bin/env python3
"""Warpscope's per-trace work as a real Slurm job array (issue #50), checked against a local run.

    check_slurm_array.py CLI SOURCE_DIR [--query SQL] [--ranks N]

Starts a private one-node Slurm cluster on 127.0.0.1 (tests/cluster/slurm_loopback.sh), writes a
distributed job of N rank traces (16 by default; bench/gen_kineto_job.py, the generator the `dist`
tests use: one job with consistent collectives and a straggler, which tests/data has no 16-rank
set of), runs scripts/warpscope-slurm-array.sh --wait over them, and compares
  OUT/job.json          with `warpscope-cli dist --json DIR` run here (the parsed JSON, equal);
  OUT/summaries/<i>.json with trace i of OUT/traces.lst (each task summarized its own trace);
  OUT/logs/             one Slurm log per array task.
With --query, also
  OUT/query/<i>.csv     with `warpscope-cli query TRACE SQL --csv [--with-session]` run here (byte for byte);
  OUT/query.csv         with those local outputs together (same header, same rows in any order).
The cluster is stopped, and its daemons ended, whatever happens (a watchdog in the cluster script
also stops it if this process is killed). Exit status 77 (skip) when the cluster cannot run here:
not root, or slurm/munge not installed. WARPSCOPE_CLUSTER_KEEP=1 keeps the temp folder.
"""
import argparse
import csv
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile

SKIP = 77


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def run(cmd, env=None, timeout=120, check=True):
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=timeout)
    if check and p.returncode != 0:
        fail("%s exited %d\n--- stdout\n%s--- stderr\n%s" % (" ".join(cmd), p.returncode, p.stdout, p.stderr))
    return p


def run_bounded(cmd, env, limit):
    """Runs cmd in its own process group under timeout(1): if this script dies (ctest's TIMEOUT),
    sbatch --wait, which would poll a stopped controller for ever, still ends after `limit` s.
    Returns (status, stdout, stderr); the group is ended if anything here goes wrong."""
    p = subprocess.Popen(["timeout", "--kill-after=10", str(limit)] + cmd, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        stdout, stderr = p.communicate(timeout=limit + 20)
        return p.returncode, stdout, stderr
    finally:
        if p.poll() is None:
            try:
                os.killpg(p.pid, signal.SIGKILL)  # our own group: timeout, the script, sbatch
            except ProcessLookupError:
                pass
            p.wait()


def json_diffs(a, b, path="$"):
    """The leaf paths where two parsed JSON values differ (at most a few hundred)."""
    if type(a) is not type(b):
        return [(path, a, b)]
    if isinstance(a, dict):
        out = []
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                out.append(("%s.%s" % (path, k), a.get(k, "<absent>"), b.get(k, "<absent>")))
            else:
                out += json_diffs(a[k], b[k], "%s.%s" % (path, k))
        return out
    if isinstance(a, list):
        if len(a) != len(b):
            return [(path + ".length", len(a), len(b))]
        out = []
        for i, (x, y) in enumerate(zip(a, b)):
            out += json_diffs(x, y, "%s[%d]" % (path, i))
        return out
    return [] if a == b else [(path, a, b)]


def read_csv(text):
    return list(csv.reader(io.StringIO(text)))


def dump_logs(cluster_dir, out_dir):
    """On failure: what the daemons and the tasks said."""
    for rel in ("log/slurmctld.log", "log/slurmd.log", "log/munged.log"):
        p = os.path.join(cluster_dir, rel)
        if os.path.exists(p):
            with open(p, errors="replace") as f:
                lines = f.readlines()[-25:]
            print("--- %s (last %d lines)\n%s" % (p, len(lines), "".join(lines)), file=sys.stderr)
    for sub in ("errors", "logs"):
        d = os.path.join(out_dir, sub)
        if os.path.isdir(d):
            for name in sorted(os.listdir(d))[:4]:
                with open(os.path.join(d, name), errors="replace") as f:
                    print("--- %s\n%s" % (os.path.join(d, name), f.read()[-2000:]), file=sys.stderr)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cli")
    ap.add_argument("source_dir")
    ap.add_argument("--query", help="SQL for `warpscope-cli query`, run per trace and merged")
    ap.add_argument("--ranks", type=int, default=16)
    args = ap.parse_args()
    cli = os.path.realpath(args.cli)
    src = os.path.realpath(args.source_dir)
    loopback = os.path.join(src, "tests", "cluster", "slurm_loopback.sh")
    array = os.path.join(src, "scripts", "warpscope-slurm-array.sh")
    gen = os.path.join(src, "bench", "gen_kineto_job.py")

    # ctest's TIMEOUT sends SIGTERM first on some platforms: make it run the `finally` below.
    def on_signal(signum, _frame):
        raise SystemExit(128 + signum)

    for s in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, on_signal)

    # realpath: the paths the tasks record must be the ones the local run records.
    tmp = os.path.realpath(tempfile.mkdtemp(prefix="warpscope-slurm-"))
    cluster = os.path.join(tmp, "cluster")
    traces = os.path.join(tmp, "traces")
    out = os.path.join(tmp, "out")
    ok = False
    started = False
    try:
        # --- the cluster ---------------------------------------------------------------------
        p = subprocess.run([loopback, "start", cluster, "--owner", str(os.getpid())], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, timeout=90)
        if p.returncode == SKIP:
            print(p.stderr.strip() or "SKIP: the loopback cluster cannot run here")
            ok = True
            return SKIP
        if p.returncode != 0:
            fail("slurm_loopback.sh start exited %d\n%s%s" % (p.returncode, p.stdout, p.stderr))
        started = True
        print(p.stderr.strip())
        env = dict(os.environ)
        with open(os.path.join(cluster, "env")) as f:
            for line in f:
                if line.startswith("export "):
                    k, v = line[len("export "):].strip().split("=", 1)
                    env[k] = v.strip("'")
        # The session library and caches of both runs stay in the temp folder (sbatch exports
        # this environment to the tasks), never the user's.
        for k in ("XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME"):
            env[k] = os.path.join(tmp, k.lower())
            os.makedirs(env[k], exist_ok=True)
        sinfo = run(["sinfo", "-h", "-o", "%P %a %D %t %N"], env=env).stdout.strip()
        print("sinfo: " + sinfo)

        # --- the traces: one job of N ranks, gzipped Kineto files (the generator is deterministic)
        run([sys.executable, gen, "--ranks", str(args.ranks), "--steps", "3", "--kernels-per-step", "40",
             "--collectives", "4", "--gzip", traces], env=env)
        files = sorted(os.listdir(traces))
        if len(files) != args.ranks:
            fail("expected %d traces in %s, found %d" % (args.ranks, traces, len(files)))

        # --- which parts run ------------------------------------------------------------------
        query = args.query
        check_merge = bool(query)
        query_opts = ["--with-session"] if query else []
        if query:
            print("query: checking %r" % query)

        # --- the array ------------------------------------------------------------------------
        cmd = [array, "--cli", cli, "--traces", traces, "--out", out, "--wait", "--sbatch-arg=--time=10"]
        if query:
            cmd += ["--query", query]
        status, stdout, stderr = run_bounded(cmd, env, 170)
        print(stdout.strip())
        if status == 3 and query and not check_merge:
            print("note: query --merge failed as expected before it exists:\n" + stderr.strip())
        elif status != 0:
            fail("warpscope-slurm-array.sh exited %d%s\n--- stdout\n%s--- stderr\n%s" %
                 (status, " (timed out)" if status in (124, 137) else "", stdout, stderr))

        # --- it ran as one Slurm array, task i on trace i --------------------------------------
        with open(os.path.join(out, "job.id")) as f:
            jobid = f.read().strip()
        with open(os.path.join(out, "traces.lst")) as f:
            listed = f.read().splitlines()
        if listed != [os.path.join(traces, n) for n in files]:
            fail("traces.lst is not the sorted trace files:\n%s" % "\n".join(listed))
        for i, trace in enumerate(listed):
            log = os.path.join(out, "logs", "%s_%d.out" % (jobid, i))
            if not os.path.exists(log):
                fail("no Slurm log %s for array task %d" % (log, i))
            with open(os.path.join(out, "summaries", "%d.json" % i)) as f:
                summary = json.load(f)
            if summary["distributed"]["path"] != trace:
                fail("summaries/%d.json is of %s, not %s" % (i, summary["distributed"]["path"], trace))
        if os.listdir(os.path.join(out, "errors")):
            fail("errors/ is not empty: %s" % os.listdir(os.path.join(out, "errors")))

        # --- the merged job equals the local one -----------------------------------------------
        with open(os.path.join(out, "job.json")) as f:
            merged = json.load(f)
        local = json.loads(run([cli, "dist", traces, "--json"], env=env).stdout)
        diffs = json_diffs(merged, local)
        # Where a field could legitimately differ it is a path (the same here: the tasks read the
        # traces under the same absolute paths); anything else is a real difference.
        real = [d for d in diffs if not d[0].endswith(".path")]
        if real:
            fail("OUT/job.json differs from the local `dist --json` in %d places, first:\n%s" %
                 (len(real), "\n".join("  %s: %r != %r" % d for d in real[:10])))
        if diffs:
            print("note: %d path fields differ (ignored)" % len(diffs))
        workers = merged["workers"]
        if [w["rank"] for w in workers] != list(range(args.ranks)):
            fail("job.json ranks are %s" % [w["rank"] for w in workers])
        straggler = (merged.get("straggler") or {}).get("rank")
        if straggler != args.ranks - 1:  # the generator's straggler is the last rank
            fail("job.json straggler is rank %s, expected %d" % (straggler, args.ranks - 1))
        print("job.json: %d workers, %d steps each, %d op rows, straggler rank %d: equal to the local dist --json" %
              (len(workers), len(workers[0]["steps"]), len(merged.get("ops", [])), straggler))

        # --- query results equal the local ones ------------------------------------------------
        if query:
            header = None
            rows = []
            for i, trace in enumerate(listed):
                mine = run([cli, "query", trace, query, "--csv"] + query_opts, env=env).stdout
                with open(os.path.join(out, "query", "%d.csv" % i)) as f:
                    theirs = f.read()
                if mine != theirs:
                    fail("query/%d.csv differs from the local query of %s:\n--- task\n%s--- local\n%s" %
                         (i, trace, theirs[:1500], mine[:1500]))
                table = read_csv(mine)
                if not table or table[0][:1] != ["session"]:
                    fail("the local query CSV of %s does not start with a `session` column: %r" % (trace, table[:1]))
                header = header or table[0]
                rows += table[1:]
            print("query: %d per-trace CSVs equal to the local ones (%d rows)" % (len(listed), len(rows)))
            if check_merge:
                with open(os.path.join(out, "query.csv")) as f:
                    merged_csv = read_csv(f.read())
                if not merged_csv or merged_csv[0] != header:
                    fail("query.csv header %r, local %r" % (merged_csv[:1], header))
                # query --merge keeps the task order (file names 0.csv, 1.csv, ... by number), which is
                # the order of traces.lst; compare in order, then say whether only the order differs.
                if merged_csv[1:] != rows:
                    fail("query.csv has %d rows, the local queries %d%s" %
                         (len(merged_csv) - 1, len(rows),
                          " (the same rows in another order)" if sorted(merged_csv[1:]) == sorted(rows) else ""))
                print("query.csv: the %d rows of the local queries, in trace order" % len(rows))
        ok = True
        print("PASS")
        return 0
    finally:
        if started:
            s = subprocess.run([loopback, "stop", cluster], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, timeout=60)
            if s.returncode != 0:
                print("slurm_loopback.sh stop exited %d: %s" % (s.returncode, s.stdout), file=sys.stderr)
            if not ok:
                dump_logs(cluster, out)
        if os.environ.get("WARPSCOPE_CLUSTER_KEEP") == "1":
            print("kept " + tmp, file=sys.stderr)
        else:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
