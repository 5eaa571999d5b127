"""The warpscope package against the CLI, on every trace and capture in tests/data.

Each report DataFrame must equal pandas' reading of the CLI's CSV of the same file, the typed rows of
`Session.query` must equal those reports (two implementations: the engine's virtual tables and the
CLI's CSV writers), and the kernel totals per name must equal what an independent reader of the
Chrome JSON computes from the events themselves.
"""
import gzip
import io
import json
import math
import os
import subprocess
from collections import defaultdict

import pandas as pd
import pandas.testing as pdt
import pytest

import warpscope

DATA = os.environ.get("WARPSCOPE_TEST_DATA", "tests/data")
SUFFIXES = (".json", ".json.gz", ".wscap", ".wscap.gz", ".sqlite", ".sql", ".xplane.pb", ".pickle", ".pickle.gz", ".raw.gz")
SKIP_DIRS = {"fuzz", "golden", "ncu"}


def traces():
    out = []
    for root, dirs, files in os.walk(DATA):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS)
        for name in sorted(files):
            path = os.path.join(root, name)
            # A JSON side file (a test's expectations) is no trace: traces start with their events.
            if name.endswith(SUFFIXES) and not (name.endswith(".json") and b"traceEvents" not in open(path, "rb").read(4096)
                                                and not open(path, "rb").read(1).startswith(b"[")):
                out.append(path)
    return out


def cli_csv(cli, *args):
    out = subprocess.run([cli, *args], check=True, capture_output=True).stdout
    return pd.read_csv(io.BytesIO(out), low_memory=False)


def normalized(frame):
    """The frame as a CSV reader sees it: empty text is missing, numbers compare as floats."""
    frame = frame.copy()
    for c in frame.columns:
        values = frame[c].replace("", None)
        numeric = pd.to_numeric(values, errors="coerce")
        frame[c] = numeric if numeric.notna().sum() == values.notna().sum() else values.astype(object).where(values.notna(), None)
    return frame.reset_index(drop=True)


@pytest.fixture(scope="module")
def sessions():
    return {}


def session_of(sessions, path):
    if path not in sessions:
        sessions[path] = warpscope.open(path)
    return sessions[path]


@pytest.mark.parametrize("path", traces(), ids=lambda p: os.path.relpath(p, DATA))
def test_reports_equal_the_cli(cli, sessions, path):
    s = session_of(sessions, path)
    pdt.assert_frame_equal(s.kernels(), cli_csv(cli, "kernels", path, "--csv"))
    pdt.assert_frame_equal(s.operators(), cli_csv(cli, "ops", path, "--csv"))
    pdt.assert_frame_equal(s.gaps(), cli_csv(cli, "gaps", path, "--csv"))
    overview = json.loads(subprocess.run([cli, "overview", path, "--json"], check=True, capture_output=True).stdout)
    assert s.overview() == overview


@pytest.mark.parametrize("path", traces(), ids=lambda p: os.path.relpath(p, DATA))
def test_query_rows_equal_the_kernel_report(sessions, path):
    s = session_of(sessions, path)
    report = s.kernels()
    columns = ", ".join(f'"{c}"' for c in report.columns)
    rows = s.query(f"SELECT {columns} FROM kernels")
    assert list(rows.columns) == list(report.columns)
    pdt.assert_frame_equal(normalized(rows), normalized(report), check_dtype=False, rtol=1e-6)


def chrome_events(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8", errors="replace") as f:
        doc = json.load(f)
    return doc["traceEvents"] if isinstance(doc, dict) else doc


KINETO = [p for p in traces() if p.endswith((".pt.trace.json.gz", "bert-small-uncased__1016001.json.gz"))]


@pytest.mark.parametrize("path", KINETO, ids=lambda p: os.path.relpath(p, DATA))
def test_kernel_totals_equal_an_independent_reading(sessions, path):
    """Kernel time per name from the trace's own `X` events of category kernel (us -> ns)."""
    want = defaultdict(lambda: [0, 0.0])
    for e in chrome_events(path):
        if e.get("ph") == "X" and str(e.get("cat", "")).lower() == "kernel":
            want[e["name"]][0] += 1
            want[e["name"]][1] += float(e.get("dur", 0)) * 1000.0
    got = s_rows = session_of(sessions, path).query("SELECT kernel, calls, total_ns FROM kernel_summary")
    assert len(s_rows) == len(want)
    for name, calls, total in got.itertuples(index=False):
        assert calls == want[name][0], name
        # Warpscope keeps integer ns per event: each may round by under 1 ns.
        assert math.isclose(total, want[name][1], abs_tol=calls + 1), name


def test_errors_are_sqlites(data):
    s = warpscope.open(os.path.join(data, "h100_gaunernst_bert-small-uncased__1016001.json.gz"))
    with pytest.raises(ValueError, match="syntax error"):
        s.query("SELEC 1")
    with pytest.raises(ValueError, match="no such column"):
        s.query("SELECT nope FROM kernels")
    with pytest.raises(ValueError, match="not authorized"):
        s.query("CREATE TABLE t(x)")
    with pytest.raises(RuntimeError):
        warpscope.open(os.path.join(data, "no such file.json"))
    assert s.query("SELECT 1 AS one").one.tolist() == [1]
    assert len(s.query("SELECT * FROM slices", max_rows=5)) == 5
    tables = set(warpscope.schema().table)
    assert {"kernels", "operators", "slices", "gaps", "kernel_summary"} <= tables


def test_library_query_equals_each_session_and_the_cli(cli, data, tmp_path):
    library = tmp_path / "library"
    files = [os.path.join(data, n) for n in ("h100_gaunernst_bert-small-uncased__1016001.json.gz",
                                              "captures/resnet18.wscap.gz", "idle_gaps/sync_ops.wscap.gz")]
    for f in files:
        subprocess.run([cli, "import", f, "--library", str(library)], check=True, capture_output=True)
    sql = "SELECT COUNT(*) AS kernels, SUM(duration_ns) AS gpu_ns FROM kernels"
    frame = warpscope.library(library).query(sql)
    assert len(frame) == len(files)
    assert list(frame.columns) == ["session", "kernels", "gpu_ns"]
    assert frame.attrs["failures"] == []
    stored = warpscope.library(library).sessions()
    for name, path in zip(stored.name, stored.path):
        one = warpscope.open(path).query(sql)
        row = frame[frame.session == name]
        assert row.kernels.tolist() == one.kernels.tolist()
        assert row.gpu_ns.tolist() == one.gpu_ns.tolist()
    via_cli = cli_csv(cli, "query", "--library", str(library), sql, "--csv")
    pdt.assert_frame_equal(via_cli, frame.astype({"kernels": "int64", "gpu_ns": "int64"}), check_dtype=False)
