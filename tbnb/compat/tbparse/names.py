"""tbparse's vocabulary: its event types, extra columns, and which kinds feed each type.

tbparse's event types share their names with tbnb's kinds, but not their content:
its ``tensors`` holds every tensor-valued summary that is not text or hparams (PR
curves, custom-scalar layouts, Keras graphs and the tensor forms of TF2 histograms,
images and audio). Which kinds feed each type is declared by each kind
(:attr:`tbnb.kinds.base.Kind.tbparse`).

Examples
--------
>>> sorted(KINDS_FOR["histograms"])
['histograms']
"""

from __future__ import annotations

from tbnb.kinds import KINDS

SCALARS, TENSORS, HISTOGRAMS, IMAGES, AUDIO, HPARAMS, TEXT = (
    "scalars",
    "tensors",
    "histograms",
    "images",
    "audio",
    "hparams",
    "text",
)

TYPE_ORDER = (IMAGES, AUDIO, HISTOGRAMS, SCALARS, TENSORS, HPARAMS, TEXT)
"""tbparse's event types, in the order of its per-type dictionaries (``_make_empty_dict``)."""

ALL_EVENT_TYPES = frozenset(TYPE_ORDER)
"""Event types a :class:`~tbnb.compat.tbparse.SummaryReader` can parse."""

ALL_EXTRA_COLUMNS = frozenset(
    {
        "dir_name",
        "file_name",
        "wall_time",
        "min",
        "max",
        "num",
        "sum",
        "sum_squares",
        "width",
        "height",
        "content_type",
        "length_frames",
        "sample_rate",
    }
)
"""Extra columns a :class:`~tbnb.compat.tbparse.SummaryReader` can add."""

KINDS_FOR = {t: frozenset(k.key for k in KINDS.values() if t in k.tbparse) for t in TYPE_ORDER}
"""Loader kinds each tbparse event type needs."""

TEXT_SUFFIX = "/text_summary"  # torch and tensorboardX append it to text tags
SSI_TAG = "_hparams_/session_start_info"
PLACE_LAST = ("wall_time", "dir_name", "file_name")
