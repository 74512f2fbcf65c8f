"""Layer ``notebook``: the top floor. ``%tbnb``, the dashboard, HTML export, the sample logdir.

Examples
--------
>>> from tbnb.notebook import Dashboard, load_ipython_extension
"""

from __future__ import annotations

from tbnb.notebook.dashboard import Dashboard
from tbnb.notebook.magic import load_ipython_extension

__all__ = ["Dashboard", "load_ipython_extension"]
