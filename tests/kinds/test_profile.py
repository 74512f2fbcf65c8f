"""The profile kind on real traces: frames equal to sums written here from the raw files.

The GPU reference (torch.profiler ResNet-18 and JAX on an H100) and CPU traces written
by torch.profiler and jax.profiler in the test; every number is recomputed from the raw
JSON (or the XPlane's own Chrome export) by code independent of tbnb's.
"""

from __future__ import annotations

import gzip
import io
import itertools
import json
import re
import warnings
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import tbnb
from tbnb.kinds.profile import is_trace_file, list_traces, profile
from tbnb.kinds.profile.chrome import read_chrome
from tbnb.kinds.profile.stream import TraceJson
from tbnb.warnings import DataWarning
from tests.writers_profile import extract_gpu_traces, write_jax_profile, write_torch_profile


@pytest.fixture(scope="session")
def gpu_traces(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return extract_gpu_traces(tmp_path_factory.mktemp("gpu"))


@pytest.fixture(scope="session")
def torch_json(gpu_traces: Path) -> Path:
    (path,) = (gpu_traces / "torch" / "resnet18_bs32").glob("*.pt.trace.json")
    return path


@pytest.fixture(scope="session")
def cpu_logdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("torch")
    pytest.importorskip("jax")
    logdir = tmp_path_factory.mktemp("cpu_profiles")
    write_torch_profile(logdir)
    write_jax_profile(logdir)
    return logdir


def _raw(path: Path) -> dict[str, Any]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rb") as handle:
        return json.load(handle)


def _quiet_profile(path: Path) -> tbnb.ProfileSet:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataWarning)
        found = profile(path)
        for name in found.traces["trace"]:
            found.trace(name)
    return found


# ------------------------------------------------------------------ events frame
def test_torch_gpu_events_equal_the_raw_json(torch_json: Path) -> None:
    raw = [e for e in _raw(torch_json)["traceEvents"] if e.get("ph") == "X"]
    events = _quiet_profile(torch_json).trace(0).events
    assert len(events) == len(raw) == 10668 - 0
    assert Counter(events["category"].astype(str)) == Counter(e.get("cat", "") for e in raw)
    kernels = [e for e in raw if e.get("cat") == "kernel"]
    mine = events[events["kind"] == "kernel"]
    assert len(mine) == len(kernels) == 1124
    assert mine["dur"].sum() == pytest.approx(sum(e["dur"] for e in kernels), rel=1e-12)
    assert set(mine["correlation"]) == {e["args"]["correlation"] for e in kernels}
    assert set(mine["stream"]) == {7}
    assert set(mine["device"]) == {0}
    first = mine.iloc[0]
    raw_first = next(e for e in kernels if e["args"]["correlation"] == first["correlation"])
    assert first["grid"] == ",".join(map(str, raw_first["args"]["grid"]))
    assert first["registers"] == raw_first["args"]["registers per thread"]
    assert first["occupancy"] == raw_first["args"]["est. achieved occupancy %"]
    ops = [e for e in raw if e.get("cat") == "cpu_op" and "Input Dims" in e.get("args", {})]
    shown = events.loc[events["category"] == "cpu_op", "input_dims"].astype(str)
    assert set(shown) >= {str(e["args"]["Input Dims"]) for e in ops[:50]}


def test_torch_gpu_steps_and_kernels_per_step(torch_json: Path) -> None:
    raw = _raw(torch_json)["traceEvents"]
    steps = {
        int(e["name"].split("#")[1]): (e["ts"], e["ts"] + e["dur"])
        for e in raw
        if e.get("cat") == "user_annotation" and e["name"].startswith("ProfilerStep#")
    }
    runtime_step = {}
    for e in raw:
        if e.get("cat") in ("cuda_runtime", "cuda_driver") and "correlation" in e.get("args", {}):
            for number, (a, b) in steps.items():
                if a <= e["ts"] < b:
                    runtime_step[e["args"]["correlation"]] = number
    per_step: Counter[int] = Counter(
        runtime_step.get(e["args"]["correlation"], -1) for e in raw if e.get("cat") == "kernel"
    )
    events = _quiet_profile(torch_json).trace(0).events
    mine = Counter(events.loc[events["kind"] == "kernel", "step"].tolist())
    assert mine == per_step
    assert sorted(events.loc[events["kind"] == "step", "step"]) == [2, 3, 4]


