"""Self-contained HTML export: what the page holds (the browser side is in tests/ui/)."""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path
from typing import Any

import anywidget
import ipywidgets
import pytest
import traitlets

from tbnb.notebook.export import read_page, render_html, to_html

EVIL_RUN = "</script><script>alert(1)</script>"
EVIL_TAG = "<img src=x onerror=alert(2)>"


class Probe(anywidget.AnyWidget):
    """A small anywidget with text and binary state."""

    _esm = (
        "function render({ model, el }) { el.textContent = model.get('label'); }\n"
        "export default { render };\n"
    )
    _css = ".probe { color: red; }"
    label = traitlets.Unicode(EVIL_RUN).tag(sync=True)
    tags = traitlets.List(traitlets.Unicode(), [EVIL_TAG]).tag(sync=True)
    blob = traitlets.Bytes(bytes(range(256))).tag(sync=True)


def _payload(page: str) -> dict[str, Any]:
    return read_page(page)


def test_state_round_trips_with_buffers_and_shared_modules(tmp_path: Path) -> None:
    a, b = Probe(), Probe(label="second")
    box = ipywidgets.VBox([ipywidgets.HTML("<b>header</b>"), a, b])
    out = to_html(box, tmp_path / "page.html", title="sweep")
    page = out.read_text(encoding="utf-8")
    payload = _payload(page)
    assert payload["views"] == [box.model_id]
    assert {a.model_id, b.model_id, box.model_id} <= set(payload["state"])
    # the module source is stored once and referenced by both models
    assert payload["modules"] == [Probe._esm]
    assert (
        payload["state"][a.model_id]["state"]["_esm"]
        == payload["state"][b.model_id]["state"]["_esm"]
    )
    assert payload["state"][a.model_id]["state"]["_css"] == Probe._css
    assert payload["state"][b.model_id]["state"]["label"] == "second"
    buffers = payload["state"][a.model_id]["buffers"]
    assert [buf["path"] for buf in buffers] == [["blob"]]
    assert buffers[0]["data"] == bytes(range(256))
    assert "<title>sweep</title>" in page


def test_user_data_cannot_close_the_script_element() -> None:
    page = render_html(Probe(), title="</title><script>alert(3)</script>")
    # the only script elements are the data block and the shim
    assert page.count("<script") == 2
    assert page.count("</script>") == 2
    block = page.split('id="tbnb-export-data">', 1)[1].split("</script>", 1)[0]
    assert not set(block) & set("<>&\"'")  # nothing in it can end the element or start markup
    assert EVIL_RUN not in page
    assert EVIL_TAG not in page
    assert "<script>alert(3)" not in page
    assert _payload(page)["state"]  # and still parses back exactly
    state = next(s for s in _payload(page)["state"].values() if s["model_module"] == "anywidget")
    assert state["state"]["label"] == EVIL_RUN
    assert state["state"]["tags"] == [EVIL_TAG]


def test_no_network_sources_in_page() -> None:
    page = render_html(ipywidgets.VBox([Probe()]))
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page)
    csp = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', page)
    assert csp is not None
    policy = csp.group(1).replace("&#x27;", "'")
    assert "default-src 'none'" in policy
    assert "connect-src 'none'" in policy
    nonce = re.search(r"'nonce-([^']+)'", policy)
    assert nonce is not None
    assert f'<script type="module" nonce="{nonce.group(1)}">' in page
    assert "unsafe-inline' blob" not in policy  # scripts need the nonce: no inline handlers


def test_nonce_differs_per_page() -> None:
    first = re.search(r"nonce-([A-Za-z0-9_-]+)", render_html(Probe()))
    second = re.search(r"nonce-([A-Za-z0-9_-]+)", render_html(Probe()))
    assert first is not None
    assert second is not None
    assert first.group(1) != second.group(1)


def test_remote_esm_refused() -> None:
    class Remote(anywidget.AnyWidget):
        _esm = "https://cdn.example.com/widget.js"

    with pytest.raises(ValueError, match="self-contained"):
        render_html(Remote())


