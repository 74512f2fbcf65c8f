"""The kind registry: each kind defined once, everything that lists kinds derived from it."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

import tbnb
from tbnb.compat.tbparse.names import KINDS_FOR
from tbnb.kinds import EVENT_TYPES, KINDS
from tbnb.notebook.dashboard import tabs
from tests import writers

WRITTEN_BY_TORCH = {"histograms", "images", "audio", "text", "pr_curves", "custom_scalars"}

KIND_MODULES = sorted(
    p.stem
    for p in (Path(tbnb.__file__).parent / "kinds").iterdir()
    if (p.suffix == ".py" or (p / "__init__.py").exists())  # a kind may be a package
    and p.stem not in ("__init__", "base", "blob", "batch")
)


def test_every_kind_module_defines_one_registered_kind() -> None:
    assert sorted(KINDS) == KIND_MODULES
    for name in KIND_MODULES:
        kind = importlib.import_module(f"tbnb.kinds.{name}").KIND
        assert kind.key == name
        assert KINDS[name] is kind


def test_load_accepts_exactly_the_event_kinds() -> None:
    assert {k for k, kind in KINDS.items() if kind.event_type} == EVENT_TYPES
    assert {"scalars", "histograms", "images", "hparams", "graphs"} <= EVENT_TYPES
    assert "distributions" not in EVENT_TYPES  # derived, not read
    with pytest.raises(ValueError, match=r"did you mean 'histograms'"):
        tbnb.load(writers.cached("torch").logdir, event_types={"histogram"})


@pytest.mark.parametrize("key", sorted(KINDS))
def test_every_kind_has_its_accessor(key: str) -> None:
    exp = tbnb.load(writers.cached("torch").logdir, progress=False)
    accessor = getattr(type(exp), key)
    assert accessor.__doc__ == KINDS[key].doc
    value = getattr(exp, key)
    if KINDS[key].storage == "records" and KINDS[key].finish is None:
        assert list(value.columns) == KINDS[key].frame_columns
        if key in WRITTEN_BY_TORCH:
            assert len(value) > 0, f"the torch writer's logdir has {key}"


def test_metadata_counts_every_counted_kind() -> None:
    exp = tbnb.load(writers.cached("torch").logdir, progress=False)
    counted = [k for k, kind in KINDS.items() if kind.counted]
    assert set(counted) <= set(exp.metadata.columns)
    assert exp.metadata.loc[".", "histograms"] == len(exp.histograms)


def test_tbparse_event_types_come_from_the_kinds() -> None:
    assert KINDS_FOR["tensors"] == {
        "tensors",
        "pr_curves",
        "custom_scalars",
        "graphs",
        "histograms",
        "images",
        "audio",
        "meshes",
    }
    assert KINDS_FOR["scalars"] == {"scalars"}


def test_dashboard_tabs_come_from_the_kinds() -> None:
    assert [spec.key for spec in tabs()] == [k for k, kind in KINDS.items() if kind.tab]
