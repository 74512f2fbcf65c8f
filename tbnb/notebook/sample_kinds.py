"""What the sample logdir logs besides scalars: every other kind, through tensorboardX.

Each function writes one kind of summary into an open tensorboardX ``SummaryWriter``
the way a training script would, with the simulated wall times of
:mod:`tbnb.notebook.samples` (``walltime=`` on every call: the writers' defaults use
the clock, which would stretch the sample's time span to the day it was generated).

Kinds written here: histograms (read again as distributions), images, audio, text
with markdown, PR curves, the custom-scalars layout, a model graph, hparams (as
``add_hparams`` writes them, in a sub-run), a projector embedding with metadata
and a sprite, a point cloud (``add_mesh``), and a profiler trace (:func:`write_profile`:
the layout torch.profiler's ``tensorboard_trace_handler`` writes, simulated as the
scalars are).

Examples
--------
>>> import numpy as np
>>> clip = prediction_audio(np.random.default_rng(0), quality=1.0)
>>> clip.dtype.name, clip.shape, float(np.abs(clip).max()) <= 1.0
('float32', (4000,), True)
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

__all__ = [
    "AUDIO_RATE",
    "CLASSES",
    "LAYOUT",
    "model_graph",
    "prediction_audio",
    "prediction_image",
    "stamp_file_versions",
    "write_embedding",
    "write_graph",
    "write_hparams",
    "write_layout",
    "write_pr_curves",
    "write_profile",
]

AUDIO_RATE = 8000
"""Sample rate of the sample's audio clips (half a second each)."""

CLASSES = ("cat", "dog", "ship", "truck")
"""The simulated classifier's classes (PR curves, projector labels)."""

LAYOUT: dict[str, dict[str, list[Any]]] = {
    "Training": {
        "loss (train vs val)": ["Multiline", [r"^(train|val)/loss$"]],
        "accuracy (train vs val)": ["Multiline", [r"^(train|val)/acc$"]],
    },
    "Schedule": {
        "learning rate": ["Multiline", ["^lr$"]],
    },
}
"""The custom-scalars layout (tensorboardX ``add_custom_scalars`` form)."""


def prediction_image(rng: np.random.Generator, quality: float) -> np.ndarray:
    """A 64x64 RGB uint8 'prediction grid': noise at ``quality`` 0, stripes at 1.

    Examples
    --------
    >>> import numpy as np
    >>> prediction_image(np.random.default_rng(0), 0.5).shape
    (64, 64, 3)
    """
    size, cells = 64, 4
    yy, xx = np.mgrid[0:size, 0:size] / size
    img = np.zeros((size, size, 3), dtype=np.float64)
    for c in range(3):
        phase = rng.uniform(0, 2 * np.pi)
        img[..., c] = 0.5 + 0.5 * np.sin(2 * np.pi * cells * (xx + yy * (c + 1) / 3) + phase)
    noise = rng.uniform(0, 1, size=img.shape)
    mixed = quality * img + (1 - quality) * noise
    return (np.clip(mixed, 0, 1) * 255).astype(np.uint8)


