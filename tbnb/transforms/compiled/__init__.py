"""numba kernels of the transforms (the ``transforms`` group of :mod:`tbnb.jit`).

Imported only once :func:`tbnb.jit.load` found every kernel of the group in the cache;
until then the transforms take their numpy path, which gives the same results.
"""
