"""Custom-scalars layouts: decoded from what writers wrote, merged as TensorBoard merges them."""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import pytest

import tbnb
from tbnb._proto import Layout as LayoutProto
from tbnb.kinds.custom_scalars import (
    Category,
    Chart,
    CustomScalarLayouts,
    Layout,
    MarginSeries,
    decode_layout,
    layout_from_dict,
    merge_layouts,
)
from tbnb.warnings import DataWarning
from tests.writers_prcurves import cached_pr_logdir, tb_custom_scalars


def as_tensorboard_json(layout: Layout) -> dict[str, Any]:
    """A layout as TensorBoard's ``layout`` route writes it (``proto_to_json``)."""
    categories = []
    for category in layout.categories:
        charts: list[dict[str, Any]] = []
        for chart in category.charts:
            if chart.kind == "margin":
                series = [
                    {"value": m.value, "lower": m.lower, "upper": m.upper} for m in chart.margins
                ]
                charts.append({"title": chart.title, "margin": {"series": series}})
            else:
                charts.append({"title": chart.title, "multiline": {"tag": list(chart.tags)}})
        categories.append({"title": category.title, "chart": charts, "closed": category.closed})
    return {"category": categories, "version": layout.version}


def test_layouts_of_every_writer_decode_as_written() -> None:
    written = cached_pr_logdir()
    layouts = tbnb.load(written.logdir, progress=False).custom_scalars
    assert isinstance(layouts, CustomScalarLayouts)
    assert sorted(layouts) == sorted(written.layouts)  # tf wrote none
    for run, spec in written.layouts.items():
        assert layouts[run] == layout_from_dict(spec)
        assert decode_layout(layouts.raw[run]) == layouts[run]
        assert LayoutProto.FromString(layouts.raw[run]).category  # the bytes as written
    torch = layouts["torch"]
    (band,) = [c for _, c in torch.charts if c.kind == "margin"]
    assert band.margins == (MarginSeries("margin/acc", "margin/acc_lo", "margin/acc_hi"),)
    assert "3 run(s)" in repr(layouts)
    with pytest.raises(TypeError):
        layouts.raw["torch"] = b""  # type: ignore[index]  # what is handed out stays as read


def _two_layouts(root: Path) -> Path:
    from tensorboardX import SummaryWriter
    from torch.utils.tensorboard import SummaryWriter as TorchWriter

    with TorchWriter(str(root / "a")) as w:
        w.add_custom_scalars(
            {
                "losses": {"all": ["Multiline", ["loss/.*"]]},
                "acc": {"band": ["Margin", ["acc", "acc_lo", "acc_hi"]]},
            }
        )
    with SummaryWriter(str(root / "b")) as w:
        w.add_custom_scalars(
            {
                "losses": {
                    "all": ["Multiline", ["loss/.*"]],
                    "train": ["Multiline", ["loss/train"]],
                },
                "lr": {"lr": ["Multiline", ["lr"]]},
            }
        )
    return root


def test_merged_layout_equals_tensorboards_layout_route(tmp_path: Path) -> None:
    logdir = _two_layouts(tmp_path / "two")
    layouts = tbnb.load(logdir, progress=False).custom_scalars
    reference, _ = tb_custom_scalars(str(logdir))
    assert as_tensorboard_json(layouts.merged) == json.loads(reference)
    titles = [(c.title, [x.title for x in c.charts]) for c in layouts.merged.categories]
    assert titles == [("losses", ["all", "train"]), ("acc", ["band"]), ("lr", ["lr"])]


def test_merge_keeps_charts_tensorboard_loses() -> None:
    """TensorBoard merges a category seen in a third run's layout into the second run's
    copy, so those charts never show; tbnb keeps them."""
    written = cached_pr_logdir()
    layouts = tbnb.load(written.logdir, progress=False).custom_scalars
    reference = json.loads(tb_custom_scalars(written.logdir)[0])
    ours = as_tensorboard_json(layouts.merged)
    theirs = {c["title"]: c["chart"] for c in reference["category"]}
    for category in ours["category"]:
        have = category["chart"]
        assert all(chart in have for chart in theirs[category["title"]])
    lost = next(c for c in ours["category"] if c["title"] == "losses")["chart"]
    assert len(lost) == 3
    assert len(theirs["losses"]) == 1


def test_merge_dedupes_and_keeps_order() -> None:
    chart = Chart("x", "multiline", ("a",))
    a = Layout((Category("c", (chart,), closed=True),), version=0)
    b = Layout(
        (
            Category(
                "c",
                (chart, Chart("y", "margin", margins=(MarginSeries("v", "l", "u"),))),
            ),
            Category("d"),
        )
    )
    merged = merge_layouts({"run2": b, "run1": a})
    assert [c.title for c in merged.categories] == ["c", "d"]
    assert [c.title for c in merged.categories[0].charts] == ["x", "y"]
    assert merged.categories[0].closed  # the first run (by name) decides
    assert merge_layouts({}) == Layout()


def test_layout_from_dict_checks_its_input() -> None:
    with pytest.raises(ValueError, match="triples"):
        layout_from_dict({"c": {"m": ["Margin", ["a", "b"]]}})
    with pytest.raises(ValueError, match=r"expected \[type, tags\]"):
        layout_from_dict({"c": {"m": "loss"}})
    two = layout_from_dict({"c": {"m": ["margin", ["a", "b", "c", "d", "e", "f"]]}})
    assert len(two.categories[0].charts[0].margins) == 2


def test_a_layout_that_does_not_decode_is_a_warning_naming_file_tag_and_step(
    tmp_path: Path,
) -> None:
    from tensorboard.compat.proto import summary_pb2
    from tensorboard.plugins.custom_scalar import metadata

    from tests.writers import _TF2Writer

    w = _TF2Writer(str(tmp_path / "run"))
    good = LayoutProto(
        category=[{"title": "ok", "chart": [{"title": "t", "multiline": {"tag": ["x"]}}]}]
    ).SerializeToString()
    for step, raw in ((0, good), (1, b"\xff\xff not a layout")):
        from tensorboard.util import tensor_util

        value = summary_pb2.Summary.Value(
            tag=metadata.CONFIG_SUMMARY_TAG,
            metadata=metadata.create_summary_metadata(),
            tensor=tensor_util.make_tensor_proto(raw),
        )
        w.write(summary_pb2.Summary(value=[value]), step)
    w.close()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        exp = tbnb.load(tmp_path, progress=False)
    messages = [str(c.message) for c in caught if issubclass(c.category, DataWarning)]
    assert any(
        "'custom_scalars__config__' step 1" in m and "not a custom-scalars Layout" in m
        for m in messages
    ), messages
    assert exp.custom_scalars["run"].categories[0].title == "ok"  # the good one stays