def _independent_breakdown(raw: list[dict[str, Any]]) -> dict[int, dict[str, float]]:
    """The step breakdown by a plain sweep over the raw events, written for this test."""
    spans = [e for e in raw if e.get("ph") == "X"]
    steps = sorted(
        (e["ts"], e["ts"] + e["dur"], int(e["name"].split("#")[1]))
        for e in spans
        if e.get("cat") == "user_annotation" and e["name"].startswith("ProfilerStep#")
    )
    launch_ts = {
        e["args"]["correlation"]: e["ts"]
        for e in spans
        if e.get("cat") in ("cuda_runtime", "cuda_driver") and "correlation" in e.get("args", {})
    }
    classes: dict[str, list[tuple[float, float]]] = defaultdict(list)
    device_end: dict[int, float] = defaultdict(lambda: -np.inf)
    for e in spans:
        cat, a, b = e.get("cat"), e["ts"], e["ts"] + e["dur"]
        name = e["name"]
        if cat in ("kernel", "gpu_memcpy", "gpu_memset"):
            key = {"kernel": "kernel", "gpu_memcpy": "memcpy", "gpu_memset": "memset"}[cat]
            classes[key].append((a, b))
            at = launch_ts.get(e["args"].get("correlation"))
            for lo, hi, number in steps:
                if at is not None and lo <= at < hi:
                    device_end[number] = max(device_end[number], b)
        elif cat in ("cuda_runtime", "cuda_driver"):
            classes["runtime"].append((a, b))
        elif re.search("DataLoader", name) and cat in ("cpu_op", "user_annotation"):
            classes["data_loading"].append((a, b))
        elif cat == "cpu_op" or (cat == "user_annotation" and not name.startswith("ProfilerStep#")):
            classes["cpu"].append((a, b))
    windows = []
    previous_end = -np.inf
    for a, b, number in steps:
        start = max(a, previous_end)
        end = max(b, device_end[number], start)
        windows.append((start, end, number))
        previous_end = end
    order = ["kernel", "memcpy", "memset", "runtime", "data_loading", "cpu"]
    out = {}
    for start, end, number in windows:
        points = {start, end}
        for key in order:
            for a, b in classes[key]:
                if b > start and a < end:
                    points.update((max(a, start), min(b, end)))
        cuts = sorted(points)
        totals = dict.fromkeys([*order, "idle"], 0.0)
        for key in order:  # coverage counts at each segment's midpoint, per class
            deltas: dict[float, int] = defaultdict(int)
            for a, b in classes[key]:
                if b > start and a < end:
                    deltas[max(a, start)] += 1
                    deltas[min(b, end)] -= 1
            classes[f"_{key}"] = deltas  # type: ignore[assignment]
        active = dict.fromkeys(order, 0)
        for left, right in itertools.pairwise(cuts):
            for key in order:
                active[key] += classes[f"_{key}"].get(left, 0)  # type: ignore[attr-defined]
            owner = next((key for key in order if active[key] > 0), "idle")
            totals[owner] += right - left
        totals["duration"] = end - start
        out[number] = totals
    return out


def test_step_breakdown_equals_an_independent_sweep(torch_json: Path) -> None:
    expected = _independent_breakdown(_raw(torch_json)["traceEvents"])
    steps = _quiet_profile(torch_json).steps.set_index("step")
    assert sorted(steps.index) == sorted(expected) == [2, 3, 4]
    for number, totals in expected.items():
        row = steps.loc[number]
        for key, value in totals.items():
            assert row[key] == pytest.approx(value, abs=1e-3), (number, key)
        parts = ["kernel", "memcpy", "memset", "runtime", "data_loading", "cpu", "idle"]
        assert row[parts].sum() == pytest.approx(row["duration"], rel=1e-9)
    assert steps["kernel"].sum() > 20_000  # about 7.5 ms of kernels per step on the H100


