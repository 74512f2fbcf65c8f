"""PR curves and custom-scalars layouts written by real writers, and TensorBoard's readings.

:func:`write_pr_logdir` writes one run per writer: ``torch`` (``add_pr_curve`` with
``num_thresholds=200``, which torch caps at 127, a weighted curve, ``add_pr_curve_raw``,
a margin chart and a multiline layout), ``tbx`` (tensorboardX ``add_pr_curve``,
``add_pr_curve_raw``, ``add_custom_scalars``), ``tf`` (the ``pr_curve`` summary TF
writes: ``<name>/pr_curves``, a ``[6, n]`` float32 tensor, metadata on the first event
only) and ``lightning`` (a Lightning ``TensorBoardLogger`` run whose module logs a PR
curve per class and a custom-scalars layout through ``self.logger.experiment``).

The oracles are TensorBoard's own plugins over its own multiplexer:
:func:`tb_pr_curves` (the ``pr_curves`` route) and :func:`tb_custom_scalars` (the
``layout`` and ``scalars`` routes of the custom-scalars plugin).
"""

from __future__ import annotations

import os
import shutil
import tempfile
import warnings
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tests.writers import WALL0, tf2_pr_curve

CLASSES = ("cat", "dog")
STEPS = (0, 10, 20, 30)


@dataclass
class PrWritten:
    """What was written: ``(run, tag, step, labels, predictions, num_thresholds, weights)``
    per curve from labels, and the layouts given to ``add_custom_scalars``."""

    logdir: str
    curves: list[tuple[str, str, int, np.ndarray, np.ndarray, int, Any]] = field(
        default_factory=list
    )
    raw: list[tuple[str, str, int, np.ndarray]] = field(default_factory=list)
    layouts: dict[str, dict[str, Any]] = field(default_factory=dict)


def grid_inputs(
    rng: np.random.Generator, n: int, count: int = 120, quality: float = 0.5
) -> tuple[np.ndarray, np.ndarray]:
    """Labels and predictions in the middle of the writers' buckets (one distinct score
    per bucket: the bucketed curve is then the exact curve of the raw predictions)."""
    labels = rng.integers(0, 2, count).astype(bool)
    noise = rng.normal(0.5, 0.25, count) + (labels - 0.5) * quality
    buckets = np.clip(np.floor(noise * (n - 1)), 0, n - 2).astype(int)
    return labels, ((buckets + 0.5) / (n - 1)).astype(np.float32)


def curve_counts(
    labels: np.ndarray, predictions: np.ndarray, n: int, weights: Any = None
) -> np.ndarray:
    """The ``[6, n]`` curve every writer stores (counts of predictions at or above each
    threshold bucket, precision and recall with a 1e-7 floor)."""
    weight = (
        np.ones(len(labels))
        if weights is None
        else np.broadcast_to(np.asarray(weights, dtype=np.float64), labels.shape)
    )
    bucket = np.floor(predictions.astype(np.float64) * (n - 1)).astype(int)
    tp_hist = np.bincount(bucket, weights=labels * weight, minlength=n)[:n]
    fp_hist = np.bincount(bucket, weights=(~labels) * weight, minlength=n)[:n]
    tp = np.cumsum(tp_hist[::-1])[::-1]
    fp = np.cumsum(fp_hist[::-1])[::-1]
    tn, fn = fp[0] - fp, tp[0] - tp
    precision = tp / np.maximum(1e-7, tp + fp)
    recall = tp / np.maximum(1e-7, tp + fn)
    return np.stack([tp, fp, tn, fn, precision, recall])


