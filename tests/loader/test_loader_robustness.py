"""Damaged and odd logdirs: every problem is a warning naming the file, every good record kept.

The base file is written by torch's ``SummaryWriter``; damage is applied to its bytes
at record boundaries found independently of tbnb, and the records expected to
survive are decoded with TensorBoard's own ``Event`` class.
"""

from __future__ import annotations

import os
import shutil
import struct
import warnings
from pathlib import Path
from typing import Any

import fsspec
import numpy as np
import pytest
from fsspec.implementations.local import LocalFileSystem

from tbnb.io.crc32c import masked_crc32c
from tbnb.loader.experiment import Experiment
from tbnb.warnings import (
    CorruptRecordWarning,
    DataWarning,
    EmptyResultWarning,
    LogdirWarning,
    TbnbWarning,
)
from tests import writers

FILE = "events.out.tfevents.1700000000.testhost"


@pytest.fixture(scope="module")
def torch_bytes(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """An event file from torch: 20 scalar events, a histogram and a text in between."""
    from torch.utils.tensorboard import SummaryWriter

    directory = tmp_path_factory.mktemp("robust")
    w = SummaryWriter(str(directory))
    for step in range(20):
        w.add_scalar("loss", 1.0 / (step + 1), step, walltime=writers.WALL0 + step)
        if step == 5:
            w.add_histogram("w", np.arange(10.0), step, walltime=writers.WALL0)
        if step == 7:
            w.add_text("note", "hi", step, walltime=writers.WALL0)
    w.close()
    (path,) = writers.event_files(str(directory))
    return Path(path).read_bytes()


def _scalars_of(data: bytes, spans: list[tuple[int, int]]) -> list[tuple[str, int, float]]:
    """Scalar points of the given records, decoded by TensorBoard's own Event class."""
    from tensorboard.compat.proto.event_pb2 import Event

    out = []
    for start, end in spans:
        event = Event.FromString(data[start + 12 : end - 4])
        out += [
            (v.tag, event.step, v.simple_value)
            for v in event.summary.value
            if v.WhichOneof("value") == "simple_value"
        ]
    return out


def _points(exp: Experiment) -> list[tuple[str, int, float]]:
    s = exp.scalars
    return list(zip(s["tag"].astype(str), s["step"].tolist(), s["value"].tolist(), strict=True))


def _load(
    logdir: Path | str, decoder: str = "numpy"
) -> tuple[Experiment, list[warnings.WarningMessage]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        exp = Experiment(str(logdir), progress=False, decoder=decoder)
    return exp, list(caught)


def _only_tbnb(caught: list[warnings.WarningMessage]) -> list[warnings.WarningMessage]:
    for w in caught:
        assert issubclass(w.category, TbnbWarning), f"{w.category.__name__}: {w.message}"
    return caught


def _scalar_record(data: bytes, spans: list[tuple[int, int]], k: int = 4) -> int:
    """Index of the ``k``-th record holding a scalar."""
    with_scalars = [i for i, span in enumerate(spans) if _scalars_of(data, [span])]
    return with_scalars[k]


def test_empty_file_and_header_only(tmp_path: Path, torch_bytes: bytes) -> None:
    spans = writers.record_spans(torch_bytes)
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / FILE).write_bytes(b"")
    (tmp_path / "header").mkdir()
    (tmp_path / "header" / FILE).write_bytes(torch_bytes[: spans[0][1]])
    exp, caught = _load(tmp_path)
    assert caught == []
    assert exp.runs == ["empty", "header"]
    assert len(exp.scalars) == 0
    meta = exp.metadata
    assert meta.loc["header", "file_version"] == "brain.Event:2"
    assert meta.loc["header", "records"] == 1
    assert meta.loc["empty", "records"] == 0
    assert exp.reload().changed is False


@pytest.mark.parametrize("where", ["mid-header", "after-header", "mid-data", "mid-footer"])
@pytest.mark.parametrize("decoder", ["numpy", "native", "protobuf"])
def test_truncated_tail_then_appended(
    tmp_path: Path, torch_bytes: bytes, where: str, decoder: str
) -> None:
    spans = writers.record_spans(torch_bytes)
    k = _scalar_record(torch_bytes, spans)
    start, end = spans[k]
    cut = {
        "mid-header": start + 5,
        "after-header": start + 12,
        "mid-data": start + 15,
        "mid-footer": end - 2,
    }[where]
    path = tmp_path / FILE
    path.write_bytes(torch_bytes[:cut])
    exp, caught = _load(tmp_path, decoder)
    assert caught == []  # a truncated tail is a file still being written, not an error
    assert _points(exp) == _scalars_of(torch_bytes, spans[:k])
    first = exp.scalars
    with path.open("ab") as f:
        f.write(torch_bytes[cut:])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        report = exp.reload()
    rest = _scalars_of(torch_bytes, spans[k:])
    assert report.scalars_added == len(rest)
    assert report.values_added == {"histograms": 1, "text": 1}
    assert report.new_files == []
    assert report.new_runs == []
    assert _points(exp) == _scalars_of(torch_bytes, spans)  # nothing twice, nothing lost
    assert len(first) == len(_scalars_of(torch_bytes, spans[:k]))  # earlier frame unchanged
    assert exp.reload().changed is False


def _flip(data: bytes, offset: int, mask: int = 0x01) -> bytes:
    out = bytearray(data)
    out[offset] ^= mask
    return bytes(out)


def _reframe(data: bytes, spans: list[tuple[int, int]], k: int, payload: bytes) -> bytes:
    start, end = spans[k]
    return data[:start] + writers.frame_record(payload) + data[end:]


def _damaged(data: bytes, spans: list[tuple[int, int]], k: int, kind: str) -> bytes:
    start, end = spans[k]
    if kind == "data_crc":
        return _flip(data, end - 1)
    if kind == "length_crc":
        return _flip(data, start + 9)
    if kind == "length":  # a length that no longer matches its CRC
        return _flip(data, start + 1, 0x10)
    if kind == "payload_bit":  # the CRC still checks: the payload itself is garbage
        payload = data[start + 12 : end - 4]
        assert payload[0] == 0x09  # field 1 (wall_time), fixed64
        return _reframe(data, spans, k, _flip(payload, 0, 0x06))  # wire type 7: invalid
    if kind == "payload_length":  # a length-delimited field running past the payload
        edited = bytearray(data[start + 12 : end - 4])
        summary_at = edited.index(0x2A)  # field 5 (summary), length-delimited
        edited[summary_at + 1] = 0x7F
        return _reframe(data, spans, k, bytes(edited))
    raise AssertionError(kind)


@pytest.mark.parametrize(
    ("kind", "category", "what"),
    [
        ("data_crc", CorruptRecordWarning, "bad data CRC"),
        ("length_crc", CorruptRecordWarning, "bad length CRC"),
        ("length", CorruptRecordWarning, "bad length CRC"),
        ("payload_bit", DataWarning, "unparseable"),
        ("payload_length", DataWarning, "unparseable"),
    ],
)
@pytest.mark.parametrize("decoder", ["numpy", "native", "protobuf"])
def test_one_damaged_record_is_skipped_and_named(
    tmp_path: Path, torch_bytes: bytes, kind: str, category: type[Warning], what: str, decoder: str
) -> None:
    spans = writers.record_spans(torch_bytes)
    k = _scalar_record(torch_bytes, spans)
    damaged = _damaged(torch_bytes, spans, k, kind)
    path = tmp_path / FILE
    path.write_bytes(damaged)
    exp, caught = _load(tmp_path, decoder)
    (warning,) = _only_tbnb(caught)  # one warning for the file
    assert warning.category is category
    message = str(warning.message)
    assert str(path) in message
    assert what in message
    assert f"offset {spans[k][0]}" in message
    # every other record, before and after, is kept
    assert _points(exp) == _scalars_of(torch_bytes, spans[:k] + spans[k + 1 :])
    assert len(exp.histograms) == 1
    assert len(exp.text) == 1
    assert exp.last_report.problems == [message]
    # a reload reads nothing new and does not report the problem again
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        report = exp.reload()
    assert not report.changed
    assert report.problems == []


def test_several_corruptions_in_one_file_give_one_warning(
    tmp_path: Path, torch_bytes: bytes
) -> None:
    spans = writers.record_spans(torch_bytes)
    damaged = torch_bytes
    hit = [_scalar_record(torch_bytes, spans, k) for k in (2, 6, 10)]
    for k, kind in zip(hit, ["data_crc", "length_crc", "data_crc"], strict=True):
        damaged = _damaged(damaged, spans, k, kind)
    (tmp_path / FILE).write_bytes(damaged)
    exp, caught = _load(tmp_path)
    (warning,) = _only_tbnb(caught)
    for k in hit:
        assert f"offset {spans[k][0]}" in str(warning.message)
    assert _points(exp) == _scalars_of(
        torch_bytes, [s for i, s in enumerate(spans) if i not in hit]
    )
    assert exp.metadata.loc[".", "corrupt_records"] == 3


def test_unverified_crc_still_reports_unparseable_payload(
    tmp_path: Path, torch_bytes: bytes
) -> None:
    spans = writers.record_spans(torch_bytes)
    k = _scalar_record(torch_bytes, spans)
    start, _ = spans[k]
    (tmp_path / FILE).write_bytes(_flip(torch_bytes, start + 12, 0x06))  # CRC now wrong too
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        exp = Experiment(str(tmp_path), progress=False, verify_crc=False)
    (warning,) = _only_tbnb(caught)
    assert warning.category is DataWarning
    assert f"offset {start}" in str(warning.message)
    assert _points(exp) == _scalars_of(torch_bytes, spans[:k] + spans[k + 1 :])


def test_text_file_named_like_an_event_file(tmp_path: Path, torch_bytes: bytes) -> None:
    (tmp_path / "notes").mkdir()
    text = tmp_path / "notes" / "events.out.tfevents.README.txt"
    text.write_text("This directory holds the logs of\nmy experiment.\n" * 20)
    (tmp_path / "good").mkdir()
    (tmp_path / "good" / FILE).write_bytes(torch_bytes)
    exp, caught = _load(tmp_path)
    (warning,) = _only_tbnb(caught)
    assert warning.category is CorruptRecordWarning
    assert str(text) in str(warning.message)
    assert _points(exp) == _scalars_of(torch_bytes, writers.record_spans(torch_bytes))
    assert exp.metadata.loc["notes", "records"] == 0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert not exp.reload().changed


def test_profile_placeholders_and_other_files_are_not_event_files(
    tmp_path: Path, torch_bytes: bytes
) -> None:
    (tmp_path / "plugins" / "profile").mkdir(parents=True)
    (tmp_path / "plugins" / "profile" / "events.out.tfevents.1.h.profile-empty").write_bytes(
        torch_bytes
    )
    (tmp_path / "events.json").write_text("{}")
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / FILE).write_bytes(torch_bytes)
    exp, caught = _load(tmp_path)
    assert caught == []
    assert exp.runs == ["run"]