def test_cpu_torch_profile_has_steps_data_loading_memory(cpu_logdir: Path) -> None:
    (path,) = (cpu_logdir / "cpu_mlp").glob("*.pt.trace.json")
    expected = _independent_breakdown(_raw(path)["traceEvents"])
    found = profile(path)
    with pytest.warns(DataWarning, match=r"pt\.trace\.json: no device activity"):
        found.trace(0)
    steps = found.steps.set_index("step")
    assert sorted(steps.index) == sorted(expected)
    assert len(expected) == 3
    for number, totals in expected.items():
        for key, value in totals.items():
            assert steps.loc[number, key] == pytest.approx(value, abs=1e-3), (number, key)
    assert (steps["data_loading"] > 0).all()
    assert (steps["kernel"] == 0).all()
    raw_memory = [e for e in _raw(path)["traceEvents"] if e.get("name") == "[memory]"]
    assert len(found.memory) == len(raw_memory) > 0
    assert found.memory["bytes"].sum() == sum(e["args"]["Bytes"] for e in raw_memory)


# ------------------------------------------------------------------ XPlane
def _same_spans(a: Any, b: Any) -> None:
    key = ["name", "start", "dur"]
    left = a[key].assign(name=a["name"].astype(str)).sort_values(key, ignore_index=True)
    right = b[key].assign(name=b["name"].astype(str)).sort_values(key, ignore_index=True)
    assert left["name"].tolist() == right["name"].tolist()
    np.testing.assert_allclose(left["start"], right["start"], atol=1e-3)
    np.testing.assert_allclose(left["dur"], right["dur"], atol=1e-3)


@pytest.mark.parametrize("where", ["gpu", "cpu"])
def test_xplane_equals_its_own_chrome_export(where: str, gpu_traces: Path, request: Any) -> None:
    root = gpu_traces / "jax" if where == "gpu" else request.getfixturevalue("cpu_logdir") / "jax"
    (xplane,) = root.rglob("*.xplane.pb")
    (export,) = root.rglob("*.trace.json.gz")
    mine = _quiet_profile(xplane).trace(0)
    theirs = _quiet_profile(export).trace(0)
    _same_spans(mine.events, theirs.events)
    assert Counter(mine.events["kind"].astype(str)) == Counter(theirs.events["kind"].astype(str))
    steps = mine.events[mine.events["kind"] == "step"]
    assert sorted(steps["step"]) == list(range(len(steps)))
    assert len(steps) >= 4
    if where == "gpu":
        kernels = mine.events[mine.events["kind"] == "kernel"]
        raw = [e for e in _raw(export)["traceEvents"] if e.get("pid") == 1 and e.get("ph") == "X"]
        raw_kernels = [e for e in raw if "kernel_details" in e.get("args", {})]
        assert len(kernels) == len(raw_kernels) == 25
        assert kernels["dur"].sum() == pytest.approx(sum(e["dur"] for e in raw_kernels), abs=1e-3)
        regs = {e["args"]["kernel_details"].split()[0] for e in raw_kernels}
        assert {f"regs:{int(r)}" for r in kernels["registers"]} == regs
        assert (kernels["step"] >= 0).sum() > 0


def test_a_session_reads_its_xplane_not_the_export(gpu_traces: Path) -> None:
    found = list_traces(tbnb.io.local.LocalFiles(), str(gpu_traces))
    assert found.traces[["run", "format"]].to_dict("list") == {
        "run": ["jax", "torch/resnet18_bs32"],
        "format": ["xplane", "chrome"],
    }
    assert found.traces["session"].tolist() == ["2026_11_27_13_41_57", ""]


