"""Fuzzing the loader with mutated real event files (hypothesis).

Real files (tensorboardX: scalars, histograms, images, audio, text, PR curves,
custom scalars; TF2 tensor forms) are mutated by byte flips, truncations,
insertions, deletions and duplicated ranges. Every load must finish in time, raise
nothing, report problems only as :class:`tbnb.warnings.TbnbWarning` subclasses naming
the file, and keep records whose bytes survived intact.

Each byte of a mutated file carries the offset it came from in the original (``-1``
for new or changed bytes), so which original records survive intact, and where,
is known without asking tbnb.
"""

from __future__ import annotations

import os
import signal
import tempfile
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tbnb.loader.experiment import Experiment
from tbnb.warnings import TbnbWarning
from tests import writers

NAME = "events.out.tfevents.1700000000.fuzzhost"
DECODERS = st.sampled_from(["numpy", "native", "protobuf"])
LIMIT_SECONDS = 20
"""A load taking longer than this is a hang."""


@cache
def _base(which: str) -> bytes:
    """The root event file of a cached real-writer logdir."""
    logdir = writers.cached(which).logdir
    (path,) = [p for p in writers.event_files(logdir) if os.path.dirname(p) == logdir][:1]
    return Path(path).read_bytes()


def _keys_of_record(payload: bytes) -> set[tuple[Any, ...]]:
    """What one record contributes to the frames, decoded by TensorBoard's own Event class."""
    from tensorboard.compat.proto.event_pb2 import Event

    event = Event.FromString(payload)
    keys: set[tuple[Any, ...]] = set()
    for value in event.summary.value:
        if value.WhichOneof("value") == "simple_value":
            keys.add(("scalar", value.tag, event.step, float(np.float32(value.simple_value))))
        elif value.tag != "custom_scalars__config__":
            keys.add(("value", value.tag, event.step))
    return keys


def _keys_of_load(exp: Experiment) -> set[tuple[Any, ...]]:
    keys: set[tuple[Any, ...]] = set()
    s = exp.scalars
    for tag, step, value in zip(s["tag"].astype(str), s["step"], s["value"], strict=True):
        keys.add(("scalar", tag, int(step), float(value)))
        keys.add(("value", tag, int(step)))  # TF2 tensor scalars
    for kind in ("histograms", "images", "audio", "text", "pr_curves", "tensors"):
        frame = getattr(exp, kind)
        keys |= {
            ("value", t, int(st_))
            for t, st_ in zip(frame["tag"].astype(str), frame["step"], strict=True)
        }
    keys |= {("value", tag, step) for _, tag, step, _ in exp.hparams_values}
    return keys


# ------------------------------------------------------------------ mutations

POSITION = st.integers(min_value=0, max_value=2**31)
OPS = st.one_of(
    st.tuples(st.just("flip"), POSITION, st.integers(1, 255)),
    st.tuples(st.just("truncate"), POSITION),
    st.tuples(st.just("insert"), POSITION, st.binary(min_size=1, max_size=64)),
    st.tuples(st.just("delete"), POSITION, st.integers(1, 200)),
    st.tuples(st.just("duplicate"), POSITION, st.integers(1, 400), POSITION),
)
SIZE_PRESERVING = st.one_of(
    st.tuples(st.just("flip"), POSITION, st.integers(1, 255)),
    st.tuples(st.just("flip"), POSITION, st.integers(1, 255)),
    st.tuples(st.just("truncate"), POSITION),
)


def _mutate(data: bytes, ops: list[tuple[Any, ...]]) -> tuple[bytes, np.ndarray]:
    """Apply ``ops``; return the bytes and each byte's original offset (-1: not original)."""
    buf = np.frombuffer(data, dtype=np.uint8).copy()
    origin = np.arange(len(data), dtype=np.int64)
    for op in ops:
        n = len(buf)
        kind, at = op[0], op[1] % (n + 1)
        if kind == "flip" and n:
            at %= n
            buf[at] ^= op[2]
            origin[at] = -1
        elif kind == "truncate":
            buf, origin = buf[:at], origin[:at]
        elif kind == "insert":
            new = np.frombuffer(op[2], dtype=np.uint8)
            buf = np.concatenate([buf[:at], new, buf[at:]])
            origin = np.concatenate([origin[:at], np.full(len(new), -1), origin[at:]])
        elif kind == "delete":
            buf = np.concatenate([buf[:at], buf[at + op[2] :]])
            origin = np.concatenate([origin[:at], origin[at + op[2] :]])
        elif kind == "duplicate":
            piece, where = slice(at, at + op[2]), op[3] % (n + 1)
            buf = np.concatenate([buf[:where], buf[piece], buf[where:]])
            origin = np.concatenate([origin[:where], origin[piece], origin[where:]])
    return buf.tobytes(), origin


