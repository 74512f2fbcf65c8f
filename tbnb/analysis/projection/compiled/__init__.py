"""The projector's numba kernels: the exact kNN graph's selection and UMAP's.

Group ``"projection"`` of :mod:`tbnb.jit`: compiled once per install in a detached
process, loaded from the cache afterwards (:mod:`tbnb.analysis.projection.kernels`
waits for them); nothing here is imported before a t-SNE or UMAP layout is asked for.
"""
