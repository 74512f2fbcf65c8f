"""Which library wrote a run, from what its event files tell (the Runs tab's ``writer``).

Few files say who wrote them: TensorBoard's own ``EventFileWriter`` (which torch's
``SummaryWriter`` and PyTorch Lightning use) names itself in the ``source_metadata``
of its first event; TensorFlow, tensorboardX and older torch write nothing there. The
file name and the records tell the rest:

- ``source_metadata`` of TensorBoard's writer, in a file without TensorFlow's ``.v2``
  suffix: ``torch.utils.tensorboard`` (``PyTorch Lightning`` when the run is one of its
  ``version_<n>`` folders); with the ``.v2`` suffix: TensorBoard's ``EventFileWriter``;
  any other ``source_metadata``: its own words (``tensorflow...``: ``TensorFlow``);
- no ``source_metadata``: a ``.v2`` suffix is TensorFlow 2 (``tf.summary`` file writers,
  the Keras callback); a name without a process id (``events.out.tfevents.<time>.<host>``)
  is TensorFlow 1 when the run logged a ``GraphDef``/``MetaGraphDef`` or session
  statistics (``FileWriter``, Estimators), else tensorboardX;
- anything else: ``unknown``.

Examples
--------
>>> infer_writer("version_0", ["events.out.tfevents.1700000000.vm.42.0"],
...              ["tensorboard.summary.writer.event_file_writer"], set())
'PyTorch Lightning (torch.utils.tensorboard)'
>>> infer_writer(".", ["events.out.tfevents.1700000000.vm.42.1.v2"], [""], set())
'TensorFlow 2'
>>> infer_writer(".", ["events.out.tfevents.1700000000.vm"], [""], {"graph_def"})
'TensorFlow 1'
>>> infer_writer(".", ["tfevents.bin"], [""], set())
'unknown'
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Collection, Sequence

__all__ = ["TENSORBOARD_WRITER", "UNKNOWN", "infer_writer"]

TENSORBOARD_WRITER = "tensorboard.summary.writer.event_file_writer"
"""The ``source_metadata.writer`` of TensorBoard's ``EventFileWriter``."""

UNKNOWN = "unknown"

_NAME = re.compile(r"tfevents\.\d+\.(?P<rest>.+)$")
_WITH_PID = re.compile(r"\.\d+\.\d+(\..*)?$")  # <host>.<pid>.<counter>[<suffix>]
_LIGHTNING = re.compile(r"(^|/)version_\d+$")
_TF1_RECORDS = {"graph_def", "meta_graph_def", "tagged_run_metadata"}


def _file_writer(run: str, name: str, source: str, graphs: Collection[str]) -> str:
    v2 = name.endswith(".v2")
    if source == TENSORBOARD_WRITER:
        if v2:
            return "tensorboard EventFileWriter"
        torch = "torch.utils.tensorboard"
        return f"PyTorch Lightning ({torch})" if _LIGHTNING.search(run) else torch
    if source:
        return "TensorFlow" if source.startswith("tensorflow") else source
    if v2:
        return "TensorFlow 2"
    match = _NAME.search(name)
    if match is None:
        return UNKNOWN
    if not _WITH_PID.search(match["rest"]):
        return "TensorFlow 1" if _TF1_RECORDS & set(graphs) else "tensorboardX"
    return UNKNOWN


def infer_writer(
    run: str, paths: Sequence[str], sources: Sequence[str], graphs: Collection[str]
) -> str:
    """The library that wrote a run's event files, or ``"unknown"``.

    Parameters
    ----------
    run
        The run's name (relative to the logdir).
    paths, sources
        Each event file's path and the ``source_metadata.writer`` it holds ("" if none).
    graphs
        The kinds of graph records the run holds (``graph_def``, ``meta_graph_def``, ...).

    Several files written by different libraries give each one, comma-separated.
    """
    names = {
        _file_writer(run, posixpath.basename(path), source, graphs)
        for path, source in zip(paths, sources, strict=True)
    }
    known = sorted(n for n in names if n != UNKNOWN)
    return ", ".join(known) if known else UNKNOWN