def _write_torch(logdir: str, out: PrWritten, rng: np.random.Generator) -> None:
    from torch.utils.tensorboard import SummaryWriter

    run = "torch"
    with SummaryWriter(os.path.join(logdir, run)) as w:
        for step in STEPS:
            for k, cls in enumerate(CLASSES):
                labels, predictions = grid_inputs(rng, 127, quality=0.3 + step / 60 + k / 10)
                w.add_pr_curve(
                    f"pr/{cls}",
                    labels,
                    predictions,
                    step,
                    num_thresholds=200,
                    walltime=WALL0 + step,
                )
                out.curves.append((run, f"pr/{cls}", step, labels, predictions, 127, None))
            w.add_scalar("loss/train", 1 / (step + 1), step, walltime=WALL0 + step)
            w.add_scalar("loss/val", 1.2 / (step + 1), step, walltime=WALL0 + step)
            for name, value in (
                ("acc", 0.5 + step / 100),
                ("acc_lo", 0.45 + step / 100),
                ("acc_hi", 0.55 + step / 100),
            ):
                w.add_scalar(f"margin/{name}", value, step, walltime=WALL0 + step)
        labels, predictions = grid_inputs(rng, 11)
        weights = rng.uniform(0.1, 2.0, labels.size)
        w.add_pr_curve(
            "weighted", labels, predictions, 5, num_thresholds=11, weights=weights, walltime=WALL0
        )
        out.curves.append((run, "weighted", 5, labels, predictions, 11, weights))
        raw = curve_counts(*grid_inputs(rng, 9), 9)
        w.add_pr_curve_raw("raw", *raw, global_step=3, num_thresholds=9, walltime=WALL0)
        out.raw.append((run, "raw", 3, raw))
        layout = {
            "losses": {
                "train and val": ["Multiline", [r"loss/.*"]],
                "accuracy band": ["Margin", ["margin/acc", "margin/acc_lo", "margin/acc_hi"]],
            }
        }
        w.add_custom_scalars(layout)
        out.layouts[run] = layout


def _write_tbx(logdir: str, out: PrWritten, rng: np.random.Generator) -> None:
    from tensorboardX import SummaryWriter

    run = "tbx"
    with SummaryWriter(os.path.join(logdir, run)) as w:
        for step in STEPS:
            for cls in CLASSES:
                labels, predictions = grid_inputs(rng, 51, quality=0.2 + step / 40)
                w.add_pr_curve(
                    f"pr/{cls}", labels, predictions, step, num_thresholds=51, walltime=WALL0 + step
                )
                out.curves.append((run, f"pr/{cls}", step, labels, predictions, 51, None))
            w.add_scalar("loss/train", 2 / (step + 1), step, walltime=WALL0 + step)
        raw = curve_counts(*grid_inputs(rng, 7), 7)
        w.add_pr_curve_raw("raw", *raw, global_step=2, num_thresholds=7, walltime=WALL0)
        out.raw.append((run, "raw", 2, raw))
        layout = {
            "losses": {"train and val": ["Multiline", [r"loss/train"]]},
            "extra": {"everything": ["Multiline", ["pr", r"loss"]]},
        }
        w.add_custom_scalars(layout)
        out.layouts[run] = layout


def _write_tf(logdir: str, out: PrWritten, rng: np.random.Generator) -> None:
    from tests.writers import _TF2Writer

    run = "tf"
    w = _TF2Writer(os.path.join(logdir, run), ".v2")
    for step in STEPS[:3]:
        for cls in CLASSES:
            labels, predictions = grid_inputs(rng, 21, quality=0.4)
            data = curve_counts(labels, predictions, 21)
            w.write(tf2_pr_curve(f"{cls}/pr_curves", data, 21), step, WALL0 + step)
            out.curves.append((run, f"{cls}/pr_curves", step, labels, predictions, 21, None))
    w.close()


