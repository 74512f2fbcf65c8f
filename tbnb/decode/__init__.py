"""Layer ``decode``: record payloads into values.

The fast decoders of the common scalar layouts (:mod:`~tbnb.decode.scalars`): numpy
(:mod:`~tbnb.decode.layouts`), native C (:mod:`tbnb.native`) and numba
(:mod:`~tbnb.decode.compiled`: wire primitives, validators, tag interner, the grouping
kernel), and ``TensorProto`` -> numpy (:mod:`~tbnb.decode.tensors`). Imports only ``io``,
``jit``, ``native`` and the schemas.
"""