class _DenyFileSystem(LocalFileSystem):  # type: ignore[misc]
    """A local filesystem that refuses to list directories named ``secret``."""

    protocol = ("tbnbdeny",)

    @classmethod
    def _strip_protocol(cls, path: Any) -> Any:
        text = str(path)
        return LocalFileSystem._strip_protocol(text.removeprefix("tbnbdeny://"))

    def ls(self, path: str, detail: bool = False, **kwargs: Any) -> Any:
        if path.rstrip("/").endswith("/secret"):
            raise PermissionError(13, "Permission denied", path)
        return super().ls(path, detail=detail, **kwargs)


def test_unreadable_subdirectory_is_skipped_with_a_warning(
    tmp_path: Path, torch_bytes: bytes
) -> None:
    for run in ("a", "deep/secret", "deep/secret/inner", "z"):
        (tmp_path / run).mkdir(parents=True)
        (tmp_path / run / FILE).write_bytes(torch_bytes)
    secret = tmp_path / "deep" / "secret"
    secret.chmod(0)
    try:
        try:
            os.listdir(secret)
            chmod_blocks = False  # running as root: chmod does not stop reads
        except PermissionError:
            chmod_blocks = True
        if chmod_blocks:
            exp, caught = _load(tmp_path)
        else:
            fsspec.register_implementation("tbnbdeny", _DenyFileSystem, clobber=True)
            exp, caught = _load(f"tbnbdeny://{tmp_path}")
    finally:
        secret.chmod(0o755)
    (warning,) = _only_tbnb(caught)
    assert warning.category is LogdirWarning
    assert str(secret) in str(warning.message)
    assert exp.runs == ["a", "z"]
    n = len(_scalars_of(torch_bytes, writers.record_spans(torch_bytes)))
    assert len(exp.scalars) == 2 * n


