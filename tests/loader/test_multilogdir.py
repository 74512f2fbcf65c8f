"""Several logdirs in one experiment (TensorBoard's ``--logdir_spec``): every kind equals each
logdir loaded alone with its runs named ``name/run``, and TensorBoard's own multiplexer
given the same names; clashing names fail before anything is read; an unreadable logdir
warns, naming it, and the others load."""

from __future__ import annotations

import json
import os
import shutil
import uuid
import warnings
from collections.abc import Iterator, Mapping
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import fsspec
import numpy as np
import pandas as pd
import pytest
from fsspec.implementations.local import LocalFileSystem
from fsspec.implementations.memory import MemoryFileSystem

import tbnb
from tbnb.io.logdir import qualified_run
from tbnb.kinds import KINDS
from tbnb.notebook.export import read_page
from tbnb.warnings import EmptyResultWarning, LogdirWarning
from tests import writers, writers_meshes
from tests.writers_profile import write_torch_profile

SMALL = tbnb.samples.SampleSpec(
    learning_rates=(0.01,), seeds=(0, 1), steps=30, val_every=10, hist_every=10, image_steps=(0,)
)


@pytest.fixture(scope="module")
def logdirs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """Two logdirs by two writers, every kind each writes: torch's (with a profiled run
    and meshes) on disk, tensorboardX's (the sample sweep, every kind of the pytorch-style
    writer, meshes) on disk and copied to ``memory://``, standing in for a bucket."""
    base = tmp_path_factory.mktemp("multilogdir")
    torch_dir, tbx_dir = base / "exp_torch" / "runs", base / "exp_tbx" / "runs"
    writers.write_torch(str(torch_dir))
    write_torch_profile(torch_dir)
    writers_meshes.write_torch(str(torch_dir / "meshes"))
    tbnb.samples.write_sample(tbx_dir, SMALL)
    writers.write_tbx(str(tbx_dir / "writer"))
    writers_meshes.write_tbx(str(tbx_dir / "meshes"))
    memory = fsspec.filesystem("memory")
    bucket = f"/multilogdir-{uuid.uuid4().hex}/runs"
    memory.put(str(tbx_dir), bucket, recursive=True)
    yield {"torch": str(torch_dir), "tbx": str(tbx_dir), "remote": f"memory://{bucket}"}
    memory.rm(bucket.rsplit("/", 1)[0], recursive=True)


def _load(spec: Any, **kwargs: Any) -> tbnb.Experiment:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # each writer's own oddities, tested elsewhere
        return tbnb.load(spec, progress=False, **kwargs)


def _table(frame: Any) -> pd.DataFrame:
    """A kind's frame as a table (a profile set: its traces)."""
    return frame.traces if isinstance(frame, tbnb.ProfileSet) else frame


def _prefixed(frame: pd.DataFrame, name: str) -> pd.DataFrame:
    """``frame`` of a logdir alone, its runs (and traces) named as in the experiment."""
    out = frame.copy()
    if out.index.name == "run":
        names = [qualified_run(name, str(r)) for r in out.index]
        out.index = pd.Index(names, name="run", dtype=out.index.dtype)
    for column in ("run", "trace"):
        if column in out.columns and len(out):
            out[column] = [qualified_run(name, str(v)) for v in out[column]]
    return out


def _by_run(frame: pd.DataFrame, columns: Any = None) -> pd.DataFrame:
    """Rows in one order (runs of several logdirs interleave when sorted by name)."""
    if frame.index.name == "run":
        return frame.sort_index(kind="stable")
    frame = frame.reset_index(drop=True)
    categories = [c for c in frame.columns if isinstance(frame[c].dtype, pd.CategoricalDtype)]
    frame = frame.astype(dict.fromkeys(categories, object))  # each load has its categories
    if "run" in frame.columns:
        frame = frame.iloc[np.argsort(frame["run"].to_numpy(), kind="stable")]
    return frame.reset_index(drop=True)