def _write_lightning(logdir: str, out: PrWritten) -> None:
    import lightning
    import torch
    from lightning.pytorch.loggers import TensorBoardLogger

    run = "lightning/version_0"
    torch.manual_seed(0)

    class Classifier(lightning.LightningModule):
        def __init__(self) -> None:
            super().__init__()
            self.net = torch.nn.Linear(4, 2)
            self.outputs: list[tuple[Any, Any]] = []

        def training_step(self, batch: Any, _index: int) -> Any:
            x, y = batch
            loss = torch.nn.functional.cross_entropy(self.net(x), y)
            self.log("train/loss", loss)
            return loss

        def validation_step(self, batch: Any, _index: int) -> None:
            x, y = batch
            self.outputs.append((torch.softmax(self.net(x), 1).detach(), y))

        def on_validation_epoch_end(self) -> None:
            probs = torch.cat([p for p, _ in self.outputs])
            labels = torch.cat([y for _, y in self.outputs])
            self.outputs.clear()
            writer = self.logger.experiment  # type: ignore[union-attr]
            step = int(self.global_step)
            for k, cls in enumerate(CLASSES):
                is_k = (labels == k).numpy()
                score = probs[:, k].numpy().astype(np.float32)
                writer.add_pr_curve(f"val_pr/{cls}", is_k, score, step)
                out.curves.append((run, f"val_pr/{cls}", step, is_k, score, 127, None))

        def configure_optimizers(self) -> Any:
            return torch.optim.SGD(self.parameters(), lr=0.5)

    generator = torch.Generator().manual_seed(2)
    x = torch.randn(64, 4, generator=generator)
    y = (x[:, 0] + 0.3 * x[:, 1] > 0).long()
    loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(x, y), batch_size=16)
    logger = TensorBoardLogger(logdir, name="lightning")
    layout = {"training": {"loss": ["Multiline", ["train/.*"]]}}
    logger.experiment.add_custom_scalars(layout)
    out.layouts[run] = layout
    trainer = lightning.Trainer(
        max_epochs=2,
        accelerator="cpu",
        devices=1,
        logger=logger,
        log_every_n_steps=1,
        enable_checkpointing=False,
        enable_progress_bar=False,
        enable_model_summary=False,
        num_sanity_val_steps=0,
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Lightning's advice about workers and small data
        trainer.fit(Classifier(), loader, loader)
    logger.finalize("success")


def write_pr_logdir(logdir: str, *, lightning: bool = True) -> PrWritten:
    """Every writer's PR curves and layouts under ``logdir`` (one run each)."""
    out = PrWritten(logdir)
    rng = np.random.default_rng(11)
    _write_torch(logdir, out, rng)
    _write_tbx(logdir, out, rng)
    _write_tf(logdir, out, rng)
    if lightning:
        _write_lightning(logdir, out)
    return out


_CACHE: dict[str, PrWritten] = {}


def cached_pr_logdir() -> PrWritten:
    """:func:`write_pr_logdir`'s logdir, written once per test process (do not modify)."""
    if "pr" not in _CACHE:
        base = tempfile.mkdtemp(prefix="tbnb-pr-")
        import atexit

        atexit.register(shutil.rmtree, base, True)
        _CACHE["pr"] = write_pr_logdir(os.path.join(base, "logs"))
    return _CACHE["pr"]


# ------------------------------------------------------------------ TensorBoard's readings


def _context(logdir: str) -> tuple[Any, Any]:
    from tensorboard import context
    from tensorboard.backend.event_processing import data_provider
    from tensorboard.backend.event_processing import plugin_event_multiplexer as multiplexer
    from tensorboard.plugins import base_plugin

    mux = multiplexer.EventMultiplexer(
        tensor_size_guidance={"pr_curves": 0, "custom_scalars": 0, "scalars": 0}
    )
    mux.AddRunsFromDirectory(logdir)
    mux.Reload()
    provider = data_provider.MultiplexerDataProvider(mux, logdir)
    tb = base_plugin.TBContext(
        data_provider=provider,
        logdir=logdir,
        sampling_hints={"pr_curves": 10**6, "scalars": 10**6},
        plugin_name_to_instance={},
    )
    return tb, context.RequestContext()


def tb_pr_curves(logdir: str) -> dict[tuple[str, str], list[dict[str, Any]]]:
    """``(run, tag) -> [entry per step]`` as TensorBoard's ``pr_curves`` route serves them."""
    from tensorboard.plugins.pr_curve import pr_curves_plugin

    tb, ctx = _context(logdir)
    plugin = pr_curves_plugin.PrCurvesPlugin(tb)
    out = {}
    for run, tags in plugin.tags_impl(ctx, "").items():
        for tag in tags:
            out[(run, tag)] = plugin.pr_curves_impl(ctx, "", [run], tag)[run]
    return out


def tb_custom_scalars(logdir: str) -> tuple[dict[str, Any], Any]:
    """TensorBoard's merged layout (the ``layout`` route, as JSON) and a function
    ``scalars(run, regex) -> {tag: [[wall, step, value], ...]}`` (the ``scalars`` route)."""
    from tensorboard.plugins.custom_scalar import custom_scalars_plugin
    from tensorboard.plugins.scalar import scalars_plugin

    tb, ctx = _context(logdir)
    tb.plugin_name_to_instance["scalars"] = scalars_plugin.ScalarsPlugin(tb)
    plugin = custom_scalars_plugin.CustomScalarsPlugin(tb)

    def scalars(run: str, regex: str) -> dict[str, list[list[float]]]:
        result = plugin.scalars_impl(ctx, run, regex, "")
        return dict(result["tag_to_events"]) if result["regex_valid"] else {}

    return plugin.layout_impl(ctx, ""), scalars


# ------------------------------------------------------------------ hostile names

IMG = '<img src=x onerror="window.__pwned=1">'
SCRIPT = '"><script>window.__pwned=1</script>'
BOLD = "<b onmouseover=window.__pwned=1>band</b>"
HOSTILE_RUN = f"{IMG} run"
HOSTILE_PR_TAG = f"{SCRIPT}/pr"
HOSTILE_SCALAR_TAG = f"{IMG}/loss"


def layout_summary(layout: dict[str, dict[str, Any]]) -> Any:
    """The custom-scalars summary TF writes (``custom_scalars__config__``, a string
    tensor holding the serialized ``Layout``), built with TensorBoard's own protos."""
    from tensorboard.compat.proto import summary_pb2
    from tensorboard.plugins.custom_scalar import layout_pb2, metadata
    from tensorboard.util import tensor_util

    proto = layout_pb2.Layout()
    for title, charts in layout.items():
        category = proto.category.add(title=title)
        for chart_title, (kind, tags) in charts.items():
            chart = category.chart.add(title=chart_title)
            if kind == "Margin":
                chart.margin.series.add(value=tags[0], lower=tags[1], upper=tags[2])
            else:
                chart.multiline.tag.extend(tags)
    value = summary_pb2.Summary.Value(
        tag=metadata.CONFIG_SUMMARY_TAG,
        metadata=metadata.create_summary_metadata(),
        tensor=tensor_util.make_tensor_proto(proto.SerializeToString()),
    )
    return summary_pb2.Summary(value=[value])


def write_hostile_run(logdir: str) -> None:
    """A run whose name, PR tag, scalar tags and layout titles are script payloads
    (TF's wire format through TensorBoard's writer: no writer renames them)."""
    import re

    from tensorboard.plugins.scalar.summary_v2 import scalar_pb

    from tests.writers import _TF2Writer

    rng = np.random.default_rng(3)
    w = _TF2Writer(os.path.join(logdir, HOSTILE_RUN), ".v2")
    for step in (0, 10, 20, 30):
        labels, predictions = grid_inputs(rng, 21, quality=0.3 + step / 50)
        w.write(
            tf2_pr_curve(HOSTILE_PR_TAG, curve_counts(labels, predictions, 21), 21),
            step,
            WALL0 + step,
        )
        for tag, value in (
            (HOSTILE_SCALAR_TAG, 1 / (step + 1)),
            ("band/v", 0.5 + step / 100),
            ("band/lo", 0.4 + step / 100),
            ("band/hi", 0.6 + step / 100),
        ):
            w.write(scalar_pb(tag, value), step, WALL0 + step)
    w.write(
        layout_summary(
            {
                SCRIPT: {
                    IMG: ("Multiline", [re.escape(IMG)]),
                    BOLD: ("Margin", ["band/v", "band/lo", "band/hi"]),
                }
            }
        ),
        0,
    )
    w.close()
