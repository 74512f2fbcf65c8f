"""What a load or a reload found: :class:`ReloadReport`.

Examples
--------
>>> report = ReloadReport(scalars_added=3, new_runs=["a"])
>>> report.changed, str(report)
(True, 'read 0 bytes: 3 scalar points, 1 new run')
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tbnb.loader.backend import Backend

__all__ = ["ReloadReport", "plural"]


def plural(n: int, word: str, many: str | None = None) -> str:
    """``"1 run"``, ``"2 runs"``.

    Examples
    --------
    >>> plural(1, "run"), plural(0, "run"), plural(2, "entry", "entries")
    ('1 run', '0 runs', '2 entries')
    """
    return f"{n} {word if n == 1 else (many or word + 's')}"


@dataclass
class ReloadReport:
    """What a load or :meth:`tbnb.Experiment.reload` found.

    Attributes
    ----------
    new_runs, new_files
        Runs and event files seen for the first time.
    bytes_read
        Bytes of event files read.
    scalars_added
        Scalar points added.
    values_added
        Values added per other kind (``{"histograms": 12, ...}``).
    points_purged
        Points dropped by restarts (``SessionLog.START``).
    problems
        Every problem reported (also issued as warnings naming the file).
    decoders
        The backends that read the bytes (``native``, ``numpy``, ``protobuf``; see
        :mod:`tbnb.loader.backend`).
    backend
        The backend this load chose (with why, when it is not the one asked for).
    protobuf_records
        Records the fast decoder left to protobuf (layouts it does not decode; with the
        ``numpy`` backend, every record but the writers' one-scalar layouts).
    """

    new_runs: list[str] = field(default_factory=list)
    new_files: list[str] = field(default_factory=list)
    bytes_read: int = 0
    scalars_added: int = 0
    values_added: dict[str, int] = field(default_factory=dict)
    points_purged: int = 0
    problems: list[str] = field(default_factory=list)
    decoders: set[str] = field(default_factory=set)
    backend: Backend | None = None
    protobuf_records: int = 0

    @property
    def changed(self) -> bool:
        """Whether anything new was read."""
        return bool(
            self.new_runs
            or self.new_files
            or self.scalars_added
            or any(self.values_added.values())
            or self.points_purged
        )

    def __str__(self) -> str:
        parts = [f"{self.scalars_added} scalar points"]
        parts += [f"{n} {kind}" for kind, n in sorted(self.values_added.items()) if n]
        if self.new_runs:
            parts.append(plural(len(self.new_runs), "new run"))
        if self.new_files:
            parts.append(plural(len(self.new_files), "new file"))
        if self.points_purged:
            parts.append(f"{self.points_purged} points dropped by restarts")
        if self.problems:
            parts.append(plural(len(self.problems), "problem"))
        return f"read {self.bytes_read} bytes: " + ", ".join(parts)