def _assert_kind_equal(key: str, together: Any, alone: dict[str, Any]) -> None:
    if isinstance(together, Mapping):  # custom scalars: run -> layout
        assert dict(together) == {
            qualified_run(name, run): layout
            for name, frame in alone.items()
            for run, layout in frame.items()
        }
        return
    parts = [_prefixed(_table(frame), name) for name, frame in alone.items()]
    expected = pd.concat(  # an empty part would make every column's dtype object
        [p for p in parts if len(p)] or parts, ignore_index=_table(together).index.name != "run"
    )
    got = _table(together)
    if key in ("hparams", "custom_scalars") and got.index.name != "run":
        got, expected = got.reset_index(drop=True), expected.reset_index(drop=True)
    got, expected = _by_run(got), _by_run(expected)
    if isinstance(got.columns, pd.MultiIndex) or got.index.name == "run":
        pd.testing.assert_frame_equal(
            got, expected[got.columns], check_dtype=False, check_index_type=False, obj=key
        )
    else:
        writers.assert_frames_identical(got, expected)


def test_every_kind_equals_each_logdir_alone_with_its_runs_prefixed(
    logdirs: dict[str, str],
) -> None:
    spec = {"torch": logdirs["torch"], "tbx": logdirs["remote"]}
    together = _load(spec)
    alone = {name: _load(path) for name, path in spec.items()}
    assert together.logdirs == spec
    assert together.runs == sorted(r for name, exp in alone.items() for r in _names(exp, name))
    assert together.subruns == {
        qualified_run(name, sub): qualified_run(name, parent)
        for name, exp in alone.items()
        for sub, parent in exp.subruns.items()
    }
    present = set()
    for key in KINDS:
        frames = {name: exp.frame(key) for name, exp in alone.items()}
        if any(len(_table(f)) for f in frames.values()):
            present.add(key)
        _assert_kind_equal(key, together.frame(key), frames)
    # every kind the two writers write was compared with something in it
    assert present >= {
        "scalars", "custom_scalars", "hparams", "histograms", "distributions", "images",
        "audio", "text", "pr_curves", "meshes", "embeddings", "profile", "graphs",
        "metadata",
    }  # fmt: skip
    # a value read later from the files (a blob, an embedding, a trace) comes from the
    # right filesystem through the experiment's one ``fs``
    vectors, _ = together.embedding("val/features", run="tbx/lr=0.01,seed=0")
    assert vectors.shape[0] > 0
    assert np.array_equal(vectors, alone["tbx"].embedding("val/features", run="lr=0.01,seed=0")[0])
    image = together.images.query("run.str.startswith('torch')").iloc[0]["blob"]
    first = alone["torch"].images.iloc[0]["blob"]
    assert image.read() == first.read()
    assert len(image.read()) > 0
    trace = together.profile.trace("torch/cpu_mlp")
    assert len(trace.events) == len(alone["torch"].profile.trace("cpu_mlp").events) > 0
    info = together.info
    for run in together.runs:
        assert info.loc[run, ("run", "logdir")] == spec[run.split("/")[0]]
    assert together.metadata["logdir"].to_dict() == info[("run", "logdir")].to_dict()


def _names(exp: tbnb.Experiment, name: str) -> list[str]:
    return [qualified_run(name, r) for r in exp.runs]


def test_a_list_names_each_logdir_by_the_shortest_distinct_ending(
    logdirs: dict[str, str],
) -> None:
    together = _load([logdirs["torch"], logdirs["tbx"]])
    assert together.logdirs == {"exp_torch/runs": logdirs["torch"], "exp_tbx/runs": logdirs["tbx"]}
    assert "exp_torch/runs/cpu_mlp" in together.runs
    assert together.logdir == f"exp_torch/runs={logdirs['torch']} exp_tbx/runs={logdirs['tbx']}"
    one = _load([logdirs["torch"], logdirs["remote"]])  # local and remote tell apart
    assert set(one.logdirs) == {"exp_torch/runs", logdirs["remote"].split("/")[-2] + "/runs"}


