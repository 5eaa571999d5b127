"""Warpscope from Python: open a trace, capture or stored session, ask it SQL, get pandas DataFrames.

    import warpscope
    s = warpscope.open("train.pt.trace.json.gz")      # or a .wscap, an nsys .sqlite, s3://..., a session
    s.query("SELECT * FROM kernel_summary LIMIT 10")  # DataFrame
    s.kernels(); s.operators(); s.gaps()               # the CLI's CSV reports, as DataFrames
    s.overview()                                       # dict: warpscope-cli overview --json
    warpscope.library().query("SELECT COUNT(*) AS kernels FROM kernels")  # every stored session

The tables and their columns: warpscope.schema(), `warpscope-cli query --schema`, docs/QUERY.md.
"""

import io
import json

import pandas as pd

from . import _warpscope

__all__ = ["open", "library", "schema", "Session", "Library"]


def _frame(result):
    """A DataFrame from the native module's column lists, columns in the statement's order."""
    columns = result["columns"]
    data = result["data"]
    # Column by column, so that a column's values keep one dtype where SQLite gave one type.
    return pd.DataFrame({name: pd.Series(values, dtype=object if not values else None)
                         for name, values in zip(columns, data)}, columns=columns)


class Session:
    """One open session. Opening reads it once; every query after that reads memory."""

    def __init__(self, path):
        self._native = _warpscope.NativeSession(str(path))

    @property
    def path(self):
        return self._native.path

    @property
    def format(self):
        """What the file was recorded as: chrome-json, capture, nsight-sqlite, ..."""
        return self._native.format

    def query(self, sql, max_rows=None):
        """SQL (SQLite's dialect) over the session, read-only; a DataFrame of its rows.
        Raises ValueError with SQLite's message for a statement that does not compile or writes."""
        return _frame(self._native.query(sql, max_rows))

    def kernels(self):
        """One row per kernel call: the columns of `warpscope-cli kernels --csv`."""
        return pd.read_csv(io.StringIO(self._native.kernels_csv()), low_memory=False)

    def operators(self, group="name"):
        """Operator statistics: `warpscope-cli ops --csv --group name|shape|stack`."""
        return pd.read_csv(io.StringIO(self._native.operators_csv(group)), low_memory=False)

    def gaps(self):
        """GPU idle gaps and their causes: `warpscope-cli gaps --csv`."""
        return pd.read_csv(io.StringIO(self._native.gaps_csv()), low_memory=False)

    def overview(self):
        """The Overview as `warpscope-cli overview --json` gives it (a dict)."""
        return json.loads(self._native.overview_json())

    def summary(self):
        """The headline numbers as `warpscope-cli summary --json` gives them (a dict)."""
        return json.loads(self._native.summary_json())

    def __repr__(self):
        return f"warpscope.Session({self.path!r}, format={self.format!r})"


class Library:
    """The stored sessions of a library directory (default: the app's)."""

    def __init__(self, directory=None):
        self.directory = str(directory) if directory else _warpscope.default_library_directory()

    def sessions(self):
        """The stored sessions, newest first."""
        return pd.DataFrame(_warpscope.library_sessions(self.directory),
                            columns=["name", "path", "source", "format", "gpus", "duration_ns", "events"])

    def query(self, sql, threads=0):
        """The statement over every stored session, in parallel, with a `session` column first.
        Sessions that failed are in the frame's attrs["failures"] as (path, error)."""
        result = _warpscope.library_query(self.directory, sql, threads)
        frame = _frame(result)
        frame.attrs["failures"] = list(result["failures"])
        return frame

    def open(self, name):
        """A stored session by its name in the library."""
        for entry in _warpscope.library_sessions(self.directory):
            if entry["name"] == name:
                return Session(entry["path"])
        raise KeyError(name)


def open(path_or_url):  # noqa: A001 (the package's verb, as in the README)
    """Opens a trace, capture, stored session file or URL (s3://, gs://, az://, https://)."""
    return Session(path_or_url)


def library(directory=None):
    return Library(directory)


def schema():
    """The tables and views a query may read: a DataFrame of (table, column, type, doc)."""
    rows = []
    for t in _warpscope.schema():
        for name, type_, doc in t["columns"]:
            rows.append((t["name"], name, type_, doc, t["view"]))
    return pd.DataFrame(rows, columns=["table", "column", "type", "doc", "view"])
