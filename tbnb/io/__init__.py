"""Layer ``io``: bytes. CRC32C, TFRecord framing, reading files, finding runs in a logdir.

It knows nothing about protobuf or kinds of data, and imports only the layer-0 rooms:
:mod:`tbnb.warnings` and :mod:`tbnb.native` (the C kernels).
"""