class _NoOpenFileSystem(LocalFileSystem):  # type: ignore[misc]
    """A local filesystem that refuses to open files under a directory named ``locked``."""

    protocol = ("tbnbnoopen",)

    @classmethod
    def _strip_protocol(cls, path: Any) -> Any:
        return LocalFileSystem._strip_protocol(str(path).removeprefix("tbnbnoopen://"))

    def _open(self, path: str, *args: Any, **kwargs: Any) -> Any:
        if "/locked/" in path:
            raise PermissionError(13, "Permission denied", path)
        return super()._open(path, *args, **kwargs)


def test_unreadable_file_is_skipped_with_a_warning(tmp_path: Path, torch_bytes: bytes) -> None:
    for run in ("locked", "ok"):
        (tmp_path / run).mkdir()
        (tmp_path / run / FILE).write_bytes(torch_bytes)
    fsspec.register_implementation("tbnbnoopen", _NoOpenFileSystem, clobber=True)
    exp, caught = _load(f"tbnbnoopen://{tmp_path}")
    (warning,) = _only_tbnb(caught)
    assert warning.category is LogdirWarning
    assert str(tmp_path / "locked" / FILE) in str(warning.message)
    assert set(exp.scalars["run"]) == {"ok"}


def test_record_claiming_a_huge_length_is_a_truncated_tail(
    tmp_path: Path, torch_bytes: bytes
) -> None:
    head = struct.pack("<Q", 1 << 40)
    bogus = head + struct.pack("<I", masked_crc32c(head)) + b"xyz"
    (tmp_path / FILE).write_bytes(torch_bytes + bogus)
    exp, caught = _load(tmp_path)
    assert caught == []
    assert _points(exp) == _scalars_of(torch_bytes, writers.record_spans(torch_bytes))


