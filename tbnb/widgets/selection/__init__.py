"""The dashboard's one run selection: which runs every tab shows (see :mod:`.widget`)."""

from tbnb.widgets.selection.prepare import apply_hparams
from tbnb.widgets.selection.widget import RunSelectionWidget, follow_hparams, share_runs

__all__ = ["RunSelectionWidget", "apply_hparams", "follow_hparams", "share_runs"]