def test_bad_input() -> None:
    with pytest.raises(ValueError, match="at least one"):
        render_html([])
    with pytest.raises(TypeError, match="widget"):
        render_html(["not a widget"])


def test_scalars_widget_export(tmp_path: Path) -> None:
    pd = pytest.importorskip("pandas")
    import tbnb

    frame = pd.DataFrame(
        {
            "run": [EVIL_RUN] * 3 + ["b"] * 3,
            "tag": [EVIL_TAG] * 6,
            "step": [0, 1, 2] * 2,
            "wall_time": [0.0, 1.0, 2.0] * 2,
            "value": [3.0, 2.0, 1.0, 1.0, 2.0, 3.0],
        }
    )
    widget = tbnb.scalars(frame)
    page = to_html(widget, tmp_path / "s.html").read_text(encoding="utf-8")
    assert EVIL_RUN not in page
    assert EVIL_TAG not in page
    payload = _payload(page)
    state = payload["state"][widget.model_id]
    assert state["state"]["_esm"].startswith("tbnb-esm:")
    assert payload["modules"][0] == widget._esm
    assert state["buffers"]  # series travel as binary buffers


def test_to_html_refuses_to_overwrite_unless_asked(tmp_path: Path) -> None:
    target = tmp_path / "report.html"
    target.write_text("precious", encoding="utf-8")
    with pytest.raises(FileExistsError, match=re.escape(str(target))):
        to_html(Probe(), target)
    assert target.read_text(encoding="utf-8") == "precious"
    assert to_html(Probe(), target, overwrite=True) == target
    assert target.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_to_html_overwrite_never_writes_through_a_hard_link(tmp_path: Path) -> None:
    """The page replaces the name: another name of the old file keeps its bytes."""
    other = tmp_path / "notes.txt"
    other.write_text("precious", encoding="utf-8")
    target = tmp_path / "report.html"
    os.link(other, target)
    assert to_html(Probe(), target, overwrite=True) == target
    assert other.read_text(encoding="utf-8") == "precious"
    assert target.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert os.stat(target).st_nlink == 1
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o644 & ~_umask()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt", "report.html"]


def test_to_html_leaves_no_partial_file_when_writing_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "report.html"
    target.write_text("before", encoding="utf-8")

    def refuse(src: object, dst: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(OSError, match="disk full"):
        to_html(Probe(), target, overwrite=True)
    assert target.read_text(encoding="utf-8") == "before"
    assert [p.name for p in tmp_path.iterdir()] == ["report.html"]


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def test_to_html_never_follows_a_symlink(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere.txt"
    elsewhere.write_text("not yours", encoding="utf-8")
    link = tmp_path / "report.html"
    link.symlink_to(elsewhere)
    for overwrite in (False, True):
        with pytest.raises(FileExistsError, match=re.escape(str(link))):
            to_html(Probe(), link, overwrite=overwrite)
    assert elsewhere.read_text(encoding="utf-8") == "not yours"
    dangling = tmp_path / "dangling.html"
    dangling.symlink_to(tmp_path / "missing" / "target.html")
    with pytest.raises(FileExistsError, match="symbolic link"):
        to_html(Probe(), dangling, overwrite=True)
    assert not (tmp_path / "missing").exists()


def test_a_dashboard_page_names_its_logdir_by_its_last_folder(tmp_path: Path) -> None:
    import json

    import tbnb
    from tbnb.notebook.samples import sample_logdir

    logdir = str(sample_logdir())
    dash = tbnb.Dashboard(logdir)
    try:
        short = read_page(dash.to_html(tmp_path / "short.html").read_text(encoding="utf-8"))
        whole = read_page(
            dash.to_html(tmp_path / "whole.html", full_paths=True).read_text(encoding="utf-8")
        )
        assert dash.header["location"] == logdir  # the notebook still shows the full path
    finally:
        dash.close()
    short_text = json.dumps(short["state"], default=str)
    assert logdir not in short_text  # header and Runs table alike
    headers = [s["state"]["header"] for s in short["state"].values() if "header" in s["state"]]
    assert [h["location"] for h in headers] == [Path(logdir).name]
    assert logdir in json.dumps(whole["state"], default=str)
