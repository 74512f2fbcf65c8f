"""Run information: what the loader learnt about each run's files (layer: kinds).

One row per run: its event files, the writer (``source_metadata``) and file
version, the host from the file names, first and last wall time, records read and
corrupt, bytes read, and the number of values of every counted kind.

Examples
--------
>>> from tbnb.kinds import KINDS
>>> KINDS["metadata"].storage
'runs'
"""

from __future__ import annotations

from tbnb.kinds.base import Kind

KEY = "metadata"

COLUMNS = ("files", "writer", "file_version", "host", "first_wall_time", "last_wall_time",
           "records", "corrupt_records", "bytes_read")
"""Columns before the per-kind counts."""

KIND = Kind(
    key=KEY,
    doc="One row per run: files, writer, host, first/last wall time, record counts.",
    storage="runs",
    columns=COLUMNS,
    event_type=False,
)
