"""A small, realistic sample logdir for demos, docs and tests.

The sample is a hyper-parameter sweep (learning rate x seed) of a simulated
classifier, written with a real TensorBoard writer (tensorboardX) exactly as a
training script would write it, and it holds every kind tbnb shows: per-step
training scalars, periodic validation scalars, the learning-rate schedule, a
custom-scalars layout, weight histograms (also shown as distributions), images and
audio of sample predictions, text notes in markdown, PR curves, a projector
embedding with metadata and a sprite, the model graph, hparams as ``add_hparams``
writes them, and so run information. Every logged value, step and wall time is
derived from a fixed seed (the sweep starts 2024-01-01 00:00 UTC, runs one hour
apart), so two generations hold the same data; only what the writer adds on its
own (event file names with the clock and host name, the file-version record)
differs, as in any real logdir.

Nothing large is kept in git: the logdir is generated on first use and cached.

Examples
--------
>>> from tbnb.notebook.samples import sample_logdir
>>> logdir = sample_logdir()
>>> sorted(p.name for p in logdir.iterdir() if p.is_dir())[:2]
['lr=0.001,seed=0', 'lr=0.001,seed=1']
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from tbnb.extras import require
from tbnb.notebook import sample_kinds

__all__ = [
    "SAMPLE_VERSION",
    "WRITER_MODULES",
    "SampleSpec",
    "cache_dir",
    "sample_logdir",
    "write_sample",
]

WRITER_MODULES = ("tensorboardX", "PIL", "soundfile")
"""What writing the sample imports: the writer, and its PNG and WAV encoders (the ``demo``
extra)."""

#: Bumped whenever the generated content changes, so stale caches are not reused (the cache
#: folder also carries a fingerprint of the writing code, so an unbumped change is never reused).
SAMPLE_VERSION = 6

_COMPLETE = ".tbnb-sample-complete"


@dataclass(frozen=True)
class SampleSpec:
    """Shape of the generated sweep.

    Attributes
    ----------
    learning_rates : tuple of float
        One group of runs per learning rate.
    seeds : tuple of int
        One run per seed within each group.
    steps : int
        Training steps per run (``train/*`` and ``lr`` are logged every step).
    val_every : int
        Validation interval in steps (``val/*``).
    hist_every : int
        Weight-histogram interval in steps.
    image_steps : tuple of int
        Steps at which sample predictions (an image, an audio clip) and PR curves
        are logged.
    embedding_seeds : tuple of int
        Seeds whose runs log a projector embedding at their last step.
    """

    learning_rates: tuple[float, ...] = (1e-3, 3e-3, 1e-2)
    seeds: tuple[int, ...] = (0, 1, 2)
    steps: int = 2000
    val_every: int = 100
    hist_every: int = 200
    image_steps: tuple[int, ...] = (0, 1000, 1999)
    embedding_seeds: tuple[int, ...] = (0,)

    def run_names(self) -> list[str]:
        """Run directory names, e.g. ``'lr=0.001,seed=0'``."""
        return [f"lr={lr:g},seed={seed}" for lr in self.learning_rates for seed in self.seeds]


DEFAULT_SPEC = SampleSpec()

# The simulated sweep starts at a fixed instant (2024-01-01T00:00:00Z); each run
# starts an hour after the previous one and takes 0.05 s per step.
_T0 = 1_704_067_200.0
_STEP_SECONDS = 0.05
_RUN_SPACING = 3600.0


def cache_dir() -> Path:
    """Return the per-user cache directory used for generated samples.

    ``$TBNB_CACHE_DIR`` wins; otherwise the platform's user cache location
    (``$XDG_CACHE_HOME`` or ``~/.cache`` on Linux, ``~/Library/Caches`` on macOS,
    ``%LOCALAPPDATA%`` on Windows), with a ``tbnb`` sub-directory.

    Examples
    --------
    >>> from tbnb.notebook.samples import cache_dir
    >>> cache_dir().name in {"tbnb", "cache"} or True
    True
    """
    env = os.environ.get("TBNB_CACHE_DIR")
    if env:
        return Path(env).expanduser()
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "tbnb"


def sample_logdir(path: str | os.PathLike[str] | None = None) -> Path:
    """Return the path of the sample logdir, generating it on first use.

    Parameters
    ----------
    path : str or path-like, optional
        Where the logdir lives. Default: ``cache_dir() / "samples" / "sweep-v<N>-<hash>"``,
        the hash that of the code writing the sample.
        An existing complete sample there is reused; an existing non-empty
        directory that is not a sample is refused (nothing is overwritten).

    Returns
    -------
    pathlib.Path
        The logdir: one run directory per (learning rate, seed).

    Raises
    ------
    ImportError
        If tensorboardX (the writer used to create the sample), pillow or soundfile
        (its image and audio encoders) is missing: ``pip install 'tbnb[demo]'``.
    FileExistsError
        If ``path`` is a non-empty directory that is not a tbnb sample.

    Examples
    --------
    >>> import tbnb
    >>> from tbnb.notebook.samples import sample_logdir
    >>> exp = tbnb.load(sample_logdir(), progress=False)
    >>> len(exp.runs)
    9
    """
    target = (
        Path(path).expanduser()
        if path is not None
        else cache_dir() / "samples" / f"sweep-v{SAMPLE_VERSION}-{_writer_fingerprint()}"
    )
    if (target / _COMPLETE).is_file():
        return target
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise FileExistsError(
            f"{target} exists and is not a tbnb sample logdir; choose an empty or new directory"
        )
    target.parent.mkdir(parents=True, exist_ok=True)
    # Generate beside the target and rename at the end, so an interrupted
    # generation never leaves a half-written sample that looks complete.
    tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}-", dir=target.parent))
    try:
        write_sample(tmp, DEFAULT_SPEC)
        (tmp / _COMPLETE).write_text(f"{SAMPLE_VERSION}\n")
        if target.exists():
            target.rmdir()  # empty (checked above)
        try:
            tmp.rename(target)
        except OSError:
            # Another process finished first: use its copy.
            if not (target / _COMPLETE).is_file():
                raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return target


def _writer_fingerprint() -> str:
    """A short hash of the code that writes the sample (this module and its kinds)."""
    digest = hashlib.sha256()
    for module in (__file__, sample_kinds.__file__):
        digest.update(Path(module).read_bytes())
    return digest.hexdigest()[:10]


def write_sample(logdir: str | os.PathLike[str], spec: SampleSpec = DEFAULT_SPEC) -> list[str]:
    """Write the sample sweep into ``logdir`` with tensorboardX and return the run names.

    Parameters
    ----------
    logdir : str or path-like
        Directory to write into (created if missing).
    spec : SampleSpec
        Size of the sweep; the default is what :func:`sample_logdir` writes.

    Returns
    -------
    list of str
        The run names (sub-directories), in the order written.

    Examples
    --------
    >>> import tempfile
    >>> from tbnb.notebook.samples import SampleSpec, write_sample
    >>> spec = SampleSpec(learning_rates=(0.01,), seeds=(0,), steps=20, val_every=10,
    ...                   hist_every=10, image_steps=(0,))
    >>> write_sample(tempfile.mkdtemp(), spec)
    ['lr=0.01,seed=0']
    """
    # The writer, and what its add_image/add_embedding (PNG) and add_audio (WAV) encode
    # with: checked before anything is written.
    for module in WRITER_MODULES:
        require(module, "writing the tbnb sample logdir", "demo")
    from tensorboardX import SummaryWriter

    root = Path(logdir)
    root.mkdir(parents=True, exist_ok=True)
    names = spec.run_names()
    for index, name in enumerate(names):
        lr = spec.learning_rates[index // len(spec.seeds)]
        seed = spec.seeds[index % len(spec.seeds)]
        t0 = _T0 + index * _RUN_SPACING
        writer = SummaryWriter(logdir=str(root / name), flush_secs=3600, max_queue=100_000)
        try:
            _write_run(writer, spec, lr=lr, seed=seed, t0=t0, first=index == 0)
        finally:
            writer.close()
        sample_kinds.stamp_file_versions(str(root / name), t0)
    return names


def _curves(spec: SampleSpec, lr: float, seed: int) -> dict[str, np.ndarray]:
    """Simulated learning curves of one run (deterministic in ``lr`` and ``seed``)."""
    rng = np.random.default_rng([seed, round(lr * 1e6)])
    steps = np.arange(spec.steps, dtype=np.float64)
    # Warm-up then cosine decay, as most schedules.
    warmup = max(1, spec.steps // 20)
    sched = np.where(
        steps < warmup,
        (steps + 1) / warmup,
        0.5 * (1 + np.cos(np.pi * (steps - warmup) / max(1, spec.steps - warmup))),
    )
    lr_curve = lr * sched
    # Progress grows with the accumulated learning rate; a too-large rate plateaus higher.
    progress = np.cumsum(lr_curve) / (lr * spec.steps / 6)
    floor = 0.08 + 0.35 * max(0.0, np.log10(lr / 3e-3)) + 0.02 * seed
    loss = floor + (2.3 - floor) * np.exp(-progress)
    # Per-batch noise, small enough that curves stay readable at 2,000 steps.
    noise = rng.standard_normal((2, spec.steps))
    train_loss = loss * (1 + 0.035 * noise[0]) + 0.005 * noise[1]
    train_acc = np.clip(1 - loss / 2.5 + 0.012 * rng.standard_normal(spec.steps), 0, 1)
    val_steps = np.arange(0, spec.steps, spec.val_every)
    val_steps = np.unique(np.append(val_steps, spec.steps - 1))
    gap = 1 + 0.15 * (val_steps / spec.steps)  # mild overfitting
    val_loss = loss[val_steps] * gap * (1 + 0.03 * rng.standard_normal(val_steps.size))
    val_acc = np.clip(1 - val_loss / 2.5 + 0.01 * rng.standard_normal(val_steps.size), 0, 1)
    return {
        "lr": lr_curve,
        "train/loss": np.abs(train_loss),
        "train/acc": train_acc,
        "val_steps": val_steps,
        "val/loss": val_loss,
        "val/acc": val_acc,
    }


def _write_run(
    writer: Any, spec: SampleSpec, *, lr: float, seed: int, t0: float, first: bool
) -> None:
    curves = _curves(spec, lr, seed)
    rng = np.random.default_rng([seed, round(lr * 1e6), 1])
    last = spec.steps - 1

    def wall(step: int) -> float:
        return t0 + step * _STEP_SECONDS

    def quality(step: int) -> float:
        return step / max(1, last)

    if first:  # the layout is written once, by the first run, as scripts do
        sample_kinds.write_layout(writer, wall(0))
        sample_kinds.write_profile(writer.file_writer.get_logdir(), rng, wall(1))
    sample_kinds.write_graph(writer, wall(0))
    writer.add_text("config", _config_markdown(lr, seed), 0, walltime=wall(0))
    val_at = {int(s): i for i, s in enumerate(curves["val_steps"])}
    hist_scale = {"weights/layer1": 0.5, "weights/layer2": 0.2}
    for step in range(spec.steps):
        t = wall(step)
        writer.add_scalar("train/loss", float(curves["train/loss"][step]), step, walltime=t)
        writer.add_scalar("train/acc", float(curves["train/acc"][step]), step, walltime=t)
        writer.add_scalar("lr", float(curves["lr"][step]), step, walltime=t)
        i = val_at.get(step)
        if i is not None:
            writer.add_scalar("val/loss", float(curves["val/loss"][i]), step, walltime=t + 1.0)
            writer.add_scalar("val/acc", float(curves["val/acc"][i]), step, walltime=t + 1.0)
        if step % spec.hist_every == 0 or step == last:
            spread = 1 + 2 * lr * 100 * step / spec.steps
            for tag, scale in hist_scale.items():
                values = rng.normal(0.0, scale * spread, size=2048)
                writer.add_histogram(tag, values, step, bins="tensorflow", walltime=t)
        if step in spec.image_steps:
            q = quality(step)
            writer.add_image(
                "samples/predictions",
                sample_kinds.prediction_image(rng, q),
                step,
                walltime=t + 1.0,
                dataformats="HWC",
            )
            writer.add_audio(
                "samples/chime",
                sample_kinds.prediction_audio(rng, q),
                step,
                sample_rate=sample_kinds.AUDIO_RATE,
                walltime=t + 1.0,
            )
            skill = q * float(curves["val/acc"][-1])  # better runs separate classes better
            sample_kinds.write_pr_curves(writer, rng, step, skill, walltime=t + 1.0)
            if seed in spec.embedding_seeds:
                sample_kinds.write_mesh(writer, rng, step, q, walltime=t + 1.0)
    if seed in spec.embedding_seeds:
        sample_kinds.write_embedding(writer, rng, last, quality(last))
    best = float(curves["val/acc"].max())
    writer.add_text("notes", _notes_markdown(spec.steps, best), last, walltime=wall(last) + 1.0)
    # add_hparams' sub-run, named after the run's own (simulated) end time.
    sample_kinds.write_hparams(
        writer.file_writer.get_logdir(),
        {"lr": lr, "seed": seed, "optimizer": "adam", "batch_size": 64},
        {
            "hparam/val_loss": float(curves["val/loss"][-1]),
            "hparam/val_acc": float(curves["val/acc"][-1]),
        },
        int(curves["val_steps"][-1]),
        wall(last) + 2.0,
    )


def _config_markdown(lr: float, seed: int) -> str:
    return (
        "**model**: mlp-2x256  \n**optimizer**: adam  \n"
        f"**lr**: {lr:g}  \n**seed**: {seed}\n\n"
        "| setting | value |\n|---|---|\n"
        f"| learning rate | {lr:g} |\n| batch size | 64 |\n| schedule | warm-up + cosine |"
    )


def _notes_markdown(steps: int, best: float) -> str:
    return (
        f"finished {steps} steps; best val/acc **{best:.3f}**\n\n"
        "- weights stay centred; their spread grows with the learning rate\n"
        "- see the *PR curves* and *Projector* tabs for the classifier's last state"
    )
