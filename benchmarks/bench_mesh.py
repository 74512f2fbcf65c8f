"""Meshes benchmark: a 1,000,000-point cloud from ``add_mesh`` saved and orbited in Chromium.

The cloud (a noisy sphere, a colour per point) is written by torch's
``SummaryWriter.add_mesh`` and loaded by ``tbnb.load``; then:

- ``load_s``: ``tbnb.load`` of that logdir in this process (the file is ~40 MB: torch writes
  every coordinate as a protobuf float);
- ``notebook_mb``: the widget state a saved notebook holds for ``tbnb.meshes(exp)``
  (``ipywidgets.embed``'s state with its binary buffers in base64, as JupyterLab saves
  it); ``page_mb``: the exported page (``tbnb.notebook.export.to_html``);
- in headless Chromium (``--disable-gpu``: WebGL2 on SwiftShader, the CPU rasteriser) on
  the exported page, ``--moves`` orbit moves per run: ``frame_ms`` (pointer event to the
  card's frame finished: the animation frame drawn, the WebGL frame handed to the card
  and drawn from it into a scratch canvas), ``drawn`` (points drawn per moving frame: a
  uniform sample sized to the frame budget while moving) and ``rest_ms`` (release to
  every point drawn, the 180 ms rest delay included);
- beside it, in the same browser and the same way, TensorBoard's own mesh dashboard
  (``tensorboard --logdir`` on the same logdir, served on localhost: three.js through its
  ``OrbitControls``), its canvas's frame finished with ``gl.finish``; tbnb's card is sized
  like TensorBoard's (``card_size=760``, TensorBoard's is 853 x 748). ``--tb-moves``
  moves per run there (a frame takes seconds).

Run::

    .venv/bin/python benchmarks/bench_mesh.py                 # 1M points, 3 runs of 30 moves
    .venv/bin/python benchmarks/bench_mesh.py --points 200000 --repeat 1
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

MESH_ORBIT_JS = """async (moves) => {
  const root = document.querySelector('.tbnb-w-mesh');
  const canvas = root.querySelector('.tbnb-card:not([hidden]) canvas.tbnb-mesh-canvas');
  const scratch = document.createElement('canvas').getContext('2d', {willReadFrequently: true});
  const frame = () => new Promise((res) => requestAnimationFrame(() => res()));
  const finish = () => {
    scratch.drawImage(canvas, 0, 0);
    return scratch.getImageData(0, 0, 1, 1);
  };
  const r = canvas.getBoundingClientRect();
  const ev = (type, x, y, dx) => canvas.dispatchEvent(new PointerEvent(type, {clientX: x,
    clientY: y, movementX: dx, movementY: dx / 2, bubbles: true, pointerId: 1, button: 0}));
  let x = r.left + r.width / 2, y = r.top + r.height / 2;
  ev('pointerdown', x, y, 0);
  await frame(); finish();
  const full = [], drawn = [], js = [];
  for (let k = 0; k < moves; k++) {
    const t0 = performance.now();
    x += 4; y += 2;
    ev('pointermove', x, y, 4);
    await frame();
    finish();
    full.push(performance.now() - t0);
    drawn.push(Number(root.dataset.drawn));
    js.push(Number(root.dataset.drawMs));
  }
  ev('pointerup', x, y, 0);
  const t1 = performance.now();
  const total = Number(canvas.closest('.tbnb-mesh-box').dataset.vertices);
  while (Number(root.dataset.drawn) < total || root.dataset.moving === 'true') await frame();
  finish();
  const rest = performance.now() - t1;
  const med = (a) => { const s = [...a].sort((p, q) => p - q); return s[s.length >> 1]; };
  const p90 = [...full].sort((p, q) => p - q)[Math.floor(full.length * 0.9)];
  return {frame_ms: med(full), frame_p90: p90, js_ms: med(js), drawn: med(drawn), rest_ms: rest};
}"""


TB_CANVAS_JS = """() => {
  const all = [];
  const walk = (root) => { for (const e of root.querySelectorAll('*')) {
    if (e.tagName === 'CANVAS') all.push(e); if (e.shadowRoot) walk(e.shadowRoot); } };
  walk(document);
  return all.some((c) => c.getBoundingClientRect().height > 100);
}"""

TB_ORBIT_JS = """async (moves) => {
  const all = [];
  const walk = (root) => { for (const e of root.querySelectorAll('*')) {
    if (e.tagName === 'CANVAS') all.push(e); if (e.shadowRoot) walk(e.shadowRoot); } };
  walk(document);
  const canvas = all.find((c) => c.getBoundingClientRect().height > 100
    && c.getBoundingClientRect().top < innerHeight);
  const gl = canvas.getContext('webgl2') || canvas.getContext('webgl');
  const frame = () => new Promise((res) => requestAnimationFrame(() => res()));
  const r = canvas.getBoundingClientRect();
  const ev = (type, x, y) => canvas.dispatchEvent(new PointerEvent(type, {clientX: x,
    clientY: y, bubbles: true, composed: true, pointerId: 1, pointerType: 'mouse', button: 0,
    buttons: 1, isPrimary: true}));
  let x = r.left + r.width / 2, y = r.top + r.height / 2;
  ev('pointerdown', x, y);
  await frame(); gl.finish();
  const full = [];
  for (let k = 0; k < moves; k++) {
    const t0 = performance.now();
    x += 4; y += 2;
    ev('pointermove', x, y);
    await frame();
    gl.finish();
    full.push(performance.now() - t0);
  }
  ev('pointerup', x, y);
  const med = (a) => { const s = [...a].sort((p, q) => p - q); return s[s.length >> 1]; };
  const p90 = [...full].sort((p, q) => p - q)[Math.floor(full.length * 0.9)];
  return {frame_ms: med(full), frame_p90: p90, size: [canvas.width, canvas.height]};
}"""


def tensorboard_server(logdir: str) -> tuple[Any, str]:
    """``tensorboard --logdir`` on a free localhost port, once it answers; (process, URL)."""
    import socket
    import subprocess
    import urllib.request

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    exe = Path(sys.executable).with_name("tensorboard")
    args = [str(exe), "--logdir", logdir, "--port", str(port), "--host", "127.0.0.1"]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{url}/data/plugin/mesh/tags", timeout=5) as reply:
                if b"scan" in reply.read():
                    return proc, url
        except OSError:
            time.sleep(0.5)
    proc.kill()
    raise RuntimeError("tensorboard did not start")


def write_cloud(logdir: str, n: int) -> None:
    """A cloud of ``n`` coloured points through torch's ``add_mesh``."""
    from torch.utils.tensorboard import SummaryWriter

    from tests.writers_meshes import cloud

    points, colors = cloud(n, seed=1)
    writer = SummaryWriter(logdir)
    writer.add_mesh("scan", points, colors=colors, global_step=0)
    writer.close()


