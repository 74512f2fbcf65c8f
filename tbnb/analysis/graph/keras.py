"""A Keras model's JSON (``model.to_json()``, the ``graph_keras_model`` summary) as a graph.

The *conceptual graph* TensorBoard draws for Keras models: one node per layer,
named by the models it sits in (``sequential/dense``), its op the layer's class
name, its inputs the layers feeding it. A Sequential model's layers feed each other
in order; a Functional model's say so in ``inbound_nodes``; a model used as a layer
is a name scope whose input layers take the outer inputs and whose output layers
stand for it. This follows TensorBoard's ``keras_util`` for Keras 3 JSON (equal
node names and inputs, tested), and also reads Keras 2's list-form
``inbound_nodes``, which TensorBoard skips (its Keras 2 functional graphs have no
edges).

Examples
--------
>>> model = {"class_name": "Sequential", "config": {"name": "seq", "layers": [
...     {"class_name": "Dense", "config": {"name": "d1", "units": 4}},
...     {"class_name": "Dense", "config": {"name": "d2", "units": 1}}]}}
>>> [(n["name"], n["op"], n["inputs"]) for n in keras_nodes(model)]
[('seq/d1', 'Dense', []), ('seq/d2', 'Dense', ['seq/d1'])]
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

__all__ = ["keras_nodes"]

_SKIPPED_CONFIG = {"name", "dtype", "layers", "input_layers", "output_layers"}


def _config(layer: Mapping[str, Any]) -> Mapping[str, Any]:
    config = layer.get("config")
    return config if isinstance(config, Mapping) else {}


def _scoped(scope: str, name: str) -> str:
    return f"{scope}/{name}" if scope else name


def _walk(layer: Mapping[str, Any], scope: str = "") -> Iterator[tuple[str, Mapping[str, Any]]]:
    """``(name scope, layer)`` of a model and every layer in it, in preorder."""
    yield scope, layer
    layers = _config(layer).get("layers")
    if layers:
        inner = _scoped(scope, str(_config(layer).get("name", "")))
        for sub in layers:
            if isinstance(sub, Mapping):
                yield from _walk(sub, inner)


def _is_model(layer: Mapping[str, Any]) -> bool:
    return _config(layer).get("layers") is not None


def _as_list_of_layers(value: Any) -> list[Any]:
    return value if value and isinstance(value[0], list) else [value]


def _inbound(layer: Mapping[str, Any]) -> list[list[Any]]:
    """``[layer name, node index, tensor index]`` of each input (Keras 3 and Keras 2 forms)."""
    out: list[list[Any]] = []
    for node in layer.get("inbound_nodes") or []:
        if isinstance(node, Mapping):  # Keras 3: {"args": [{"config": {"keras_history"}}]}
            for args in node.get("args", []):
                for arg in args if isinstance(args, list) else [args]:
                    history = (
                        arg.get("config", {}).get("keras_history", [])
                        if isinstance(arg, Mapping)
                        else []
                    )
                    if len(history) >= 3:
                        out.append(list(history[:3]))
        elif isinstance(node, list):  # Keras 2: [["name", node, tensor, {kwargs}], ...]
            for entry in node:
                if isinstance(entry, list) and len(entry) >= 3 and isinstance(entry[0], str):
                    out.append(list(entry[:3]))
    return out


def _model_links(
    scope: str,
    model: Mapping[str, Any],
    inputs_of: dict[str, str],
    outputs_of: dict[str, list[str]],
    previous: str | None,
) -> str | None:
    """Record where a nested model's inputs come from and which layers are its outputs."""
    config = _config(model)
    name = _scoped(scope, str(config.get("name", "")))
    input_layers = config.get("input_layers")
    output_layers = config.get("output_layers")
    inbound = _inbound(model)
    functional = bool(input_layers and output_layers)
    if inbound and functional:
        for input_layer, node in zip(_as_list_of_layers(input_layers), inbound, strict=False):
            inputs_of[_scoped(name, str(input_layer[0]))] = _scoped(scope, str(node[0]))
    elif inbound:
        previous = _scoped(scope, str(inbound[0][0]))  # a Sequential takes one input
    elif previous and functional:
        first = _as_list_of_layers(input_layers)[0]
        inputs_of[_scoped(name, str(first[0]))] = previous
    if functional:
        outputs_of[name] = [
            _scoped(name, str(layer[0])) for layer in _as_list_of_layers(output_layers)
        ]
    else:
        layers = config.get("layers") or []
        last = _config(layers[-1]).get("name", "") if layers else ""
        outputs_of[name] = [_scoped(name, str(last))]
    return previous


def _attributes(layer: Mapping[str, Any]) -> dict[str, Any]:
    config = _config(layer)
    attrs: dict[str, Any] = {"keras_class": str(layer.get("class_name", ""))}
    dtype = config.get("dtype")
    if isinstance(dtype, Mapping):  # a dtype policy: {"config": {"name": "mixed_float16"}}
        dtype = _config(dtype).get("name")
    if dtype is not None:
        attrs["dtype"] = str(dtype)
    for key, value in config.items():
        if key in _SKIPPED_CONFIG:
            continue
        if isinstance(value, Mapping):
            if "class_name" in value:
                attrs[key] = str(value["class_name"])
        elif isinstance(value, list):
            if len(value) <= 8 and all(not isinstance(v, (list, Mapping)) for v in value):
                attrs[key] = tuple(value)
        else:
            attrs[key] = value
    return attrs


def _input_shapes(layer: Mapping[str, Any]) -> list[tuple[int | None, ...] | None] | None:
    config = _config(layer)
    shape = config.get("batch_shape", config.get("batch_input_shape"))
    if isinstance(shape, list):
        return [tuple(d if isinstance(d, int) else None for d in shape)]
    return None


def keras_nodes(model: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One record per layer: ``name``, ``op`` (class name), ``inputs``, ``attributes``,
    ``output_shapes``.

    Raises
    ------
    ValueError
        When ``model`` is not a Keras model's JSON (no ``config``).
    """
    if not isinstance(model, Mapping) or not isinstance(model.get("config"), Mapping):
        raise ValueError("not a Keras model's JSON: no 'config' mapping at the top level")
    inputs_of: dict[str, str] = {}
    outputs_of: dict[str, list[str]] = {}
    previous: str | None = None
    nodes: list[dict[str, Any]] = []
    for scope, layer in _walk(model):
        if _is_model(layer):
            previous = _model_links(scope, layer, inputs_of, outputs_of, previous)
            continue
        name = _scoped(scope, str(_config(layer).get("name", "")))
        inputs: list[str] = []
        if layer.get("inbound_nodes") is not None:
            for source, _node, index in _inbound(layer):
                candidates = outputs_of.get(
                    _scoped(scope, str(source)), [_scoped(scope, str(source))]
                )
                position = index if isinstance(index, int) and 0 <= index < len(candidates) else -1
                inputs.append(candidates[position])
        elif previous is not None:
            inputs.append(previous)
        if name in inputs_of:
            inputs.append(inputs_of[name])
        nodes.append(
            {
                "name": name,
                "op": str(layer.get("class_name", "")),
                "inputs": inputs,
                "attributes": _attributes(layer),
                "output_shapes": _input_shapes(layer),
            }
        )
        previous = name
    return nodes
