"""tbnb.load: filters, fsspec URLs, executors, odd values and tags, restarts, files, blobs."""

from __future__ import annotations

import os
import shutil
import time
import warnings
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path

import fsspec
import numpy as np
import pandas as pd
import pytest

import tbnb
from tbnb._proto import Event, HistogramProto, SessionLog, Summary, SummaryMetadata, TensorProto
from tbnb.loader.experiment import Experiment
from tests import writers

KINDS = ("scalars", "histograms", "images", "audio", "text", "pr_curves", "tensors")


def _both(logdir: str | Path, **kwargs: object) -> Experiment:
    """Load with every decoder (numpy, native, protobuf only); check they agree;
    return the numpy one."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        loads = [
            Experiment(str(logdir), progress=False, decoder=decoder, **kwargs)  # type: ignore[arg-type]
            for decoder in ("numpy", "native", "protobuf")
        ]
    assert [exp.last_report.decoders for exp in loads] == [
        {"numpy"},
        {"native"},
        {"protobuf"},
    ]
    for other in loads[1:]:
        for kind in KINDS:
            writers.assert_frames_identical(getattr(loads[0], kind), getattr(other, kind))
    return loads[0]


def _event(step: int, *values: object, wall_time: float = writers.WALL0) -> Event:
    return Event(step=step, wall_time=wall_time, summary=Summary(value=list(values)))


def _scalar_meta() -> SummaryMetadata:
    meta = SummaryMetadata()
    meta.plugin_data.plugin_name = "scalars"
    return meta


def _tensor(dtype: int, **fields: object) -> TensorProto:
    tensor = TensorProto(dtype=dtype, **fields)
    tensor.tensor_shape.SetInParent()
    return tensor


# ------------------------------------------------------------------ filters


def test_run_tag_and_kind_filters() -> None:
    logdir = writers.cached("torch").logdir
    full = tbnb.load(logdir, progress=False)
    s = full.scalars.astype({"run": str, "tag": str})

    by_regex = _both(logdir, runs="^acc_")
    assert by_regex.runs == ["acc_train", "acc_val"]
    assert len(by_regex.scalars) == int(s["run"].str.startswith("acc_").sum())
    by_list = _both(logdir, runs=["acc_val", "missing"])
    assert by_list.runs == ["acc_val"]
    by_callable = _both(logdir, runs=lambda run: run.endswith("train"))
    assert by_callable.runs == ["acc_train"]

    tagged = _both(logdir, tags="loss$")
    assert set(tagged.scalars["tag"]) == {"train/loss"}
    assert len(tagged.scalars) == int((s["tag"] == "train/loss").sum())
    assert len(tagged.histograms) == 0
    assert len(tagged.images) == 0
    listed = _both(logdir, tags=["weights", "double"])
    assert set(listed.scalars["tag"]) == {"double"}
    assert set(listed.histograms["tag"]) == {"weights"}

    only = _both(logdir, event_types={"histograms", "text"})
    assert len(only.scalars) == 0
    assert len(only.images) == 0
    assert len(only.histograms) == len(full.histograms)
    assert len(only.text) == len(full.text)
    one = _both(logdir, event_types="scalars")
    pd.testing.assert_frame_equal(one.scalars, full.scalars)
    assert len(one.histograms) == 0


def test_bad_filters_raise_value_errors(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"runs='\(unclosed'"):
        tbnb.load(tmp_path, runs="(unclosed", progress=False)
    with pytest.raises(ValueError, match=r"tags='\[bad'"):
        tbnb.load(tmp_path, tags="[bad", progress=False)
    with pytest.raises(ValueError, match="scalar"):
        tbnb.load(tmp_path, event_types=["scalar"], progress=False)
    with pytest.raises(ValueError, match="nonsense"):
        tbnb.load(tmp_path, event_types="nonsense", progress=False)


# ------------------------------------------------------------------ where logs live, who reads


def test_memory_url_logdir_gives_the_same_frames() -> None:
    written = writers.cached("tensorboardX")
    fs = fsspec.filesystem("memory")
    root = f"/tbnb-test-{os.getpid()}-{time.monotonic_ns()}"
    for path in writers.event_files(written.logdir):
        fs.pipe(root + path[len(written.logdir) :], Path(path).read_bytes())
    try:
        remote = _both(f"memory://{root}")
        local = tbnb.load(written.logdir, progress=False)
        assert remote.runs == local.runs
        for kind in KINDS:
            a, b = getattr(remote, kind), getattr(local, kind)
            if "blob" in a.columns:
                assert [x.read() for x in a["blob"]] == [x.read() for x in b["blob"]]
                a, b = a.drop(columns="blob"), b.drop(columns="blob")
            writers.assert_frames_identical(a, b)
        pd.testing.assert_frame_equal(remote.hparams, local.hparams)
        fs.pipe(
            f"{root}/acc/new/events.out.tfevents.9.h",
            writers.frame_record(
                _event(1, Summary.Value(tag="x", simple_value=2.0)).SerializeToString()
            ),
        )
        report = remote.reload()
        assert report.new_runs == ["acc/new"]
        assert report.scalars_added == 1
    finally:
        fs.rm(root, recursive=True)


@pytest.mark.slow
def test_thread_and_process_executors_give_identical_frames() -> None:
    logdir = writers.cached("torch").logdir
    plain = tbnb.load(logdir, progress=False)
    with ThreadPoolExecutor(2) as threads:
        threaded = tbnb.load(logdir, executor=threads, progress=False)
    with ProcessPoolExecutor(2) as processes:
        spread = tbnb.load(logdir, executor=processes, progress=False)
    for exp in (threaded, spread):
        for kind in (*KINDS, "metadata", "hparams"):
            writers.assert_frames_identical(getattr(exp, kind), getattr(plain, kind))
        assert exp.images["blob"].iloc[0].read() == plain.images["blob"].iloc[0].read()


# ------------------------------------------------------------------ odd values, steps, tags


def test_several_values_of_several_kinds_in_one_event(tmp_path: Path) -> None:
    histo = HistogramProto(
        min=0.0,
        max=3.0,
        num=4,
        sum=6.0,
        sum_squares=14.0,
        bucket_limit=[1.0, 2.0, 3.0],
        bucket=[1, 2, 1],
    )
    values = [Summary.Value(tag=f"s{i}", simple_value=i / 4) for i in range(5)]
    values += [
        Summary.Value(tag="h", histo=histo),
        Summary.Value(tag="t2", tensor=_tensor(2, double_val=[1 / 3]), metadata=_scalar_meta()),
    ]
    writers.write_events(
        str(tmp_path / "events.out.tfevents.1.h"),
        [Event(wall_time=1.0, file_version="brain.Event:2"), _event(7, *values, wall_time=5.5)],
    )
    exp = _both(tmp_path)
    s = exp.scalars
    assert s["tag"].astype(str).tolist() == ["s0", "s1", "s2", "s3", "s4", "t2"]
    assert s["value"].tolist() == [0.0, 0.25, 0.5, 0.75, 1.0, 1 / 3]
    assert set(s["step"]) == {7}
    assert set(s["wall_time"]) == {5.5}
    (row,) = exp.histograms.to_dict("records")
    np.testing.assert_array_equal(row["edges"], [0.0, 1.0, 2.0, 3.0])
    np.testing.assert_array_equal(row["counts"], [1.0, 2.0, 1.0])
    assert row["step"] == 7


@pytest.mark.parametrize("step", [-1, -(2**40), 0, 2**31, 2**40, 2**62])
def test_extreme_steps(tmp_path: Path, step: int) -> None:
    writers.write_events(
        str(tmp_path / "events.out.tfevents.1.h"),
        [
            _event(step, Summary.Value(tag="a", simple_value=1.5)),
            _event(
                step,
                Summary.Value(tag="b", tensor=_tensor(1, float_val=[2.5]), metadata=_scalar_meta()),
            ),
            _event(
                step,
                Summary.Value(
                    tag="c",
                    histo=HistogramProto(min=0, max=1, num=1, bucket_limit=[1.0], bucket=[1.0]),
                ),
            ),
        ],
    )
    exp = _both(tmp_path)
    assert exp.scalars["step"].tolist() == [step, step]
    assert exp.histograms["step"].tolist() == [step]


def test_negative_and_huge_steps_from_real_writers(tmp_path: Path) -> None:
    from tensorboardX import SummaryWriter

    w = SummaryWriter(str(tmp_path))
    for step in (-5, 0, 2**40, 2**40 + 1):
        w.add_scalar("x", step / 2**40, step)
    w.close()
    exp = _both(tmp_path)
    assert exp.scalars["step"].tolist() == [-5, 0, 2**40, 2**40 + 1]
    assert exp.scalars["value"].tolist() == [
        writers.f32(s / 2**40) for s in (-5, 0, 2**40, 2**40 + 1)
    ]


def test_unicode_space_and_newline_tags(tmp_path: Path) -> None:
    # tensorboard's EventFileWriter keeps tags verbatim (tensorboardX would sanitise them)
    from tensorboard.compat.proto import event_pb2, summary_pb2
    from tensorboard.plugins.scalar.summary_v2 import scalar_pb
    from tensorboard.summary.writer.event_file_writer import EventFileWriter

    tags = [
        "ünïcödé/λ",
        "with space",
        "new\nline",
        "emoji 🚀",
        "tab\there",
        "",
        "日本語/損失",
        " leading",
        "trailing ",
    ]
    w = EventFileWriter(str(tmp_path))
    for i, tag in enumerate(tags):
        legacy = summary_pb2.Summary(value=[summary_pb2.Summary.Value(tag=tag, simple_value=i)])
        w.add_event(event_pb2.Event(step=i, wall_time=1.0, summary=legacy))
        w.add_event(event_pb2.Event(step=i, wall_time=1.0, summary=scalar_pb(f"{tag}\n2", -i)))
    w.close()
    exp = _both(tmp_path)
    expected = [t for tag in tags for t in (tag, f"{tag}\n2")]
    assert exp.scalars["tag"].astype(str).tolist() == expected
    assert list(exp.scalars["tag"].cat.categories) == expected
    assert exp.scalars["value"].tolist() == [v for i in range(len(tags)) for v in (i, -i)]
    picked = _both(tmp_path, tags=["new\nline", "emoji 🚀\n2"])
    assert picked.scalars["tag"].astype(str).tolist() == ["new\nline", "emoji 🚀\n2"]
    assert list(picked.scalars["tag"].cat.categories) == ["new\nline", "emoji 🚀\n2"]


def test_nan_inf_and_extreme_values(tmp_path: Path) -> None:
    specials = [float("nan"), float("inf"), -float("inf"), 1e300, -1e300, 5e-324, -0.0]
    events = [
        _event(
            i,
            Summary.Value(
                tag="d",
                tensor=_tensor(2, double_val=[v]),
                metadata=_scalar_meta() if i == 0 else None,
            ),
        )
        for i, v in enumerate(specials)
    ]
    events += [
        _event(i, Summary.Value(tag="f", simple_value=v))
        for i, v in enumerate([float("nan"), float("inf"), -float("inf"), 3.4e38])
    ]
    writers.write_events(str(tmp_path / "events.out.tfevents.1.h"), events)
    exp = _both(tmp_path)
    d = exp.scalars.query("tag == 'd'")["value"].to_numpy()
    assert np.isnan(d[0])
    assert d[1:].tolist() == specials[1:]
    assert np.signbit(d[-1])
    f = exp.scalars.query("tag == 'f'")["value"].to_numpy()
    assert np.isnan(f[0])
    assert f[1:].tolist() == [np.inf, -np.inf, writers.f32(3.4e38)]


def test_tensors_that_are_not_scalars(tmp_path: Path) -> None:
    custom = SummaryMetadata()
    custom.plugin_data.plugin_name = "my_plugin"
    matrix = TensorProto(dtype=3, int_val=[1, 2, 3, 4, 5, 6])
    for size in (2, 3):
        matrix.tensor_shape.dim.add(size=size)
    writers.write_events(
        str(tmp_path / "events.out.tfevents.1.h"),
        [
            _event(0, Summary.Value(tag="m", tensor=matrix, metadata=custom)),
            _event(1, Summary.Value(tag="m", tensor=matrix)),
            # a rank-0 float tensor with no scalars metadata is a tensor, as in TensorBoard
            _event(2, Summary.Value(tag="bare", tensor=_tensor(1, float_val=[0.5]))),
        ],
    )
    exp = _both(tmp_path)
    assert len(exp.scalars) == 0
    t = exp.tensors
    assert t["tag"].astype(str).tolist() == ["m", "m", "bare"]
    assert t["plugin"].tolist() == ["my_plugin", "my_plugin", ""]
    np.testing.assert_array_equal(t["value"].iloc[0], [[1, 2, 3], [4, 5, 6]])
    assert t["value"].iloc[0].dtype == np.int32
    assert t["shape"].tolist() == [(2, 3), (2, 3), ()]
    assert t["dtype"].tolist() == ["int32", "int32", "float32"]
    assert t["value"].iloc[2] == np.float32(0.5)


# ------------------------------------------------------------------ restarts and files


def _torch_run(logdir: Path, steps: range, purge_step: int | None = None, sign: int = 1) -> None:
    from torch.utils.tensorboard import SummaryWriter

    w = SummaryWriter(str(logdir), purge_step=purge_step)
    for step in steps:
        w.add_scalar("a", sign * step, step)
        w.add_scalar("b", sign * (100 + step), step)
        w.add_histogram("h", np.arange(3.0) * sign + step, step)
        w.add_text("t", f"{sign}:{step}", step)
        w.add_image("i", writers.image_chw(step), step)
    w.close()


def _check_restarted(exp: Experiment) -> None:
    s = exp.scalars.astype({"tag": str})
    for tag, base in (("a", 0), ("b", 100)):
        series = s[s["tag"] == tag]
        assert series["step"].tolist() == list(range(10))
        assert series["value"].tolist() == [base + i for i in range(6)] + [
            -(base + i) for i in range(6, 10)
        ]
    for kind in ("histograms", "text", "images"):
        frame = getattr(exp, kind)
        assert frame["step"].tolist() == list(range(10)), kind
    assert exp.text["text"].tolist() == [f"1:{i}" for i in range(6)] + [
        f"-1:{i}" for i in range(6, 10)
    ]


def _next_second() -> None:
    """Writers name files by the second; make the next file sort after the last."""
    time.sleep(1.05 - time.time() % 1)


@pytest.mark.slow
def test_restart_with_purge_step_drops_later_points(tmp_path: Path) -> None:
    _torch_run(tmp_path, range(12))
    _next_second()
    _torch_run(tmp_path, range(6, 10), purge_step=6, sign=-1)
    assert len(writers.event_files(str(tmp_path))) == 2
    _check_restarted(_both(tmp_path))


@pytest.mark.slow
def test_restart_arriving_on_reload_purges_what_was_loaded(tmp_path: Path) -> None:
    _torch_run(tmp_path, range(12))
    exp = tbnb.load(tmp_path, progress=False)
    scalars_before, hist_before = exp.scalars, exp.histograms
    _next_second()
    _torch_run(tmp_path, range(6, 10), purge_step=6, sign=-1)
    report = exp.reload()
    # 6 steps (6..11) of a, b, h, t, i dropped
    assert report.points_purged == 6 * 5
    assert report.scalars_added == 8
    _check_restarted(exp)
    assert len(scalars_before) == 24  # frames handed out earlier are untouched
    assert len(hist_before) == 12


def test_session_start_within_one_file(tmp_path: Path) -> None:
    events = [_event(s, Summary.Value(tag="x", simple_value=float(s))) for s in range(5)]
    events.append(Event(step=2, wall_time=9.0, session_log=SessionLog(status=SessionLog.START)))
    events += [_event(s, Summary.Value(tag="x", simple_value=-float(s))) for s in range(2, 4)]
    # a later START at a step above every point drops nothing
    events.append(Event(step=50, wall_time=9.0, session_log=SessionLog(status=SessionLog.START)))
    writers.write_events(str(tmp_path / "events.out.tfevents.1.h"), events)
    exp = _both(tmp_path)
    assert exp.scalars["step"].tolist() == [0, 1, 2, 3]
    assert exp.scalars["value"].tolist() == [0.0, 1.0, -2.0, -3.0]


def test_two_files_in_one_run_are_one_stream_in_name_order(tmp_path: Path) -> None:
    # TF2 writes a tag's metadata on its first event only: the second file's tensor
    # scalars are scalars only because the first file (earlier in name order) said so
    first = [
        _event(
            s,
            Summary.Value(
                tag="loss",
                tensor=_tensor(1, float_val=[s / 2]),
                metadata=_scalar_meta() if s == 0 else None,
            ),
        )
        for s in range(3)
    ]
    second = [
        _event(s, Summary.Value(tag="loss", tensor=_tensor(1, float_val=[s / 2])))
        for s in range(3, 6)
    ]
    writers.write_events(str(tmp_path / "events.out.tfevents.1700000001.h.v2"), second)
    writers.write_events(str(tmp_path / "events.out.tfevents.1700000000.h.v2"), first)
    exp = _both(tmp_path)
    assert exp.scalars["step"].tolist() == list(range(6))
    assert exp.scalars["value"].tolist() == [s / 2 for s in range(6)]
    assert len(exp.tensors) == 0
    assert exp.metadata.loc[".", "files"] == 2


def test_metadata_learned_on_load_applies_to_later_reloads(tmp_path: Path) -> None:
    path = tmp_path / "events.out.tfevents.1.h.v2"
    writers.write_events(
        str(path),
        [
            _event(
                0,
                Summary.Value(
                    tag="loss", tensor=_tensor(1, float_val=[1.0]), metadata=_scalar_meta()
                ),
            )
        ],
    )
    exp = tbnb.load(tmp_path, progress=False)
    with path.open("ab") as f:
        f.write(
            writers.frame_record(
                _event(
                    1, Summary.Value(tag="loss", tensor=_tensor(1, float_val=[0.5]))
                ).SerializeToString()
            )
        )
    _next_second()
    writers.write_events(
        str(tmp_path / "events.out.tfevents.2.h.v2"),
        [_event(2, Summary.Value(tag="loss", tensor=_tensor(1, float_val=[0.25])))],
    )
    report = exp.reload()
    assert report.scalars_added == 2
    assert exp.scalars["value"].tolist() == [1.0, 0.5, 0.25]
    assert len(exp.tensors) == 0


# ------------------------------------------------------------------ big blobs


def test_three_megabyte_image_is_loaded_lazily(tmp_path: Path) -> None:
    from tensorboardX import SummaryWriter

    noise = np.random.default_rng(0).integers(0, 256, (3, 1000, 1000), dtype=np.uint8)
    w = SummaryWriter(str(tmp_path))
    w.add_image("noise", noise, 0)
    w.add_scalar("after", 1.0, 1)
    w.close()
    exp = _both(tmp_path)
    assert exp.scalars["value"].tolist() == [1.0]
    (row,) = exp.images.to_dict("records")
    assert row["nbytes"] > 3_000_000
    assert (row["width"], row["height"]) == (1000, 1000)
    blob = row["blob"]
    assert not any(isinstance(v, bytes | bytearray) for v in vars(blob).values())
    assert exp.images.memory_usage(deep=True).sum() < 100_000
    data = blob.read()
    assert len(data) == row["nbytes"]
    np.testing.assert_array_equal(writers.decode_png(data), noise.transpose(1, 2, 0))
    np.testing.assert_array_equal(blob.to_numpy(), noise.transpose(1, 2, 0))


def test_load_accepts_pathlike_and_reports(tmp_path: Path) -> None:
    src = writers.cached("keras").logdir
    dst = shutil.copytree(src, tmp_path / "copy")
    exp = tbnb.load(Path(dst), progress=False)
    report = exp.last_report
    assert report.new_runs == ["train", "validation"]
    assert len(report.new_files) == 2
    assert report.scalars_added == len(exp.scalars) == 16
    assert report.values_added == {"histograms": 4}
    assert report.bytes_read == sum([os.path.getsize(p) for p in writers.event_files(str(dst))])
    assert "16 scalar points" in str(report)
    assert repr(exp).startswith("<tbnb.Experiment")


def test_host_is_read_from_file_names_with_a_suffix(tmp_path: Path) -> None:
    import socket

    from torch.utils.tensorboard import SummaryWriter

    w = SummaryWriter(str(tmp_path), filename_suffix=".my_run")
    w.add_scalar("x", 1.0, 0)
    w.close()
    (path,) = writers.event_files(str(tmp_path))
    assert path.endswith(".my_run")
    assert tbnb.load(tmp_path, progress=False).metadata.loc[".", "host"] == socket.gethostname()


def test_small_read_windows_give_the_same_frames(monkeypatch: pytest.MonkeyPatch) -> None:
    import tbnb.loader.run

    logdir = writers.cached("tensorboardX").logdir
    whole = tbnb.load(logdir, progress=False)
    for window in (16, 333):  # records straddle every window boundary
        monkeypatch.setattr(tbnb.loader.run, "WINDOW", window)
        exp = _both(logdir)
        for kind in (*KINDS, "metadata"):
            writers.assert_frames_identical(getattr(exp, kind), getattr(whole, kind))


@pytest.mark.filterwarnings("ignore:`torch.jit.trace:DeprecationWarning")
def test_graphs_are_listed_and_filtered_by_event_type(tmp_path: Path) -> None:
    import torch
    from torch.utils.tensorboard import SummaryWriter

    w = SummaryWriter(str(tmp_path))
    w.add_graph(torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.ReLU()), torch.zeros(1, 3))
    w.add_scalar("x", 1.0, 0)
    w.close()
    exp = _both(tmp_path)
    graphs = exp.graphs
    assert graphs["kind"].tolist() == ["graph_def", "tagged_run_metadata"]
    assert graphs["nbytes"].iloc[0] > 100
    assert len(_both(tmp_path, event_types={"scalars"}).graphs) == 0
    only = _both(tmp_path, event_types={"graphs"})
    assert len(only.graphs) == 2
    assert len(only.scalars) == 0


def test_progress_bar_shows_when_asked(capsys: pytest.CaptureFixture[str]) -> None:
    logdir = writers.cached("keras").logdir
    tbnb.load(logdir, progress=True)
    assert "tbnb.load" in capsys.readouterr().err
    tbnb.load(logdir, progress=False)
    assert "tbnb.load" not in capsys.readouterr().err


def test_storage_options_reach_the_filesystem(tmp_path: Path) -> None:
    from fsspec.implementations.local import LocalFileSystem

    class OptionsFileSystem(LocalFileSystem):  # type: ignore[misc]
        protocol = ("tbnbopts",)

        @classmethod
        def _strip_protocol(cls, path: object) -> str:
            return str(LocalFileSystem._strip_protocol(str(path).removeprefix("tbnbopts://")))

    fsspec.register_implementation("tbnbopts", OptionsFileSystem, clobber=True)
    shutil.copytree(writers.cached("keras").logdir, tmp_path / "logs")
    exp = tbnb.load(
        f"tbnbopts://{tmp_path}/logs", storage_options={"token": "secret-1"}, progress=False
    )
    assert isinstance(exp.fs, OptionsFileSystem)
    assert exp.fs.storage_options == {"token": "secret-1"}
    assert exp.runs == ["train", "validation"]
    assert len(exp.scalars) == 16


def test_each_decoder_runs_what_it_says(monkeypatch: pytest.MonkeyPatch) -> None:
    from tbnb.loader import window_decode

    calls: list[str] = []
    original = window_decode.decode_events

    def counting(*args: object, kernels: str = "numpy") -> object:
        calls.append(kernels)
        return original(*args, kernels=kernels)  # type: ignore[arg-type]

    monkeypatch.setattr(window_decode, "decode_events", counting)
    logdir = writers.cached("keras").logdir
    assert tbnb.load(logdir, progress=False).last_report.decoders == {"native"}  # auto
    assert calls
    assert set(calls) == {"native"}
    calls.clear()
    for decoder, kernels in (("numpy", "numpy"), ("native", "native")):
        Experiment(logdir, progress=False, decoder=decoder)
        assert calls
        assert set(calls) == {kernels}
        calls.clear()
    Experiment(logdir, progress=False, decoder="protobuf")
    assert not calls
