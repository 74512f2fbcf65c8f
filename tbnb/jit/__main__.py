"""``python -m tbnb.jit``: compile tbnb's kernels into the user cache (:mod:`tbnb.jit.build`)."""

from __future__ import annotations

import sys

from tbnb.jit.build import main

if __name__ == "__main__":
    sys.exit(main())
