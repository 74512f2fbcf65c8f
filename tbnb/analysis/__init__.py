"""Layer ``analysis``: questions asked of a whole experiment.

The hparams table (:mod:`tbnb.analysis.hparams`) and parameter importance
(:mod:`tbnb.analysis.importance`). Above ``loader``; widgets build on it.
"""