def prediction_audio(rng: np.random.Generator, quality: float) -> np.ndarray:
    """Half a second of a two-tone chime buried in noise that fades as ``quality`` grows.

    Returns float32 samples in [-1, 1] at :data:`AUDIO_RATE`.
    """
    t = np.arange(AUDIO_RATE // 2) / AUDIO_RATE
    tone = 0.5 * np.sin(2 * np.pi * 440 * t) + 0.3 * np.sin(2 * np.pi * 660 * t)
    envelope = np.minimum(1.0, 20 * t) * np.exp(-3 * t)
    noise = rng.uniform(-1, 1, size=t.size)
    clip: np.ndarray = np.clip(
        0.9 * (quality * tone * envelope + (1 - quality) * 0.6 * noise), -1, 1
    )
    return clip.astype(np.float32)


def write_pr_curves(
    writer: Any, rng: np.random.Generator, step: int, quality: float, walltime: float
) -> None:
    """One-vs-rest PR curves of the first two classes on 200 simulated validation images.

    ``quality`` (0 to 1: training progress times the run's final accuracy) sets how far
    apart the scores of positives and negatives are.
    """
    n = 200
    for name in CLASSES[:2]:
        labels = rng.random(n) < 0.3
        margin = 0.05 + 0.45 * quality
        scores = np.where(labels, 0.5 + margin / 2, 0.5 - margin / 2) + rng.normal(0, 0.22, n)
        writer.add_pr_curve(
            f"pr/{name}", labels, np.clip(scores, 0, 1), step, num_thresholds=33, walltime=walltime
        )


def write_mesh(
    writer: Any, rng: np.random.Generator, step: int, quality: float, walltime: float
) -> None:
    """A point cloud of the validation features, one colour per class, as ``add_mesh`` writes it.

    The classes start as one blob and pull apart as ``quality`` grows from 0 to 1.
    """
    centres = np.array([[1, 1, 1], [-1, -1, 1], [-1, 1, -1], [1, -1, -1]], dtype=np.float32)
    palette = np.array([[230, 97, 1], [94, 60, 153], [27, 158, 119], [217, 95, 2]], np.uint8)
    labels = rng.integers(0, len(CLASSES), size=600)
    points = centres[labels] * (0.2 + 1.8 * quality) + rng.normal(0, 0.45, (600, 3))
    writer.add_mesh(
        "features/point_cloud",
        vertices=points[None].astype(np.float32),
        colors=palette[labels][None],
        global_step=step,
        walltime=walltime,
    )


def write_layout(writer: Any, walltime: float) -> None:
    """The custom-scalars layout, as ``add_custom_scalars`` writes it (with a wall time)."""
    from tensorboardX.summary import custom_scalars

    writer.file_writer.add_summary(custom_scalars(LAYOUT), 0, walltime=walltime)


def model_graph(hidden: int = 256, inputs: int = 32, classes: int = len(CLASSES)) -> Any:
    """The op graph (``GraphDef``) of the sample's two-layer MLP classifier.

    Examples
    --------
    >>> [node.name for node in model_graph().node][:3]
    ['input', 'layer1/weight', 'layer1/bias']
    """
    from tensorboardX.proto import graph_pb2

    graph = graph_pb2.GraphDef()
    graph.versions.producer = 22

    def node(name: str, op: str, inputs: list[str], shape: list[int]) -> None:
        proto = graph.node.add(name=name, op=op, input=inputs, device="/device:CPU:0")
        proto.attr["T"].type = 1  # float32
        out = proto.attr["_output_shapes"].list.shape.add()
        for size in shape:
            out.dim.add(size=size)

    node("input", "Placeholder", [], [-1, inputs])
    previous, width_in = "input", inputs
    for layer, width in (("layer1", hidden), ("layer2", hidden), ("head", classes)):
        node(f"{layer}/weight", "VariableV2", [], [width_in, width])
        node(f"{layer}/bias", "VariableV2", [], [width])
        node(f"{layer}/MatMul", "MatMul", [previous, f"{layer}/weight"], [-1, width])
        node(f"{layer}/BiasAdd", "BiasAdd", [f"{layer}/MatMul", f"{layer}/bias"], [-1, width])
        previous, width_in = f"{layer}/BiasAdd", width
        if layer != "head":
            node(f"{layer}/Relu", "Relu", [previous], [-1, width])
            previous = f"{layer}/Relu"
    node("labels", "Placeholder", [], [-1])
    node("loss/xent", "SparseSoftmaxCrossEntropyWithLogits", [previous, "labels"], [-1])
    node("loss/mean", "Mean", ["loss/xent"], [])
    node("predictions", "Softmax", [previous], [-1, classes])
    return graph


def write_graph(writer: Any, walltime: float) -> None:
    """The model graph, as a graph event (what ``add_graph`` writes, without a profile)."""
    from tensorboardX.proto import event_pb2

    event = event_pb2.Event(graph_def=model_graph().SerializeToString())
    writer.file_writer.add_event(event, None, walltime)


def write_hparams(
    run_dir: str, hparams: dict[str, Any], metrics: dict[str, float], step: int, walltime: float
) -> None:
    """What tensorboardX's ``add_hparams`` writes, with a wall time instead of the clock.

    Like ``add_hparams``, a sub-run named after the (simulated) time holds the
    experiment, session start and end summaries and one scalar per metric.
    """
    from tensorboardX import SummaryWriter
    from tensorboardX.summary import hparams as hparams_summaries

    experiment, start, end = hparams_summaries(hparams, metrics)
    with SummaryWriter(logdir=os.path.join(run_dir, f"{walltime:.6f}")) as sub:
        for summary in (experiment, start, end):
            sub.file_writer.add_summary(summary, None, walltime=walltime)
        for tag, value in metrics.items():
            sub.add_scalar(tag, value, step, walltime=walltime)


def write_embedding(
    writer: Any, rng: np.random.Generator, step: int, quality: float, points: int = 256
) -> None:
    """Penultimate-layer features of validation images, with labels and a sprite.

    Classes separate better as ``quality`` grows. tensorboardX writes the projector's
    files (``projector_config.pbtxt``, tensors, metadata and sprite), no event. ``points``
    is a square number: tensorboardX pads a sprite that is not a full square grid with
    uninitialised memory.
    """
    labels = rng.integers(0, len(CLASSES), size=points)
    centres = rng.normal(0, 1, size=(len(CLASSES), 16))
    features = centres[labels] * (0.5 + 2.5 * quality) + rng.normal(0, 1, size=(points, 16))
    predicted = np.where(
        rng.random(points) < 0.6 + 0.35 * quality,
        labels,
        rng.integers(0, len(CLASSES), size=points),
    )
    metadata = [[CLASSES[a], CLASSES[b]] for a, b in zip(labels, predicted, strict=True)]
    hues = np.array([[0.9, 0.3, 0.2], [0.2, 0.6, 0.9], [0.3, 0.8, 0.3], [0.9, 0.8, 0.2]])
    thumbs = np.empty((points, 3, 12, 12), dtype=np.float32)
    yy, xx = np.mgrid[0:12, 0:12] / 11
    for i, label in enumerate(labels):
        shade = 0.35 + 0.65 * (xx + yy) / 2
        thumbs[i] = hues[label][:, None, None] * shade[None] + rng.uniform(0, 0.1, (3, 12, 12))
    writer.add_embedding(
        features.astype(np.float32),
        metadata=metadata,
        label_img=np.clip(thumbs, 0, 1),
        global_step=step,
        tag="val/features",
        metadata_header=["label", "predicted"],
    )


def stamp_file_versions(run_dir: str, walltime: float) -> int:
    """Give the first record (``file_version``) of each event file under ``run_dir`` a wall time.

    tensorboardX stamps that record with the clock when the writer opens; the sample's
    other records carry simulated times, and readers count the file-version record in a
    run's time span. The record is re-framed with tensorboardX's own checksum; the
    rest of the file is left byte for byte. Returns the number of files rewritten.
    """
    import struct

    from tensorboardX.proto import event_pb2
    from tensorboardX.record_writer import masked_crc32c

    rewritten = 0
    for directory, _, files in os.walk(run_dir):
        for name in files:
            if ".tfevents." not in name:
                continue
            path = os.path.join(directory, name)
            with open(path, "rb") as handle:
                data = handle.read()
            (length,) = struct.unpack("<Q", data[:8])
            event = event_pb2.Event.FromString(data[12 : 12 + length])
            if not event.file_version:
                continue
            event.wall_time = walltime
            body = event.SerializeToString()
            header = struct.pack("<Q", len(body))
            framed = (
                header
                + struct.pack("<I", masked_crc32c(header))
                + body
                + struct.pack("<I", masked_crc32c(body))
            )
            with open(path, "wb") as handle:
                handle.write(framed + data[16 + length :])
            rewritten += 1
    return rewritten


_FORWARD = (
    ("aten::linear", "aten::addmm", "sm80_xmma_gemm_f32f32_tn"),
    ("aten::relu", "aten::clamp_min", "vectorized_elementwise_kernel<relu>"),
)
_BACKWARD = (
    ("autograd::engine::evaluate_function: AddmmBackward0", "aten::mm", "sm80_xmma_gemm_f32f32_nt"),
    (
        "autograd::engine::evaluate_function: ReluBackward0",
        "aten::threshold_backward",
        "vectorized_elementwise_kernel<threshold>",
    ),
)


def write_profile(run_dir: str, rng: np.random.Generator, walltime: float, steps: int = 4) -> str:
    """A torch.profiler trace of ``steps`` training steps, simulated, in Kineto's format.

    Written where ``tensorboard_trace_handler`` writes (``<run>/<worker>.<id>.pt.trace.json``):
    ``ProfilerStep#N`` spans, a DataLoader fetch, operators nesting their child operators,
    ``cudaLaunchKernel`` calls joined to their kernels on stream 7 by correlation id, and
    allocator samples. Returns the file's path.
    """
    import json

    pid = 4242
    events: list[dict[str, Any]] = [
        {"ph": "M", "name": "process_name", "pid": pid, "tid": 0, "args": {"name": "python3"}},
        {
            "ph": "M",
            "name": "thread_name",
            "pid": pid,
            "tid": pid,
            "args": {"name": "thread 4242 (python3)"},
        },
        {"ph": "M", "name": "process_labels", "pid": 0, "tid": 0, "args": {"labels": "GPU 0"}},
        {"ph": "M", "name": "thread_name", "pid": 0, "tid": 7, "args": {"name": "stream 7 "}},
    ]
    ts = walltime * 1e6
    device_free = ts
    correlation = 1
    allocated = 64 << 20

    def span(cat: str, name: str, start: float, dur: float, **args: Any) -> dict[str, Any]:
        where = {"pid": 0, "tid": 7} if cat == "kernel" else {"pid": pid, "tid": pid}
        return {
            "ph": "X",
            "cat": cat,
            "name": name,
            **where,
            "ts": round(start, 3),
            "dur": round(dur, 3),
            "args": args,
        }

    for step in range(steps):
        begin = ts
        fetch = float(rng.uniform(300, 2500))  # a slow input pipeline starves the GPU
        events.append(
            span(
                "user_annotation",
                "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__",
                ts,
                fetch,
            )
        )
        ts += fetch + 5
        for outer, inner, kernel in (*_FORWARD, *_BACKWARD):
            size = int(rng.integers(1, 8)) << 20
            allocated += size
            op_start = ts
            inner_start = ts + 4
            launch = inner_start + 6
            events.append(
                span("cuda_runtime", "cudaLaunchKernel", launch, 5.0, correlation=correlation)
            )
            duration = float(rng.uniform(40, 400))
            kernel_start = max(device_free, launch + float(rng.uniform(3, 9)))
            device_free = kernel_start + duration
            events.append(
                span(
                    "kernel",
                    kernel,
                    kernel_start,
                    duration,
                    stream=7,
                    device=0,
                    correlation=correlation,
                    grid=[128, 1, 1],
                    block=[256, 1, 1],
                )
            )
            events.append(
                {
                    "ph": "i",
                    "s": "t",
                    "cat": "cpu_instant_event",
                    "name": "[memory]",
                    "pid": pid,
                    "tid": pid,
                    "ts": round(launch - 1, 3),
                    "args": {
                        "Total Reserved": 512 << 20,
                        "Total Allocated": allocated,
                        "Bytes": size,
                        "Device Id": 0,
                        "Device Type": 1,
                        "Addr": 1 << 40,
                    },
                }
            )
            events.append(
                span("cpu_op", inner, inner_start, 16.0, **{"Input Dims": [[64, 256], [256, 256]]})
            )
            events.append(span("cpu_op", outer, op_start, 24.0))
            correlation += 1
            ts += 30
        allocated = 64 << 20
        end = max(ts, device_free) + 10
        events.append(span("user_annotation", f"ProfilerStep#{step}", begin, end - begin))
        ts = end + 5
    path = os.path.join(run_dir, f"sample-host_{pid}.{int(walltime * 1000)}.pt.trace.json")
    with open(path, "w", encoding="utf-8") as handle:
        json.dump({"schemaVersion": 1, "displayTimeUnit": "ms", "traceEvents": events}, handle)
    return path
