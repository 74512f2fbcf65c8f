"""Shared pytest fixtures."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.ui._chromium import Chromium, missing_reason

pytest_plugins = ["pytester"]  # tests/jit runs pytest in process, as plugin test suites do

# --- collection progress: a line every few seconds where no live counter is shown ----

_COLLECTING = {"started": 0.0, "said": 0.0, "files": 0}
COLLECT_EVERY_S = 5.0


def pytest_collection(session: pytest.Session) -> None:
    _COLLECTING.update(started=time.monotonic(), said=time.monotonic(), files=0)


def pytest_collectstart(collector: pytest.Collector) -> None:
    """Say how collection goes (files imported so far, seconds) when the terminal shows
    no live counter (CI logs, pipes), so a slow import is never a silent wait."""
    if not isinstance(collector, pytest.File):
        return
    _COLLECTING["files"] += 1
    now = time.monotonic()
    reporter = collector.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is None or reporter.isatty or now - _COLLECTING["said"] < COLLECT_EVERY_S:
        return
    _COLLECTING["said"] = now
    reporter.write_line(
        f"collecting: {int(_COLLECTING['files'])} files imported in "
        f"{now - _COLLECTING['started']:.0f} s (now {collector.nodeid})"
    )


# --- the default sample logdir, written once per session ------------------------------


@pytest.fixture(scope="session")
def sample_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A private tbnb cache directory (for ``TBNB_CACHE_DIR``) holding the default sample
    logdir, written once per session for every test that runs the quick start's notebooks
    or reads the sample as a user gets it; the user's samples are neither read nor
    written. Its compiled kernels are the user's (a link: what setup compiled once), so a
    notebook's projector finds its kernels instead of compiling them again."""
    pytest.importorskip("tensorboardX")  # the sample's writer
    from tbnb import jit
    from tbnb.notebook import samples

    cache = tmp_path_factory.mktemp("tbnb-cache")
    compiled = jit.cache_dir()
    compiled.mkdir(parents=True, exist_ok=True)
    (cache / "compiled").symlink_to(compiled, target_is_directory=True)
    samples.sample_logdir(cache / "samples" / f"sweep-v{samples.SAMPLE_VERSION}")
    return cache


# --- record-layer fixtures (prefix rec_) --------------------------------------------


def _rec_event_file(directory: object) -> str:
    import glob
    import os

    (path,) = glob.glob(os.path.join(str(directory), "events.out.tfevents.*"))
    return path


@pytest.fixture(scope="session")
def rec_tbx_file(tmp_path_factory: pytest.TempPathFactory) -> str:
    """Path of an event file written by tensorboardX: scalars, a multi-value summary,
    a histogram, an image and text."""
    import numpy as np
    from tensorboardX import SummaryWriter
    from tensorboardX.proto.summary_pb2 import Summary

    directory = tmp_path_factory.mktemp("rec_tbx")
    writer = SummaryWriter(str(directory))
    for step in range(30):
        writer.add_scalar("train/loss", 1.0 / (step + 1), step, walltime=1.7e9 + step)
        writer.add_scalar("lr", 0.1 * 0.9**step, step)
    writer.add_histogram("weights", np.linspace(-1, 1, 100), 3)
    writer.add_image("img", np.zeros((3, 8, 8), dtype=np.uint8), 4)
    writer.add_text("note", "hello", 5)
    several = Summary(value=[Summary.Value(tag=f"multi/{i}", simple_value=i / 3) for i in range(4)])
    writer._get_file_writer().add_summary(several, 6)
    writer.close()
    return _rec_event_file(directory)


@pytest.fixture(scope="session")
def rec_torch_file(tmp_path_factory: pytest.TempPathFactory) -> str:
    """Path of an event file written by torch.utils.tensorboard: scalars, a histogram, text."""
    import numpy as np
    from torch.utils.tensorboard import SummaryWriter

    directory = tmp_path_factory.mktemp("rec_torch")
    writer = SummaryWriter(str(directory))
    for step in range(25):
        writer.add_scalar("loss", 2.0 - step / 10, step)
    writer.add_histogram("w", np.arange(50.0), 1)
    writer.add_text("t", "some text", 2)
    writer.close()
    return _rec_event_file(directory)


@pytest.fixture(scope="session")
def rec_big_image_file(tmp_path_factory: pytest.TempPathFactory) -> str:
    """Path of a tensorboardX event file holding one ~3 MB PNG image record."""
    import numpy as np
    from tensorboardX import SummaryWriter

    directory = tmp_path_factory.mktemp("rec_img")
    noise = np.random.default_rng(0).integers(0, 256, (3, 1000, 1000), dtype=np.uint8)
    writer = SummaryWriter(str(directory))
    writer.add_image("noise", noise, 0)
    writer.close()
    return _rec_event_file(directory)


# --- real-browser fixtures (marker ``browser``): one Playwright per session ----------
# Chromium missing: the tests skip locally and fail in CI (``CI=true``), with the
# reason, so a CI image without a browser can never pass them silently.

OUT = Path(__file__).resolve().parent / "ui" / "out"


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


@pytest.fixture(scope="session")
def playwright() -> Iterator[Any]:
    reason = missing_reason()
    if reason:
        if _in_ci():
            pytest.fail(f"browser tests cannot run in CI: {reason}", pytrace=False)
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    pw = sync_playwright().start()
    yield pw
    pw.stop()


@pytest.fixture(scope="module")
def chromium(playwright: Any) -> Iterator[Chromium]:
    browser = Chromium(playwright)
    yield browser
    browser.close()


@pytest.fixture(scope="session")
def out_dir() -> Path:
    """Screenshots and saved pages (git-ignored)."""
    OUT.mkdir(exist_ok=True)
    return OUT
