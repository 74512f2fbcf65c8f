"""numba kernels of the analysis layer's curve statistics (``tbnb.jit`` group ``curves``)."""