def saved_sizes(widget: Any, tmp: str) -> tuple[float, float, Path]:
    """MB of the saved notebook's widget state and of the exported page; the page."""
    from ipywidgets.embed import embed_data

    from tbnb.notebook.export import to_html

    state = embed_data(views=[widget])["manager_state"]
    notebook_mb = len(json.dumps(state)) / 1e6
    page = Path(tmp) / "mesh.html"
    to_html(widget, page, overwrite=True)
    return notebook_mb, page.stat().st_size / 1e6, page


def orbit_pages(
    page_path: Path, tb_url: str, repeat: int, moves: int, tb_moves: int
) -> dict[str, float]:
    from playwright.sync_api import sync_playwright

    from tests.ui._chromium import Chromium

    out: dict[str, float] = {}
    with sync_playwright() as pw:
        chromium = Chromium(pw, viewport=(1200, 1000))
        try:
            for name in ("tbnb", "tensorboard"):
                page = chromium.context.new_page()
                page.set_default_timeout(1_200_000)
                t = time.perf_counter()
                if name == "tbnb":
                    page.goto(page_path.as_uri())
                    page.wait_for_function(
                        "() => Number(document.querySelector('.tbnb-w-mesh')?.dataset.drawn) > 0"
                    )
                    out["tbnb_first_draw_s"] = time.perf_counter() - t
                    runs = [page.evaluate(MESH_ORBIT_JS, moves) for _ in range(repeat)]
                    keys = ("frame_ms", "frame_p90", "js_ms", "drawn", "rest_ms")
                else:
                    page.goto(f"{tb_url}/#mesh")
                    page.wait_for_function(TB_CANVAS_JS)  # the dashboard fetched the cloud
                    page.wait_for_timeout(3000)
                    out["tensorboard_first_draw_s"] = time.perf_counter() - t
                    runs = [page.evaluate(TB_ORBIT_JS, tb_moves) for _ in range(repeat)]
                    keys = ("frame_ms", "frame_p90")
                for key in keys:
                    out[f"{name}_{key}"] = statistics.median(r[key] for r in runs)
                page.close()
        finally:
            chromium.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--points", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--moves", type=int, default=30)
    parser.add_argument("--tb-moves", type=int, default=5)
    args = parser.parse_args()

    import tbnb

    print(f"load average before: {os.getloadavg()} on {os.cpu_count()} cores", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        logdir = os.path.join(tmp, "logs")
        t = time.perf_counter()
        write_cloud(logdir, args.points)
        print(f"written by torch add_mesh in {time.perf_counter() - t:.1f} s", flush=True)
        t = time.perf_counter()
        exp = tbnb.load(logdir, progress=False)
        load_s = time.perf_counter() - t
        widget = tbnb.meshes(exp, mode="points", card_size=760)
        notebook_mb, page_mb, page = saved_sizes(widget, tmp)
        print(f"load_s {load_s:.2f}  notebook_mb {notebook_mb:.2f}  page_mb {page_mb:.2f}")
        server, url = tensorboard_server(logdir)
        try:
            frames = orbit_pages(page, url, args.repeat, args.moves, args.tb_moves)
        finally:
            server.kill()
            server.wait()
    for key, value in frames.items():
        print(f"{key:28s} {value:10.2f}")
    ratio = frames["tensorboard_frame_ms"] / frames["tbnb_frame_ms"]
    print(f"tensorboard / tbnb frame_ms: {ratio:.1f}")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
