"""Protobuf message classes for TensorBoard event files, built from a shipped descriptor set.

The schemas live in ``protos/`` (TensorBoard's field numbers: wire compatibility is
the contract). ``descriptors.binpb`` is their compiled ``FileDescriptorSet``; the
classes are created here in a private descriptor pool, so they never clash with
TensorFlow's or TensorBoard's own copies when those are imported in the same
process, and the same file works with protobuf 4.21 through 7.x.

Examples
--------
>>> from tbnb._proto import Event
>>> Event.FromString(Event(step=3, file_version="brain.Event:2").SerializeToString()).step
3
"""

from __future__ import annotations

from importlib import resources
from typing import Any

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

_pool = descriptor_pool.DescriptorPool()
_files = descriptor_pb2.FileDescriptorSet.FromString(
    resources.files(__package__).joinpath("descriptors.binpb").read_bytes()
)
for _file in _files.file:
    _pool.AddSerializedFile(_file.SerializeToString())

if hasattr(message_factory, "GetMessageClass"):  # protobuf >= 4.22
    _get_class = message_factory.GetMessageClass
else:  # protobuf 4.21
    _factory = message_factory.MessageFactory(_pool)
    _get_class = _factory.GetPrototype


def message_class(full_name: str) -> Any:
    """Return the message class for a fully qualified name such as ``tensorboard.Event``."""
    return _get_class(_pool.FindMessageTypeByName(full_name))


def enum_value(full_name: str, value_name: str) -> int:
    """Return the number of enum value ``value_name`` in enum ``full_name``."""
    return int(_pool.FindEnumTypeByName(full_name).values_by_name[value_name].number)


Event: Any = message_class("tensorboard.Event")
Summary: Any = message_class("tensorboard.Summary")
SummaryMetadata: Any = message_class("tensorboard.SummaryMetadata")
HistogramProto: Any = message_class("tensorboard.HistogramProto")
TensorProto: Any = message_class("tensorboard.TensorProto")
TensorShapeProto: Any = message_class("tensorboard.TensorShapeProto")
SessionLog: Any = message_class("tensorboard.SessionLog")
LogMessage: Any = message_class("tensorboard.LogMessage")
TaggedRunMetadata: Any = message_class("tensorboard.TaggedRunMetadata")
SourceMetadata: Any = message_class("tensorboard.SourceMetadata")
AudioPluginData: Any = message_class("tensorboard.AudioPluginData")
PrCurvePluginData: Any = message_class("tensorboard.PrCurvePluginData")
MeshPluginData: Any = message_class("tensorboard.MeshPluginData")
TextPluginData: Any = message_class("tensorboard.TextPluginData")
Layout: Any = message_class("tensorboard.Layout")
HParamsPluginData: Any = message_class("tensorboard.hparams.HParamsPluginData")
HParamsExperiment: Any = message_class("tensorboard.hparams.Experiment")
ProjectorConfig: Any = message_class("tensorboard.ProjectorConfig")
GraphDef: Any = message_class("tensorboard.GraphDef")
MetaGraphDef: Any = message_class("tensorboard.MetaGraphDef")
RunMetadata: Any = message_class("tensorboard.RunMetadata")

__all__ = [
    "AudioPluginData",
    "Event",
    "GraphDef",
    "HParamsExperiment",
    "HParamsPluginData",
    "HistogramProto",
    "Layout",
    "LogMessage",
    "MeshPluginData",
    "MetaGraphDef",
    "PrCurvePluginData",
    "ProjectorConfig",
    "RunMetadata",
    "SessionLog",
    "SourceMetadata",
    "Summary",
    "SummaryMetadata",
    "TaggedRunMetadata",
    "TensorProto",
    "TensorShapeProto",
    "TextPluginData",
    "enum_value",
    "message_class",
]