# ------------------------------------------------------------------ HTA
def test_temporal_and_kernel_breakdown_equal_hta(torch_json: Path, tmp_path: Path) -> None:
    hta = pytest.importorskip("hta.trace_analysis")
    folder = tmp_path / "hta"
    folder.mkdir()
    (folder / "rank0.pt.trace.json").write_bytes(torch_json.read_bytes())
    import logging

    logging.getLogger("hta").setLevel(logging.ERROR)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        analysis = hta.TraceAnalysis(trace_dir=str(folder))
        temporal = analysis.get_temporal_breakdown(visualize=False).iloc[0]
        _types, per_kernel = analysis.get_gpu_kernel_breakdown(visualize=False, num_kernels=10_000)
        hta_df = analysis.t.get_trace(0)
    symbols = analysis.t.symbol_table.get_sym_table()
    hta_kernels = hta_df[hta_df["stream"].ne(-1)]
    # HTA keeps whole iterations only and rounds times to whole microseconds (start up,
    # end down): the same device events here, by correlation id, with the same rounding.
    events = _quiet_profile(torch_json).trace(0).events
    mine = events[
        events["correlation"].isin(set(hta_kernels["correlation"])) & (events["device"] >= 0)
    ]
    assert len(mine) == len(hta_kernels)
    from tbnb.analysis.profile.device import device_time, kernel_table

    start, end = np.ceil(mine["start"]), np.floor(mine["start"] + mine["dur"])
    rounded = mine.assign(start=start, dur=end - start)
    ours = device_time(rounded)
    assert ours["total"] == temporal["kernel_time(us)"]
    assert ours["idle"] == temporal["idle_time(us)"]
    assert ours["compute"] == temporal["compute_time(us)"]
    assert ours["non_compute"] == temporal["non_compute_time(us)"]
    table = kernel_table(rounded).set_index("name")
    theirs = per_kernel[per_kernel["name"] != "others"].set_index("name")
    names = {symbols[i] for i in hta_kernels["name"]}
    assert set(table.index) == names
    for name, row in theirs.iterrows():
        assert table.loc[name, "total"] == row["sum (us)"], name
        assert table.loc[name, "max"] == row["max (us)"], name


# ------------------------------------------------------------------ discovery
def test_exp_profile_attaches_traces_to_runs(cpu_logdir: Path) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataWarning)
        exp = tbnb.load(cpu_logdir, progress=False)
    assert exp.runs == ["cpu_mlp"]  # the jax run holds no event files
    traces = exp.profile.traces
    assert traces["run"].tolist() == ["cpu_mlp", "jax"]
    assert traces["format"].tolist() == ["chrome", "xplane"]
    assert exp.profile is exp.profile  # parsed once, until a reload finds something


def test_a_logdir_of_traces_only_is_not_empty(gpu_traces: Path) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        exp = tbnb.load(gpu_traces, progress=False)
    assert exp.empty_reason is None
    assert not [w for w in caught if "no event files" in str(w.message)]
    assert len(exp.profile) == 2


def test_traces_are_read_as_side_files(torch_json: Path, tmp_path: Path) -> None:
    """Regular files only, inside the logdir or their run's own folder: a link leading
    out is refused with a warning naming it (the other traces still read), a FIFO is
    never listed, a run that is a link to a folder elsewhere is read."""
    import os

    logdir, elsewhere = tmp_path / "logs", tmp_path / "elsewhere"
    (logdir / "good").mkdir(parents=True)
    (elsewhere / "linked_run").mkdir(parents=True)
    secret = tmp_path / "secret.json"
    secret.write_bytes(torch_json.read_bytes())
    (logdir / "good" / "w.1.pt.trace.json").write_bytes(torch_json.read_bytes())
    (logdir / "good" / "leak.1.pt.trace.json").symlink_to(secret)
    os.mkfifo(logdir / "good" / "pipe.1.pt.trace.json")
    (elsewhere / "linked_run" / "w.2.pt.trace.json").write_bytes(torch_json.read_bytes())
    (logdir / "linked_run").symlink_to(elsewhere / "linked_run")
    found = profile(logdir)
    assert found.traces["trace"].tolist() == ["good/leak.1", "good/w.1", "linked_run/w.2"]
    with pytest.warns(DataWarning, match=r"leak\.1\.pt\.trace\.json: resolves outside"):
        leak = found.trace("good/leak.1")
    assert len(leak.events) == 0
    assert "trace not read" in leak.problems[0]
    assert len(found.trace("good/w.1").events) == len(found.trace("linked_run/w.2").events) > 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataWarning)
        assert set(found.events["trace"]) == {"good/w.1", "linked_run/w.2"}


