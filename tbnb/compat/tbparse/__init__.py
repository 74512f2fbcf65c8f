"""A drop-in for tbparse 0.0.9's ``SummaryReader``, built on the tbnb loader.

tbparse reads every event file on its own (one ``EventAccumulator`` per file) and
stacks the per-file frames directory by directory, sorting at each level. This
package reproduces that shape exactly (columns, their order, dtypes and row order)
from the normalised values the loader decodes (:func:`tbnb.loader.run.load_run`, one
task per event file, run in parallel), so that a tbparse user switches by changing
an import: ``from tbnb import SummaryReader``.
"""

from __future__ import annotations

from tbnb.compat.tbparse.decoding import decode_image, decode_wav, tensor_to_histogram
from tbnb.compat.tbparse.names import ALL_EVENT_TYPES, ALL_EXTRA_COLUMNS
from tbnb.compat.tbparse.reader import SummaryReader

__all__ = [
    "ALL_EVENT_TYPES",
    "ALL_EXTRA_COLUMNS",
    "SummaryReader",
    "decode_image",
    "decode_wav",
    "tensor_to_histogram",
]
