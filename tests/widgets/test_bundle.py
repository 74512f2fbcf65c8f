"""The one bundle: a dashboard's widgets take their views from it, shipped once per kernel
and once per exported page; a widget shown on its own keeps its self-contained bundle."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import ipywidgets
import pytest

import tbnb
from tbnb.notebook.dashboard import tabs
from tbnb.notebook.export import read_page, to_html
from tbnb.notebook.samples import sample_logdir
from tbnb.widgets.bundle import (
    ONE_BUNDLE,
    FrontEnd,
    build_id,
    bundle_text,
    front_end,
    shared_front_end,
    stub_esm,
    view_key,
    widget_keys,
)

STATIC = Path(tbnb.__file__).parent / "static"


@pytest.fixture(scope="module")
def dash() -> Iterator[tbnb.Dashboard]:
    d = tbnb.Dashboard(sample_logdir())
    d.build_all()
    yield d
    d.close()


def test_a_widget_on_its_own_carries_its_own_bundle() -> None:
    w = tbnb.scalars(sample_logdir())
    assert w._esm == bundle_text("scalars")
    assert view_key(w._esm) == "scalars"
    w.close()


def test_a_dashboard_ships_the_kit_once(dash: tbnb.Dashboard) -> None:
    widgets = [dash.selection, *dash.views.built.values()]
    # the selection bar and a view per tab of the sample (every kind has one)
    keys = {type(w)._widget_key for w in widgets}
    assert keys <= set(widget_keys())
    assert len(widgets) == len(tabs()) + 1
    assert len(keys) == len(widgets) - 1  # histograms twice: the Distributions tab is one too
    carrier = front_end()
    for widget in widgets:
        key = type(widget)._widget_key
        assert widget._esm == stub_esm(key, carrier.model_id)
        assert len(widget._esm) < 2_000
        assert view_key(widget._esm) == key
    assert carrier.source == bundle_text(ONE_BUNDLE)
    # the views the stubs ask for are in the one bundle's table
    for key in widget_keys():
        assert f"{key}:" in bundle_text(ONE_BUNDLE)[-600:]


def test_the_carrier_is_made_again_once_closed() -> None:
    first = front_end()
    assert front_end() is first
    first.close()
    second = front_end()
    assert second is not first
    assert second.comm is not None
    with shared_front_end() as carrier:
        assert carrier is second
        w = tbnb.scalars(sample_logdir())
    assert w._esm == stub_esm("scalars", second.model_id)
    w.close()


def test_stub_config_is_data_not_code() -> None:
    carrier = '"});alert(1);//'
    stub = stub_esm("scalars", carrier)
    config = {"key": "scalars", "carrier": carrier, "build": build_id()}
    head, _, tail = bundle_text("stub").partition('"__TBNB_STUB_CONFIG__"')
    assert stub == head + json.dumps(json.dumps(config)) + tail  # one JS string literal


def test_view_key_refuses_what_is_not_tbnb_s() -> None:
    assert view_key("export default { render() {} }") is None
    assert view_key(bundle_text("scalars") + " ") is None
    assert view_key(stub_esm("no_such_widget", "x")) is None
    assert view_key(bundle_text("stub")) is None  # the template itself


def test_a_dashboard_page_holds_the_one_bundle_once(dash: tbnb.Dashboard, tmp_path: Path) -> None:
    payload = read_page(to_html(dash, tmp_path / "dash.html").read_text(encoding="utf-8"))
    assert payload["modules"] == [bundle_text(ONE_BUNDLE)]
    assert payload["bundle"] == 0
    refs = sorted(
        spec["state"]["_esm"]
        for spec in payload["state"].values()
        if spec["model_module"] == "anywidget"
    )
    shown = {type(w)._widget_key for w in [dash, dash.selection, *dash.views.built.values()]}
    assert sorted(set(refs)) == sorted(f"tbnb-view:{key}" for key in shown)
    # the carrier is not in the page: the page's manager has the bundle itself
    assert not any(
        spec["model_name"] == "WidgetModel" and "source" in spec["state"]
        for spec in payload["state"].values()
    )


def test_a_page_of_widgets_picks_the_lighter_bundles(tmp_path: Path) -> None:
    logdir = sample_logdir()
    one = tbnb.scalars(logdir)
    page = read_page(to_html(one, tmp_path / "one.html").read_text(encoding="utf-8"))
    assert page["modules"] == [bundle_text("scalars")]  # 107 KB rather than the one bundle
    assert page["bundle"] is None
    many = [
        tbnb.scalars(logdir),
        tbnb.histograms(logdir),
        tbnb.pr_curves(logdir),
        tbnb.hparams(logdir),
    ]
    own = sum(len(bundle_text(k)) for k in ("scalars", "histograms", "pr_curves", "hparams"))
    assert own > len(bundle_text(ONE_BUNDLE))
    page = read_page(to_html(many, tmp_path / "many.html").read_text(encoding="utf-8"))
    assert page["modules"] == [bundle_text(ONE_BUNDLE)]
    for w in [one, *many]:
        w.close()


def test_other_anywidgets_keep_their_modules(tmp_path: Path) -> None:
    import anywidget

    class Other(anywidget.AnyWidget):
        _esm = "export default { render({ el }) { el.textContent = 'other'; } };"

    other = Other()
    with shared_front_end():
        w = tbnb.scalars(sample_logdir())
    box = ipywidgets.VBox([other, w])
    page = read_page(to_html(box, tmp_path / "mixed.html").read_text(encoding="utf-8"))
    assert page["modules"] == [bundle_text(ONE_BUNDLE), Other._esm]
    box.close()
    w.close()
    other.close()


def test_the_manifest_names_every_bundle() -> None:
    manifest = json.loads((STATIC / "bundles.json").read_text(encoding="utf-8"))
    built = {p.name for p in STATIC.glob("*.js")}
    assert set(manifest["bundles"]) == built
    folders = sorted(
        p.parent.name for p in (STATIC.parents[1] / "js/src/widgets").glob("*/index.js")
    )
    assert manifest["widgets"] == folders == list(widget_keys())
    assert {f"{key}.js" for key in folders} | {"tbnb.js", "stub.js", "export.js"} == built
    assert isinstance(FrontEnd().source, str)
