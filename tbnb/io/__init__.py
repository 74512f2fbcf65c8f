"""Layer ``io``: bytes. CRC32C, TFRecord framing, reading files, finding runs in a logdir.

The lowest layer: it knows nothing about protobuf or kinds of data, and imports no
other tbnb layer (only :mod:`tbnb.warnings`).
"""
