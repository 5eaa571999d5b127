#!/usr/bin/env python3
"""What a kill, a full disk or a second process does to a session library (issue #16). Each mode
runs the real CLI (`warpscope-cli import TRACE --library DIR`, which imports and stores as File >
Open does) and then `warpscope-cli library DIR --check`, which cleans up after interrupted imports,
says what it removed, and reads every session whole.

  kills CLI TRACE N     N imports, each SIGKILLed at a random moment of its import or store: no
                        damaged session, every import that finished is there, no temp file left
  disk-full CLI TRACE   a store that cannot grow its file (RLIMIT_FSIZE with SIGXFSZ ignored, as a
                        full disk gives ENOSPC/EFBIG): a clear error, nothing half-written, the
                        sessions stored before untouched; on a real 256 KB tmpfs too when mounting works
  concurrent CLI TRACE N  N processes store the same trace name at once: N sessions, none lost
"""
import os
import random
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time


def check_library(cli, lib, expect_sessions=None):
    r = subprocess.run([cli, "library", lib, "--check"], capture_output=True, text=True)
    sessions = [line.split("\t") for line in r.stdout.splitlines() if line]
    bad = [s for s in sessions if s[-1] != "ok"]
    leftovers = [f for f in os.listdir(lib) if ".tmp-" in f] if os.path.isdir(lib) else []
    problems = []
    if r.returncode != 0 or bad:
        problems.append(f"damaged sessions: {bad} ({r.stderr.strip()})")
    if leftovers:
        problems.append(f"temp files left after the cleanup: {leftovers}")
    if expect_sessions is not None and len(sessions) != expect_sessions:
        problems.append(f"{len(sessions)} sessions, expected {expect_sessions}")
    return sessions, r.stderr, problems


def kills(cli, trace, n):
    work = tempfile.mkdtemp(prefix="ws-kills-")
    lib = os.path.join(work, "library")
    try:
        # How long one import + store takes, to spread the kills over it.
        first = os.path.join(work, "t0" + os.path.splitext(trace)[1])
        shutil.copy(trace, first)
        t0 = time.monotonic()
        subprocess.run([cli, "import", first, "--library", lib], check=True, capture_output=True)
        span = time.monotonic() - t0
        finished = 1
        rng = random.Random(16)
        killed = 0
        for i in range(1, n + 1):
            src = os.path.join(work, f"t{i}" + os.path.splitext(trace)[1])  # a new path: imported, not reopened
            shutil.copy(trace, src)
            p = subprocess.Popen([cli, "import", src, "--library", lib], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            time.sleep(rng.uniform(0, span * 1.1))
            if p.poll() is None:
                p.send_signal(signal.SIGKILL)
                killed += 1
            out, _ = p.communicate()
            if p.returncode == 0:
                finished += 1
                if not os.path.exists(out.decode().strip()):
                    print(f"import {i} finished but its session {out!r} is gone")
                    return 1
            os.remove(src)
        sessions, said, problems = check_library(cli, lib)
        # Killed after the move into place: whole and listed, so between `finished` and n + 1.
        if not finished <= len(sessions) <= n + 1:
            problems.append(f"{len(sessions)} sessions for {finished} finished imports")
        print(f"{n} imports over {span:.2f} s each, {killed} killed, {finished} finished, {len(sessions)} sessions, "
              f"all whole: {not problems}; cleanup said: {said.strip().splitlines()[0] if said.strip() else ''}")
        for p in problems:
            print(p)
        return 1 if problems or killed < n // 4 else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


def run_limited(args, limit_bytes):
    def limit():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # write() fails with EFBIG, as ENOSPC on a full disk
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit_bytes, limit_bytes))
    return subprocess.run(args, capture_output=True, text=True, preexec_fn=limit)


def disk_full(cli, trace):
    work = tempfile.mkdtemp(prefix="ws-full-")
    lib = os.path.join(work, "library")
    problems = []
    try:
        small = os.path.join(os.path.dirname(trace), "cuda_event_sync_trace.json.gz")
        before = subprocess.run([cli, "import", small, "--library", lib], check=True, capture_output=True, text=True)
        stored = before.stdout.strip()
        size_before = os.path.getsize(stored)
        r = run_limited([cli, "import", trace, "--library", lib], 64 * 1024)
        if r.returncode == 0 or "could not store" not in r.stderr:
            problems.append(f"no clear error when the store cannot grow its file: rc {r.returncode}, {r.stderr.strip()!r}")
        print("store into a file that cannot grow:", r.stderr.strip().splitlines()[0] if r.stderr.strip() else "(nothing)")
        sessions, _, more = check_library(cli, lib, expect_sessions=1)
        problems += more
        if os.path.getsize(stored) != size_before:
            problems.append("the session stored before changed")
        # A real full filesystem, where this machine lets us mount one.
        mnt = os.path.join(work, "tmpfs")
        os.makedirs(mnt)
        if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", mnt], capture_output=True).returncode == 0:
            try:
                tlib = os.path.join(mnt, "library")
                subprocess.run([cli, "import", small, "--library", tlib], check=True, capture_output=True)
                r = subprocess.run([cli, "import", trace, "--library", tlib], capture_output=True, text=True)
                print("store on a full 256 KB tmpfs:", r.stderr.strip().splitlines()[0] if r.stderr.strip() else "(nothing)")
                if r.returncode == 0 or "could not store" not in r.stderr:
                    problems.append(f"full tmpfs: rc {r.returncode}, {r.stderr.strip()!r}")
                _, _, more = check_library(cli, tlib, expect_sessions=1)
                problems += ["tmpfs: " + p for p in more]
            finally:
                subprocess.run(["umount", mnt], capture_output=True)
        else:
            print("(no tmpfs: mounting is not allowed here; the file-size limit stood in for it)")
        for p in problems:
            print(p)
        return 1 if problems else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


def concurrent(cli, trace, n):
    work = tempfile.mkdtemp(prefix="ws-conc-")
    lib = os.path.join(work, "library")
    try:
        # The same file name in n folders: the same session name, stored at the same moment.
        srcs = []
        for i in range(n):
            os.makedirs(os.path.join(work, f"d{i}"))
            srcs.append(os.path.join(work, f"d{i}", os.path.basename(trace)))
            shutil.copy(trace, srcs[-1])
        procs = [subprocess.Popen([cli, "import", s, "--library", lib], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                 for s in srcs]
        outs = [p.communicate()[0].decode().strip() for p in procs]
        codes = [p.returncode for p in procs]
        sessions, _, problems = check_library(cli, lib, expect_sessions=n)
        if any(codes) or len(set(outs)) != n:
            problems.append(f"exit codes {codes}, session paths {outs}")
        print(f"{n} processes stored {os.path.basename(trace)} at once: {len(sessions)} sessions, "
              f"{len(set(outs))} distinct paths")
        for p in problems:
            print(p)
        return 1 if problems else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    mode, cli, trace = sys.argv[1:4]
    if mode == "kills":
        sys.exit(kills(cli, trace, int(sys.argv[4])))
    if mode == "disk-full":
        sys.exit(disk_full(cli, trace))
    if mode == "concurrent":
        sys.exit(concurrent(cli, trace, int(sys.argv[4])))
    sys.exit(2)
