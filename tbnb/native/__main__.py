"""``python -m tbnb.native``: build the native kernels in place (:mod:`tbnb.native.build`)."""

from __future__ import annotations

import sys

from tbnb.native.build import main

if __name__ == "__main__":
    sys.exit(main())
