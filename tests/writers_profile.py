"""Profiler traces from real writers: torch.profiler and jax.profiler on the CPU, and the
GPU reference traces (torch ResNet-18 and JAX on an H100) shipped in
``tests/fixtures/profile/gpu_traces.tar.gz`` (see its README).
"""

from __future__ import annotations

import tarfile
from pathlib import Path

FIXTURES = Path(__file__).parent / "fixtures" / "profile"


def extract_gpu_traces(directory: Path) -> Path:
    """Unpack the GPU reference traces; returns the folder holding ``torch/`` and ``jax/``."""
    with tarfile.open(FIXTURES / "gpu_traces.tar.gz") as archive:
        archive.extractall(directory, filter="data")
    return directory / "traces"


def write_torch_profile(logdir: Path, *, steps: int = 6) -> Path:
    """A small CPU training loop profiled as users do: ``tensorboard_trace_handler`` beside
    a SummaryWriter's events, a DataLoader, shapes, memory and stacks recorded."""
    import torch
    from torch.profiler import (
        ProfilerActivity,
        profile,
        record_function,
        schedule,
        tensorboard_trace_handler,
    )
    from torch.utils.data import DataLoader, TensorDataset
    from torch.utils.tensorboard import SummaryWriter

    torch.manual_seed(0)
    run = logdir / "cpu_mlp"
    writer = SummaryWriter(str(run))
    data = TensorDataset(torch.randn(256, 64), torch.randint(0, 10, (256,)))
    loader = DataLoader(data, batch_size=32)
    model = torch.nn.Sequential(torch.nn.Linear(64, 128), torch.nn.ReLU(), torch.nn.Linear(128, 10))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    with profile(
        activities=[ProfilerActivity.CPU],
        schedule=schedule(wait=1, warmup=1, active=3),
        on_trace_ready=tensorboard_trace_handler(str(run)),
        record_shapes=True,
        profile_memory=True,
        with_stack=True,
    ) as prof:
        for step, (x, y) in enumerate(loader):
            if step >= steps:
                break
            with record_function("forward"):
                loss = torch.nn.functional.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            writer.add_scalar("loss", loss.item(), step)
            prof.step()
    writer.close()
    return run


def write_jax_profile(logdir: Path, *, steps: int = 4) -> Path:
    """A jitted matmul + tanh on the CPU, each step in ``StepTraceAnnotation``, traced with
    ``jax.profiler.trace`` into ``<logdir>/jax/plugins/profile/<session>/<host>.xplane.pb``."""
    import jax
    import jax.numpy as jnp

    run = logdir / "jax"
    x = jnp.ones((256, 256))
    f = jax.jit(lambda a: jnp.tanh(a @ a))
    f(x).block_until_ready()
    with jax.profiler.trace(str(run)):
        for step in range(steps):
            with jax.profiler.StepTraceAnnotation("train", step_num=step):
                x = f(x).block_until_ready()
    return run