def test_equals_tensorboards_multiplexer_given_the_same_names(logdirs: dict[str, str]) -> None:
    """TensorBoard's ``--logdir_spec`` loads each path with ``AddRunsFromDirectory(path,
    name)``: runs ``name/run``, the logdir's own run ``name/.`` (tbnb: ``name``)."""
    from tensorboard.backend.event_processing import plugin_event_multiplexer as pem
    from tensorboard.util import tensor_util

    spec = {"torch": logdirs["torch"], "tbx": logdirs["tbx"]}
    mux = pem.EventMultiplexer()
    for name, path in spec.items():
        mux.AddRunsFromDirectory(path, name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mux.Reload()
    theirs = []
    for run, tags in mux.Runs().items():
        ours = run.removesuffix("/.")
        for tag in tags.get("tensors", []):
            if mux.SummaryMetadata(run, tag).plugin_data.plugin_name != "scalars":
                continue
            for e in mux.Tensors(run, tag):
                value = float(tensor_util.make_ndarray(e.tensor_proto))
                theirs.append((ours, tag, e.step, value))
    together = _load(spec)
    assert sorted(r.removesuffix("/.") for r in mux.Runs()) == together.all_runs
    frame = together.scalars
    ours_points = zip(
        frame["run"].astype(str), frame["tag"].astype(str), frame["step"], frame["value"],
        strict=True,
    )  # fmt: skip
    assert sorted(ours_points) == sorted(theirs)
    assert len(theirs) > 100


def test_names_that_clash_or_cannot_prefix_a_run_fail_before_anything_is_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tbnb.loader import logdirs as module

    def no_reading(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a logdir was opened")

    monkeypatch.setattr(module, "open_logdir", no_reading)
    cases = {
        "clash": ({"a": "x", "a/b": "y"}, r"names 'a' and 'a/b' clash"),
        "empty": ({"": "x", "b": "y"}, r"name '' cannot prefix run names: it is empty"),
        "dots": ({"a/../b": "x"}, r"holds a '\.' or '\.\.' folder"),
        "slash": ({"/a": "x"}, r"starts or ends with '/'"),
        "control": ({"a\nb": "x"}, r"control or invisible character"),
        "bidi": ({"a\u202eb": "x"}, r"control or invisible character"),
        "twice": (["runs/a", "runs/a/"], r"logdir 'runs/a/' is given twice"),
        "alike": (["s3://b/runs", "gs://b/runs"], r"cannot be told from the others"),
        "none": ({}, r"no logdir given"),
    }
    for case, (spec, message) in cases.items():
        with pytest.raises(ValueError, match=message):
            tbnb.load(spec)
        print(case, "refused")
    with pytest.raises(TypeError, match=r"logdir 'a' must be a path or URL, got 3"):
        tbnb.load({"a": 3})


class _DeniedFileSystem(MemoryFileSystem):  # type: ignore[misc]
    """A bucket whose credentials are refused (as botocore refuses them)."""

    protocol = "tbnbdenied"
    root_marker = "/"

    @classmethod
    def _strip_protocol(cls, path: Any) -> str:
        return "/" + str(path).removeprefix("tbnbdenied://").strip("/")

    def exists(self, path: str, **kwargs: Any) -> bool:
        raise PermissionError("Access Denied")


def test_an_unreadable_logdir_warns_naming_it_and_the_others_load(
    logdirs: dict[str, str], tmp_path: Path
) -> None:
    fsspec.register_implementation("tbnbdenied", _DeniedFileSystem, clobber=True)
    (tmp_path / "empty").mkdir()
    (tmp_path / "a-file").write_text("not a logdir")
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "README.md").write_text("no runs here")
    spec = {
        "good": logdirs["torch"],
        "missing": str(tmp_path / "missing"),
        "file": str(tmp_path / "a-file"),
        "denied": "tbnbdenied://bucket/runs",
        "empty": str(tmp_path / "empty"),
        "notes": str(tmp_path / "notes"),
    }
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        exp = tbnb.load(spec, progress=False)
    said = [str(w.message) for w in caught if issubclass(w.category, LogdirWarning)]
    expected = {
        "missing": "does not exist",
        "file": "is not a directory",
        "denied": "PermissionError: Access Denied. Pass credentials",
        "empty": "is empty: no event files",
        "notes": "holds no event files (names containing 'tfevents'); it holds 'README.md'",
    }
    for name, why in expected.items():
        (message,) = [m for m in said if f"logdir {name!r} ({spec[name]!r})" in m]
        assert why in message, message
    assert {r.split("/")[0] for r in exp.runs} == {"good"}
    assert exp.empty_reason is None
    assert len(exp.scalars) == len(_load(logdirs["torch"]).scalars)
    assert not any(issubclass(w.category, EmptyResultWarning) for w in caught)
    # said again where the experiment is shown: its summary and the dashboard's header
    assert len(exp.logdir_problems) == len(expected)
    header = tbnb.Dashboard(exp).header_text
    summary = exp._repr_html_()
    for name in expected:
        assert f"logdir '{name}'" in header
        assert f"logdir &#x27;{name}&#x27;" in summary


def test_every_logdir_unreadable_says_why_in_empty_reason(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    spec = {"a": str(tmp_path / "missing"), "b": str(tmp_path / "empty")}
    with pytest.warns(EmptyResultWarning) as caught:
        exp = tbnb.load(spec, progress=False)
    reason = exp.empty_reason
    assert reason is not None
    assert reason in [str(w.message) for w in caught]
    assert reason.startswith("tbnb: none of the 2 logdirs holds a run")
    assert f"logdir 'a' ({spec['a']!r}) cannot be read" in reason
    assert f"logdir 'b' ({spec['b']!r}) is empty" in reason
    assert exp.runs == []
    assert len(exp.scalars) == 0
    assert len(exp.embeddings) == 0
    assert len(exp.profile) == 0
    assert "nothing to show" in tbnb.Dashboard(exp).header_text


def test_reload_reads_new_values_new_runs_and_a_logdir_created_later(
    logdirs: dict[str, str], tmp_path: Path
) -> None:
    from torch.utils.tensorboard import SummaryWriter

    a, b = tmp_path / "a", tmp_path / "b"
    shutil.copytree(logdirs["torch"], a)
    with pytest.warns(
        LogdirWarning, match=r"logdir 'b' .* cannot be read .*tried again on each reload"
    ):
        exp = tbnb.load({"a": str(a), "b": str(b)}, progress=False)
    heard = []
    exp.subscribe(heard.append)
    before = len(exp.scalars)
    with SummaryWriter(str(a / "later")) as w:
        w.add_scalar("loss", 1.0, 0)
    with SummaryWriter(str(b)) as w:
        for step in range(3):
            w.add_scalar("loss", 0.5, step)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nothing to warn about: b opens now
        report = exp.reload()
    assert sorted(report.new_runs) == ["a/later", "b"]
    assert len(exp.scalars) == before + 4
    assert heard
    assert heard[-1] is report
    assert exp.metadata.loc["b", "logdir"] == str(b)
    points = exp.scalars.query("run == 'b'")
    assert points["step"].tolist() == [0, 1, 2]
    assert exp.reload().changed is False


def test_filters_and_the_executor_work_on_the_prefixed_names(logdirs: dict[str, str]) -> None:
    spec = {"torch": logdirs["torch"], "tbx": logdirs["tbx"]}
    only = _load(spec, runs="^tbx/", tags="^train/")
    assert only.runs
    assert all(r.startswith("tbx/") for r in only.runs)
    assert set(only.scalars["tag"].astype(str)) == {"train/loss", "train/acc"}
    assert "torch" in only.excluded_runs  # with every run below it
    # the hparams sub-run of a kept run goes with it
    assert set(only.subruns.values()) <= set(only.runs)
    default = _load(spec)
    with ProcessPoolExecutor(2) as pool:
        pooled = _load(spec, executor=pool)
    writers.assert_frames_identical(pooled.scalars, default.scalars)
    writers.assert_frames_identical(pooled.histograms, default.histograms)


def test_the_dashboard_and_its_page_show_every_logdirs_runs(
    logdirs: dict[str, str], tmp_path: Path
) -> None:
    spec = {"torch": logdirs["torch"], "tbx": logdirs["remote"]}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        dash = tbnb.Dashboard(spec)
    try:
        runs = dash.selection.runs
        assert "torch" in runs
        assert "tbx/lr=0.01,seed=0" in runs
        header = dash.header_text
        assert f"torch={logdirs['torch']}" in header
        page = read_page(dash.to_html(tmp_path / "page.html").read_text(encoding="utf-8"))
    finally:
        dash.close()
    text = json.dumps(page["state"], default=repr)  # every view's state: run names travel as text
    assert "tbx/lr=0.01,seed=0" in text
    assert "torch/cpu_mlp" in text


def test_config_files_beside_each_logdirs_runs_are_read_from_their_logdir(
    tmp_path: Path,
) -> None:
    """Lightning writes ``hparams.yaml`` beside a run's events: ``exp.info`` and
    ``exp.hparams`` read it from the run's own logdir (one through ``memory://``), and a
    config linked out of its logdir is still refused."""
    from torch.utils.tensorboard import SummaryWriter

    memory = fsspec.filesystem("memory")
    bucket = f"/multilogdir-config-{uuid.uuid4().hex}"
    for name, lr in (("a", 0.1), ("b", 0.2)):
        run = tmp_path / name / "version_0"
        with SummaryWriter(str(run)) as w:
            w.add_scalar("loss", lr, 0)
        (run / "hparams.yaml").write_text(f"lr: {lr}\n")
    os.symlink(tmp_path / "outside.yaml", tmp_path / "a" / "version_0" / "config.yaml")
    (tmp_path / "outside.yaml").write_text("secret: 1\n")
    memory.put(str(tmp_path / "b"), bucket, recursive=True)
    try:
        exp = _load({"local": str(tmp_path / "a"), "remote": f"memory://{bucket}"})
        with pytest.warns(tbnb.warnings.DataWarning, match=r"config.yaml not read .*link leading"):
            info = exp.info
        lr = info[("config", "hparams.yaml: lr")]
        assert lr.to_dict() == {"local/version_0": 0.1, "remote/version_0": 0.2}
        assert ("config", "config.yaml: secret") not in info.columns
        assert exp.hparams["lr"].to_dict() == lr.to_dict()
    finally:
        memory.rm(bucket, recursive=True)


def test_summary_reader_reads_each_logdir_below_its_name(
    logdirs: dict[str, str], tmp_path: Path
) -> None:
    spec = {"torch": logdirs["torch"], "tbx": logdirs["remote"]}
    options = {"extra_columns": {"dir_name", "wall_time"}}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        together = tbnb.SummaryReader(spec, **options)
        alone = {name: tbnb.SummaryReader(path, **options) for name, path in sorted(spec.items())}
        for kind in ("scalars", "histograms", "text", "hparams"):
            parts = []
            for name, reader in alone.items():
                frame = getattr(reader, kind).copy()
                frame["dir_name"] = [qualified_run(name, d or ".") for d in frame["dir_name"]]
                parts.append(frame)
            expected = pd.concat(parts, ignore_index=True)
            pd.testing.assert_frame_equal(getattr(together, kind), expected, obj=kind)
            assert len(expected) > 0
    assert sorted(together.children) == ["tbx", "torch"]
    assert together.children["torch"].log_path == logdirs["torch"]
    with pytest.warns(LogdirWarning, match=r"logdir 'gone' .* not read .*not found"):
        partial = tbnb.SummaryReader({"torch": logdirs["torch"], "gone": str(tmp_path / "no")})
    assert len(partial.scalars) == len(alone["torch"].scalars)


class _OptionsFileSystem(LocalFileSystem):  # type: ignore[misc]
    """A local filesystem that keeps the options it was made with (credentials)."""

    protocol = ("tbnbmultiopts",)

    @classmethod
    def _strip_protocol(cls, path: object) -> str:
        return str(LocalFileSystem._strip_protocol(str(path).removeprefix("tbnbmultiopts://")))


def test_each_logdir_can_have_its_own_storage_options(logdirs: dict[str, str]) -> None:
    fsspec.register_implementation("tbnbmultiopts", _OptionsFileSystem, clobber=True)
    spec = {"a": f"tbnbmultiopts://{logdirs['torch']}", "b": f"tbnbmultiopts://{logdirs['tbx']}"}
    exp = _load(spec, storage_options={"a": {"token": "one"}, "b": {"token": "two"}})
    tokens = {m.name: m.fs.storage_options for m in exp.state.logdirs.members}
    assert tokens == {"a": {"token": "one"}, "b": {"token": "two"}}
    alone = _load(logdirs["tbx"])
    assert len(exp.scalars.query("run.str.startswith('b/') or run == 'b'")) == len(alone.scalars)
    shared = _load(spec, storage_options={"token": "both"})  # not keyed by name: for every one
    assert {m.fs.storage_options["token"] for m in shared.state.logdirs.members} == {"both"}