def test_trace_file_names() -> None:
    assert is_trace_file("w.1.pt.trace.json.gz") == "chrome"
    assert is_trace_file("plugins/profile/x/h.trace.json.gz") == "chrome"
    assert is_trace_file(".xplane.pb") is None
    with pytest.raises(ValueError, match="not a profiler trace"):
        profile(Path(__file__))


# ------------------------------------------------------------------ bad input
def _read(data: bytes, block: int = 1 << 16) -> Any:
    return read_chrome(io.BytesIO(data), "bad.pt.trace.json", block=block)


def test_blocks_of_any_size_give_the_same_events(torch_json: Path) -> None:
    data = torch_json.read_bytes()
    whole = _read(data, 1 << 26).events
    for block in (4096, 100_003):
        part = _read(data, block).events
        assert part["name"].astype(str).tolist() == whole["name"].astype(str).tolist()
        np.testing.assert_array_equal(part["start"], whole["start"])


def test_truncated_json_keeps_the_events_before_the_cut(torch_json: Path) -> None:
    data = torch_json.read_bytes()
    cut = data[: len(data) // 2]
    expected = len(re.findall(rb'"ph": "X"', cut[: cut.rfind(b"},") + 1]))
    trace = _read(cut)
    assert len(trace.events) == expected > 4000
    assert any(
        "ends before its event list closes" in p and "bad.pt.trace.json" in p
        for p in trace.problems
    )


def test_a_broken_event_costs_that_event_only(torch_json: Path) -> None:
    data = torch_json.read_bytes().replace(b'"name": "aten::mm"', b'"name": aten::mm"', 1)
    trace = _read(data)
    assert len(trace.events) == 10667
    assert any("1 trace events are not valid JSON" in p for p in trace.problems)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "empty"),
        (b"not json at all", "not a JSON trace"),
        (b'{"schemaVersion": 1}', "no traceEvents list"),
    ],
)
def test_files_that_are_no_trace(data: bytes, message: str) -> None:
    trace = _read(data)
    assert len(trace.events) == 0
    assert any(message in p and "bad.pt.trace.json" in p for p in trace.problems)


def test_unknown_categories_are_kept_and_named() -> None:
    events = [
        {"ph": "X", "cat": "cpu_op", "name": "a", "pid": 1, "tid": 1, "ts": 0, "dur": 1},
        {"ph": "X", "cat": "my_category", "name": "b", "pid": 1, "tid": 1, "ts": 2, "dur": 1},
    ]
    trace = _read(json.dumps({"traceEvents": events}).encode())
    assert trace.events["kind"].astype(str).tolist() == ["cpu_op", "other"]
    assert any("'my_category' (1)" in p for p in trace.problems)


def test_clock_skew_is_reported(torch_json: Path) -> None:
    raw = _raw(torch_json)
    for event in raw["traceEvents"]:
        if event.get("cat") == "kernel":
            event["ts"] -= 5_000.0  # the device clock 5 ms behind the host's
    trace = _read(json.dumps(raw).encode())
    (problem,) = [p for p in trace.problems if "clocks" in p]
    assert "device events start before their launch" in problem
    assert "bad.pt.trace.json" in problem


def test_gzip_and_truncated_gzip(torch_json: Path, tmp_path: Path) -> None:
    packed = gzip.compress(torch_json.read_bytes())
    good = tmp_path / "w.1.pt.trace.json.gz"
    good.write_bytes(packed)
    assert len(_quiet_profile(good).trace(0).events) == 10668
    cut = tmp_path / "run" / "w.2.pt.trace.json.gz"
    cut.parent.mkdir()
    cut.write_bytes(packed[: len(packed) // 2])
    with pytest.warns(DataWarning, match=r"w\.2\.pt\.trace\.json\.gz"):
        trace = profile(cut).trace(0)
    assert len(trace.events) > 1000


def test_reader_holds_one_block_at_a_time(torch_json: Path) -> None:
    data = torch_json.read_bytes()
    reader = TraceJson(io.BytesIO(data), "x", block=1 << 16)
    biggest = max(len(batch) for batch in reader.batches())
    assert reader.events == 16691
    assert biggest < 1000  # batches follow the block size
