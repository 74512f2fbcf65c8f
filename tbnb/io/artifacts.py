"""What the files of a logdir without event files are, and what reading them would need.

A folder handed to ``tbnb.load`` may hold no event file yet hold something else a
training run leaves behind: a TensorFlow checkpoint (the TF2 projector tutorial's
``embedding.ckpt-1`` beside a ``projector_config.pbtxt``), a PyTorch or Lightning
checkpoint, a SavedModel, profiler traces, configuration. :func:`describe_artifacts`
names each kind found, in one sentence per kind, with what would read it.

Examples
--------
>>> found = describe_artifacts(["checkpoint", "embedding.ckpt-1.index",
...     "embedding.ckpt-1.data-00000-of-00001", "projector_config.pbtxt", "metadata.tsv"])
>>> for clause in found.split("; "):
...     print(clause.split(":")[0])
a TensorFlow checkpoint ('embedding.ckpt-1')
a projector config ('projector_config.pbtxt')
projector data ('metadata.tsv')
>>> describe_artifacts(["notes.txt"])
''
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable

__all__ = ["describe_artifacts"]

_TF_CHECKPOINT = re.compile(r"^(?P<prefix>.+)\.(index|data-\d{5}-of-\d{5})$")

_KINDS: tuple[tuple[str, re.Pattern[str], str], ...] = (
    (
        "a projector config",
        re.compile(r"^projector_config\.pbtxt$"),
        "exp.embeddings lists its embeddings (vectors kept in a checkpoint need TensorFlow, "
        "those in a tensors.tsv, as add_embedding writes them, are read)",
    ),
    (
        "projector data",
        re.compile(r"\.(tsv|bytes)$"),
        "read through the projector config naming it",
    ),
    (
        "PyTorch checkpoints",
        re.compile(r"\.(pt|pth|ckpt|bin|safetensors)$"),
        "model weights, not logs: torch.load (or safetensors) reads them",
    ),
    (
        "a SavedModel",
        re.compile(r"^saved_model\.pbtxt?$|^keras_metadata\.pb$|\.keras$|\.h5$"),
        "a saved model, not logs: TensorFlow or Keras loads it",
    ),
    (
        "configuration",
        re.compile(r"\.(ya?ml|json|cfg|ini|toml)$"),
        "exp.info reads the configuration beside event files",
    ),
    (
        "profiler traces",
        re.compile(r"^plugins$|\.(xplane\.pb|trace\.json(\.gz)?|pt\.trace\.json)$"),
        "a profile of a run: exp.profile and tbnb.profiler read them",
    ),
)


def describe_artifacts(names: Iterable[str]) -> str:
    """One clause per kind of artefact among file ``names`` (base names), "" if none known."""
    names = sorted({posixpath.basename(str(n).rstrip("/")) for n in names})
    clauses = []
    prefixes = sorted({m["prefix"] for n in names if (m := _TF_CHECKPOINT.match(n))})
    if prefixes or "checkpoint" in names:
        shown = ", ".join(repr(p) for p in prefixes) or "'checkpoint'"
        clauses.append(
            f"a TensorFlow checkpoint ({shown}): its variables need TensorFlow to read "
            "(tf.train.load_checkpoint)"
        )
    taken = {n for n in names if _TF_CHECKPOINT.match(n)} | {"checkpoint"}
    for what, pattern, reading in _KINDS:
        found = [n for n in names if n not in taken and pattern.search(n)]
        if found:
            taken.update(found)
            shown = ", ".join(repr(n) for n in found[:3]) + (" ..." if len(found) > 3 else "")
            clauses.append(f"{what} ({shown}): {reading}")
    return "; ".join(clauses)
