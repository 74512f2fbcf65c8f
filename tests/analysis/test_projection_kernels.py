"""The projector's kernels wait for tbnb.jit's detached compile, never compile it here
unless there is nothing to wait for, and say what they wait for."""

from __future__ import annotations

import pytest

from tbnb.analysis.projection import kernels
from tbnb.analysis.projection.jobs import Progress
from tbnb.jit import GROUPS


def test_the_kernels_are_a_jit_group() -> None:
    assert GROUPS["projection"] == (
        "tbnb.analysis.projection.compiled.knn",
        "tbnb.analysis.projection.compiled.umap",
    )


def test_a_layout_waits_for_the_compile_and_reports_it(monkeypatch: pytest.MonkeyPatch) -> None:
    answers = iter([False, False, True])  # not in the cache twice, then loaded
    monkeypatch.setattr("tbnb.jit.available", lambda: True)
    monkeypatch.setattr("tbnb.jit.load", lambda group: next(answers))
    monkeypatch.setattr("tbnb.jit.build.compiling", lambda group: True)
    monkeypatch.setattr(kernels, "POLL_SECONDS", 0.0)
    seen: list[str] = []
    progress = Progress()
    progress._listeners.append(lambda p, _layout: seen.append(p.phase))
    assert kernels.ensure(progress) is True
    assert seen == ["compiling", "compiling"]


def test_without_a_compile_under_way_nothing_waits(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tbnb.jit.available", lambda: True)
    monkeypatch.setattr("tbnb.jit.load", lambda group: False)
    monkeypatch.setattr("tbnb.jit.build.compiling", lambda group: False)  # failed, say
    assert kernels.ensure(Progress()) is False  # numba compiles on first call instead
    monkeypatch.setattr("tbnb.jit.available", lambda: False)  # TBNB_JIT=0
    assert kernels.ensure() is False
    assert kernels.prepare() is False


def test_every_kernel_runs_with_the_arguments_it_is_compiled_for() -> None:
    # the detached compile calls each kernel with these; one that fails leaves the whole
    # group uncompiled and every layout compiling in the user's process
    import importlib

    from tbnb.jit import load

    load("projection")  # from the cache when it is there
    for name in GROUPS["projection"]:
        for dispatcher, args in importlib.import_module(name).KERNELS:
            dispatcher(*args)