def _intact(origin: np.ndarray, spans: list[tuple[int, int]]) -> list[tuple[int, int, int]]:
    """``(mutated start, original start, original end)`` of every intact copy of a record."""
    out = []
    for start, end in spans:
        for q in np.flatnonzero(origin == start).tolist():
            piece = origin[q : q + end - start]
            if len(piece) == end - start and np.array_equal(piece, np.arange(start, end)):
                out.append((q, start, end))
    return sorted(out)


@contextmanager
def _time_limit(seconds: int) -> Iterator[None]:
    def fail(signum: int, frame: Any) -> None:
        raise TimeoutError(f"load did not finish within {seconds} s")

    previous = signal.signal(signal.SIGALRM, fail)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def _load_mutated(
    data: bytes, decoder: str
) -> tuple[Experiment, list[warnings.WarningMessage], str]:
    with tempfile.TemporaryDirectory(prefix="tbnb-fuzz-") as logdir:
        path = os.path.join(logdir, NAME)
        Path(path).write_bytes(data)
        with warnings.catch_warnings(record=True) as caught, _time_limit(LIMIT_SECONDS):
            warnings.simplefilter("always")
            exp = Experiment(logdir, progress=False, decoder=decoder)
            _keys_of_load(exp)  # building every frame must not raise either
            exp.reload()  # nor must rereading the same damaged bytes
        return exp, list(caught), path


def _check(
    base: bytes, ops: list[tuple[Any, ...]], decoder: str, chained_only: bool
) -> list[warnings.WarningMessage]:
    data, origin = _mutate(base, ops)
    exp, caught, path = _load_mutated(data, decoder)
    for w in caught:
        assert issubclass(w.category, TbnbWarning), f"{w.category.__name__}: {w.message}"
        assert path in str(w.message)
    spans = writers.record_spans(base)
    intact = _intact(origin, spans)
    if chained_only:
        # Only records reachable from the file's start through intact records: the
        # scanner lands on each of them without resynchronising.
        chained, pos = [], 0
        for q, start, end in intact:
            if q == pos:
                chained.append((q, start, end))
                pos = q + end - start
        intact = chained
    loaded = _keys_of_load(exp)
    for _, start, end in intact:
        missing = _keys_of_record(base[start + 12 : end - 4]) - loaded
        assert not missing, f"record at original offset {start} lost: {sorted(missing)[:3]}"
    return caught


FUZZ = settings(
    max_examples=200,
    deadline=timedelta(seconds=LIMIT_SECONDS),
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@pytest.mark.slow
@pytest.mark.parametrize("which", ["tensorboardX", "tf2"])
@FUZZ
@given(ops=st.lists(SIZE_PRESERVING, min_size=1, max_size=6), decoder=DECODERS)
def test_fuzz_flips_and_truncation_keep_every_intact_record(
    which: str, ops: list[Any], decoder: str
) -> None:
    _check(_base(which), ops, decoder, chained_only=False)


@pytest.mark.slow
@pytest.mark.parametrize("which", ["tensorboardX", "tf2"])
@FUZZ
@given(ops=st.lists(OPS, min_size=1, max_size=5), decoder=DECODERS)
def test_fuzz_any_mutation_never_raises_or_hangs(which: str, ops: list[Any], decoder: str) -> None:
    _check(_base(which), ops, decoder, chained_only=False)


def test_fuzz_helpers_find_intact_records() -> None:
    base = _base("tensorboardX")
    spans = writers.record_spans(base)
    data, origin = _mutate(base, [("flip", spans[3][0] + 13, 0x10)])
    assert [s for _, s, _ in _intact(origin, spans)] == [s for s, _ in spans if s != spans[3][0]]
    data, origin = _mutate(base, [("duplicate", spans[1][0], spans[2][1] - spans[1][0], 0)])
    assert [s for _, s, _ in _intact(origin, spans)].count(spans[1][0]) == 2
    assert len(data) == len(base) + spans[2][1] - spans[1][0]


def test_record_shortened_keeps_its_intact_successor() -> None:
    base = _base("tensorboardX")
    spans = writers.record_spans(base)
    k = max(range(len(spans) - 1), key=lambda i: spans[i][1] - spans[i][0])  # a big record
    start = spans[k][0]
    caught = _check(base, [("delete", start + 20, 7)], decoder="numpy", chained_only=False)
    assert any("bad data CRC" in str(w.message) for w in caught)


def test_record_cut_short_mid_file_keeps_the_records_after_it() -> None:
    base = _base("tensorboardX")
    spans = writers.record_spans(base)
    k = max(range(len(spans) - 1), key=lambda i: spans[i][1] - spans[i][0])  # a big record
    start, end = spans[k]
    assert end - start > len(base) - end  # its length now runs past the end of the file
    caught = _check(
        base, [("delete", start + 40, end - start - 40)], decoder="numpy", chained_only=False
    )
    assert any("record cut short" in str(w.message) for w in caught)
