"""Layer ``decode``: record payloads into values.

The compiled decoder for the common scalar layouts (:mod:`~tbnb.decode.scalars`,
built from the wire primitives, validators and tag interner beside it), its
warm-up, and ``TensorProto`` -> numpy (:mod:`~tbnb.decode.tensors`). Imports only
``io`` and the schemas.
"""
