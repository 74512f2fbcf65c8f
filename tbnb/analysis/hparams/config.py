"""Hyperparameters from config files beside the event files.

``hparams.yaml`` (Lightning), ``hparams.json``, ``config.yaml``/``.yml``/``.json``,
``args.json``/``.yaml`` and Hydra's ``.hydra/config.yaml``; nested mappings are
flattened with dotted keys (``model.lr``). YAML written by ``yaml.dump`` of Python
objects (``!!python/object``, ``pathlib`` paths) is read as plain data, never
executed.

Examples
--------
>>> flatten_config({"model": {"lr": 0.1, "layers": [64, 64]}, "seed": 1})
{'model.lr': 0.1, 'model.layers': '[64, 64]', 'seed': 1}
"""

from __future__ import annotations

import json
import posixpath
from collections.abc import Mapping
from typing import Any

import numpy as np
import yaml

from tbnb.analysis.hparams.source import HParamsSource

__all__ = ["CONFIG_FILES", "config_hparams", "flatten_config", "read_config_file"]

CONFIG_FILES = (
    "hparams.yaml",
    "hparams.yml",
    "hparams.json",
    "config.yaml",
    "config.yml",
    "config.json",
    "args.json",
    "args.yaml",
    ".hydra/config.yaml",
)
"""Config files read beside a run's event files, in order of precedence."""


class _TolerantLoader(yaml.SafeLoader):  # type: ignore[misc]
    """Safe YAML loader that reads unknown tags (``!!python/object:...``) as plain data."""


def _construct_any(loader: yaml.SafeLoader, tag: str, node: yaml.Node) -> Any:
    if isinstance(node, yaml.MappingNode):
        return loader.construct_mapping(node, deep=True)
    if isinstance(node, yaml.SequenceNode):
        items = loader.construct_sequence(node, deep=True)
        if "pathlib." in tag and all(isinstance(item, str) for item in items):
            return posixpath.join(*items) if items else "."  # a Path pickles as its parts
        return items
    if "python/name:" in tag:  # a class or function: its qualified name
        return tag.split("python/name:", 1)[1]
    return loader.construct_scalar(node)


_TolerantLoader.add_multi_constructor("", _construct_any)


def _scalar(value: Any) -> Any:
    """A config leaf as bool/int/float/str/None (sequences as JSON text)."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (np.bool_, np.integer, np.floating)):
        return value.item()
    if isinstance(value, (list, tuple)):
        try:
            return json.dumps(list(value))
        except (TypeError, ValueError):
            return str(list(value))
    return str(value)


def flatten_config(config: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """Flatten nested mappings into dotted keys; lists become JSON text.

    Examples
    --------
    >>> flatten_config({"model": {"lr": 0.1, "layers": [64, 64]}, "seed": 1})
    {'model.lr': 0.1, 'model.layers': '[64, 64]', 'seed': 1}
    """
    out: dict[str, Any] = {}
    for key, value in config.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping):
            if value:
                out.update(flatten_config(value, prefix=name + "."))
            else:
                out[name] = None
        else:
            out[name] = _scalar(value)
    return out


def read_config_file(text: str, name: str) -> dict[str, Any]:
    """Parse a config file's text (YAML or JSON by ``name``) into a flat dict.

    Raises ``ValueError`` if the text does not parse or is not a mapping.

    Examples
    --------
    >>> read_config_file("optimizer:\\n  name: adam\\n  lr: 0.001\\n", "hparams.yaml")
    {'optimizer.name': 'adam', 'optimizer.lr': 0.001}
    """
    try:
        if name.endswith(".json"):
            data = json.loads(text)
        else:
            data = yaml.load(text, Loader=_TolerantLoader)  # a SafeLoader subclass
    except (json.JSONDecodeError, yaml.YAMLError) as exc:
        first_line = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ValueError(f"{name}: {first_line}") from exc
    if data is None:
        return {}
    if not isinstance(data, Mapping):
        raise ValueError(f"{name}: top level is {type(data).__name__}, not a mapping")
    return flatten_config(data)


def config_hparams(source: HParamsSource, run: str, notes: list[str]) -> dict[str, Any]:
    """Hparams from the config files beside ``run``'s event files."""
    fs = source.fs
    directory = source.run_path(run)
    try:
        listing = fs.ls(directory, detail=False)
    except (OSError, ValueError):
        return {}
    present = {posixpath.basename(str(p).rstrip("/")) for p in listing}
    out: dict[str, Any] = {}
    for name in CONFIG_FILES:
        if name.split("/")[0] not in present:
            continue
        path = posixpath.join(str(directory).rstrip("/"), name)
        try:
            with fs.open(path, "rb") as handle:
                text = handle.read().decode("utf-8")
            values = read_config_file(text, name)
        except FileNotFoundError:
            continue
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            notes.append(f"run {run!r}: {name} not read ({exc})")
            continue
        for key, value in values.items():
            out.setdefault(key, value)
    return out
