"""The compiled (numba) scalar decoder: wire primitives, validators, layouts, interning.

Imported only when :mod:`tbnb.jit` has the ``loader`` group in its cache (or a test
asks for it): loads that take the numpy path never import numba.
"""