def test_missing_logdir_raises(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="nope"):
        Experiment(str(tmp_path / "nope"), progress=False)
    (tmp_path / "file").write_text("x")
    with pytest.raises(NotADirectoryError):
        Experiment(str(tmp_path / "file"), progress=False)


def test_logdir_without_event_files(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    exp, caught = _load(tmp_path)
    (warning,) = caught
    assert warning.category is EmptyResultWarning
    assert str(tmp_path) in str(warning.message)
    assert "holds no event files" in str(warning.message)
    assert "'sub'" in str(warning.message)
    assert exp.empty_reason == str(warning.message)
    assert exp.runs == []
    assert len(exp.scalars) == 0
    assert len(exp.histograms) == 0
    assert list(exp.scalars.columns) == ["run", "tag", "step", "wall_time", "value"]
    shutil.rmtree(tmp_path / "sub")


def test_unverified_data_crc_keeps_a_record_whose_crc_alone_is_wrong(
    tmp_path: Path, torch_bytes: bytes
) -> None:
    spans = writers.record_spans(torch_bytes)
    k = _scalar_record(torch_bytes, spans)
    (tmp_path / FILE).write_bytes(_damaged(torch_bytes, spans, k, "data_crc"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        exp = Experiment(str(tmp_path), progress=False, verify_crc=False)
    assert _points(exp) == _scalars_of(torch_bytes, spans)


def test_values_that_do_not_fit_their_kind_are_named_and_skipped(tmp_path: Path) -> None:
    from tensorboard.compat.proto import event_pb2, summary_pb2
    from tensorboard.plugins.histogram import metadata as histogram_metadata
    from tensorboard.plugins.pr_curve import metadata as pr_metadata
    from tensorboard.summary.writer.event_file_writer import EventFileWriter
    from tensorboard.util import tensor_util

    def value(tag: str, array: np.ndarray, meta: Any) -> Any:
        return summary_pb2.Summary.Value(
            tag=tag, tensor=tensor_util.make_tensor_proto(array), metadata=meta
        )

    w = EventFileWriter(str(tmp_path))
    bad = [
        value("hist", np.zeros((4, 2)), histogram_metadata.create_summary_metadata("", "")),
        value(
            "pr", np.zeros((5, 3), dtype=np.float32), pr_metadata.create_summary_metadata("", "", 3)
        ),
    ]
    good = summary_pb2.Summary.Value(tag="ok", simple_value=1.5)
    w.add_event(
        event_pb2.Event(step=3, wall_time=1.0, summary=summary_pb2.Summary(value=[*bad, good]))
    )
    w.close()
    (path,) = writers.event_files(str(tmp_path))
    exp, caught = _load(tmp_path)
    (warning,) = _only_tbnb(caught)
    assert warning.category is DataWarning
    message = str(warning.message)
    assert path in message
    assert "'hist'" in message
    assert "'pr'" in message
    assert "step 3" in message
    assert _points(exp) == [("ok", 3, 1.5)]
    assert len(exp.histograms) == 0
    assert len(exp.pr_curves) == 0
