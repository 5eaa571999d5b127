#!/usr/bin/env python3
"""Derives a multi-process Nsight Systems export from a real single-process one (issue #28).

No export of several processes under one nsys (`nsys profile mpirun -np 4 ...`) was available, so
this script makes one from `pipit_saxpy-mpi-cuda_nsys_perlmutter0.sqlite` (rank 0 of an MPI+CUDA
saxpy on a Perlmutter A100 node, Nsight Systems 2022.2.1): every row of its CUDA process is copied
for three more processes, as mpirun would start them on the node's other GPUs:

  - process k (k = 1..3) gets pid + 10k (pids no process of the export has), its thread ids + 10k, device k (a copy of the GPU row with
    id k), and its times shifted by k * 37 us, a launch skew;
  - an MPI_RANKS(globalTid, rank) table, as `-t mpi` writes, gives the four processes the ranks
    2, 0, 3, 1 in pid order, so a reader that ranks by pid instead of the table is caught;
  - the CPU sampling tables (COMPOSITE_EVENTS, SAMPLING_CALLCHAINS, SCHED_EVENTS), which Warpscope
    does not read, are dropped to keep the file small.

Everything else (kernel names, runtime calls, NVTX ranges, copies, their durations) is the real
export's. Usage: make_mpi_job_export.py SOURCE.sqlite OUT.sqlite
"""
import shutil
import sqlite3
import sys

CLONES = 3
SKEW_NS = 37_000
RANKS = [2, 0, 3, 1]  # by ascending pid
PID_SHIFT = 1 << 24
PID_STEP = 10  # pid of process k: base + 10k, free in the source export

# Columns holding a globalPid/globalTid (pid in bits 24-47), a plain pid, a device id, or a time.
GLOBAL_PID = {"globalPid"}
GLOBAL_TID = {"globalTid", "endGlobalTid"}
PLAIN_PID = {"processId", "pid"}
DEVICE = {"deviceId"}
TIME = {"start", "end", "timestamp"}


def pid_of(g):
    return (g >> 24) & 0xFFFFFF


def main(source, out):
    shutil.copyfile(source, out)
    db = sqlite3.connect(out)
    for t in ("COMPOSITE_EVENTS", "SAMPLING_CALLCHAINS", "SCHED_EVENTS"):
        db.execute(f'DROP TABLE IF EXISTS "{t}"')
    (base,) = db.execute("SELECT DISTINCT processId FROM TARGET_INFO_CUDA_STREAM").fetchone()
    tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    for table in tables:
        cols = [r[1] for r in db.execute(f'PRAGMA table_info("{table}")')]
        owner = next((c for c in cols if c in GLOBAL_PID | GLOBAL_TID), None)
        plain = next((c for c in cols if c in PLAIN_PID), None)
        if owner:
            where = f'(("{owner}" >> 24) & 16777215) = {base}'
        elif plain and table.startswith("TARGET_INFO_"):
            where = f'"{plain}" = {base}'
        else:
            continue
        for k in range(1, CLONES + 1):
            exprs = []
            for c in cols:
                q = f'"{c}"'
                d = k * PID_STEP
                if c in GLOBAL_PID:
                    exprs.append(f"{q} + {d * PID_SHIFT}")
                elif c in GLOBAL_TID:
                    exprs.append(f"{q} + {d * PID_SHIFT + d}")
                elif c in PLAIN_PID:
                    exprs.append(f"{q} + {d}")
                elif c in DEVICE:
                    exprs.append(f"CASE WHEN {q} IS NULL THEN NULL ELSE {k} END")
                elif c in TIME and table != "PROCESSES":
                    exprs.append(f"{q} + {k * SKEW_NS}")
                else:
                    exprs.append(q)
            names = ", ".join(f'"{c}"' for c in cols)
            db.execute(f'INSERT INTO "{table}" ({names}) SELECT {", ".join(exprs)} FROM "{table}" WHERE {where}')
    # The node's other GPUs: copies of the real one under ids 1..3.
    gcols = [r[1] for r in db.execute('PRAGMA table_info("TARGET_INFO_GPU")')]
    for k in range(1, CLONES + 1):
        exprs = [str(k) if c == "id" else (f"'0000:{3 + 0x40 * k:02x}:00.0'" if c == "busLocation" else f'"{c}"')
                 for c in gcols]
        db.execute(f'INSERT INTO TARGET_INFO_GPU ({", ".join(gcols)}) SELECT {", ".join(exprs)} FROM TARGET_INFO_GPU WHERE id = 0')
    # MPI_RANKS: the main thread (tid = pid) of each process.
    db.execute("CREATE TABLE MPI_RANKS (globalTid INTEGER NOT NULL, rank INTEGER NOT NULL)")
    (gpid,) = db.execute("SELECT globalPid FROM PROCESSES WHERE pid = ?", (base,)).fetchone()
    for k in range(CLONES + 1):
        d = k * PID_STEP
        db.execute("INSERT INTO MPI_RANKS VALUES (?, ?)", (gpid + d * PID_SHIFT + base + d, RANKS[k]))
    db.commit()
    db.execute("VACUUM")
    db.close()
    check = sqlite3.connect(out)
    pids = sorted({pid_of(g) for (g,) in check.execute("SELECT globalPid FROM CUPTI_ACTIVITY_KIND_KERNEL")})
    assert pids == [base + k * PID_STEP for k in range(CLONES + 1)], pids
    taken = [pid for (pid,) in check.execute("SELECT pid FROM PROCESSES GROUP BY pid HAVING count(*) > 1")]
    assert not taken, taken


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
