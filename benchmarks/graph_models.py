"""Models traced for the graph benchmark: a ResNet-50 (bottlenecks 3-4-6-3) and a GPT-style
transformer (12 blocks), both written by torch's ``add_graph`` (torchvision is not used:
the layers are plain ``torch.nn``); and an unscoped graph of several thousand ops, as TF
graphs without name scopes come.
"""

from __future__ import annotations

import math
from typing import Any


def resnet50() -> Any:
    """ResNet-50: stem, four stages of 3, 4, 6 and 3 bottleneck blocks, pooled classifier."""
    import torch
    from torch import nn

    class Bottleneck(nn.Module):
        def __init__(self, inp: int, planes: int, stride: int = 1, down: bool = False) -> None:
            super().__init__()
            self.conv1 = nn.Conv2d(inp, planes, 1, bias=False)
            self.bn1 = nn.BatchNorm2d(planes)
            self.conv2 = nn.Conv2d(planes, planes, 3, stride, 1, bias=False)
            self.bn2 = nn.BatchNorm2d(planes)
            self.conv3 = nn.Conv2d(planes, planes * 4, 1, bias=False)
            self.bn3 = nn.BatchNorm2d(planes * 4)
            self.relu = nn.ReLU(inplace=True)
            self.downsample = (
                nn.Sequential(
                    nn.Conv2d(inp, planes * 4, 1, stride, bias=False), nn.BatchNorm2d(planes * 4)
                )
                if down
                else None
            )

        def forward(self, x: Any) -> Any:
            identity = x if self.downsample is None else self.downsample(x)
            out = self.relu(self.bn1(self.conv1(x)))
            out = self.relu(self.bn2(self.conv2(out)))
            return self.relu(self.bn3(self.conv3(out)) + identity)

    class ResNet(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.conv1 = nn.Conv2d(3, 64, 7, 2, 3, bias=False)
            self.bn1 = nn.BatchNorm2d(64)
            self.relu = nn.ReLU(inplace=True)
            self.maxpool = nn.MaxPool2d(3, 2, 1)
            inp, stages = 64, []
            for i, (planes, blocks) in enumerate(
                zip((64, 128, 256, 512), (3, 4, 6, 3), strict=True)
            ):
                layers = [Bottleneck(inp, planes, 1 if i == 0 else 2, True)]
                inp = planes * 4
                layers += [Bottleneck(inp, planes) for _ in range(blocks - 1)]
                stages.append(nn.Sequential(*layers))
            self.layer1, self.layer2, self.layer3, self.layer4 = stages
            self.avgpool = nn.AdaptiveAvgPool2d(1)
            self.fc = nn.Linear(2048, 1000)

        def forward(self, x: Any) -> Any:
            x = self.maxpool(self.relu(self.bn1(self.conv1(x))))
            x = self.layer4(self.layer3(self.layer2(self.layer1(x))))
            return self.fc(torch.flatten(self.avgpool(x), 1))

    return ResNet().eval(), torch.zeros(1, 3, 64, 64)


def transformer(blocks: int = 12, width: int = 128, heads: int = 4) -> Any:
    """A GPT-style decoder: embeddings, ``blocks`` pre-norm attention + MLP blocks, head."""
    import torch
    from torch import nn

    class Attention(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.qkv = nn.Linear(width, 3 * width)
            self.proj = nn.Linear(width, width)

        def forward(self, x: Any) -> Any:
            b, t, c = x.shape
            q, k, v = self.qkv(x).split(c, dim=2)
            q, k, v = (z.view(b, t, heads, c // heads).transpose(1, 2) for z in (q, k, v))
            att = (q @ k.transpose(-2, -1)) / math.sqrt(c // heads)
            mask = torch.ones(t, t).tril() == 0
            att = att.masked_fill(mask, float("-inf")).softmax(-1)
            return self.proj((att @ v).transpose(1, 2).reshape(b, t, c))

    class Block(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.ln1 = nn.LayerNorm(width)
            self.attn = Attention()
            self.ln2 = nn.LayerNorm(width)
            self.mlp = nn.Sequential(
                nn.Linear(width, 4 * width), nn.GELU(), nn.Linear(4 * width, width)
            )

        def forward(self, x: Any) -> Any:
            x = x + self.attn(self.ln1(x))
            return x + self.mlp(self.ln2(x))

    class GPT(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.tok = nn.Embedding(1000, width)
            self.pos = nn.Embedding(64, width)
            self.h = nn.ModuleList([Block() for _ in range(blocks)])
            self.ln_f = nn.LayerNorm(width)
            self.head = nn.Linear(width, 1000, bias=False)

        def forward(self, idx: Any) -> Any:
            x = self.tok(idx) + self.pos(torch.arange(idx.shape[1]))
            for block in self.h:
                x = block(x)
            return self.head(self.ln_f(x))

    torch.manual_seed(0)
    return GPT().eval(), torch.zeros(1, 16, dtype=torch.long)


def write_traced(logdir: str, name: str) -> None:
    """``add_graph`` of model ``name`` (``resnet50`` or ``transformer``) into ``logdir``."""
    from torch.utils.tensorboard import SummaryWriter

    model, example = {"resnet50": resnet50, "transformer": transformer}[name]()
    with SummaryWriter(logdir) as writer:
        writer.add_graph(model, example)


def write_flat(logdir: str, nodes: int = 3000) -> None:
    """An unscoped TF graph of ``nodes`` ops: a chain with skip connections and side inputs."""
    from tensorboard.compat.proto import event_pb2, graph_pb2
    from tensorboard.summary.writer.event_file_writer import EventFileWriter

    graph = graph_pb2.GraphDef()
    graph.node.add(name="input", op="Placeholder")
    for i in range(1, nodes):
        inputs = [graph.node[i - 1].name]
        if i % 7 == 0 and i > 10:
            inputs.append(graph.node[i - 6].name)
        op = ("MatMul", "Add", "Relu", "Mul", "Sigmoid")[i % 5]
        graph.node.add(name=f"{op.lower()}_{i}", op=op, input=inputs)
    writer = EventFileWriter(logdir)
    writer.add_event(event_pb2.Event(step=0, wall_time=0.0, graph_def=graph.SerializeToString()))
    writer.close()
