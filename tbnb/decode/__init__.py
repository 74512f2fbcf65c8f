"""Layer ``decode``: record payloads into values.

The fast event decoders (:mod:`~tbnb.decode.scalars`): numpy (:mod:`~tbnb.decode.layouts`,
the writers' one-scalar layouts) and native C (:mod:`tbnb.native`: every scalar decoded,
every other value indexed), and ``TensorProto`` -> numpy (:mod:`~tbnb.decode.tensors`).
Imports only ``io``, ``native`` and the schemas.
"""
