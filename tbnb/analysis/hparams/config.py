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
from tbnb.io.files import read_side_file

__all__ = [
    "CONFIG_FILES",
    "MAX_CONFIG_BYTES",
    "config_hparams",
    "flatten_config",
    "read_config_file",
    "read_run_configs",
]

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


MAX_CONFIG_BYTES = 4 << 20
"""Largest config file read (4 MiB); a larger one is skipped with a note naming it."""


def read_run_configs(fs: Any, directory: str, root: str) -> list[tuple[str, dict[str, Any] | str]]:
    """``(name, values)`` of each config file beside a run's event files, in precedence
    order; ``values`` is the flat dict, or a string saying why the file was not read.

    A config file is read only if it is a regular file of at most
    :data:`MAX_CONFIG_BYTES` that resolves inside the logdir ``root`` or the run's own
    real ``directory`` (a link to a file elsewhere on the machine is not read:
    :func:`tbnb.io.files.read_side_file`).

    Examples
    --------
    >>> import os, tempfile
    >>> from tbnb.io.local import LocalFiles
    >>> d = tempfile.mkdtemp()
    >>> with open(os.path.join(d, "hparams.yaml"), "w") as f:
    ...     _ = f.write("lr: 0.1\\n")
    >>> os.mkfifo(os.path.join(d, "config.yaml"))
    >>> for name, values in read_run_configs(LocalFiles(), d, d):
    ...     print(name, values if isinstance(values, dict) else values.split(": ")[-1])
    hparams.yaml {'lr': 0.1}
    config.yaml a FIFO (named pipe), not a regular file; tbnb reads only regular files
    """
    try:
        listing = fs.ls(directory, detail=False)
    except (OSError, ValueError):
        return []
    present = {posixpath.basename(str(p).rstrip("/")) for p in listing}
    out: list[tuple[str, dict[str, Any] | str]] = []
    for name in CONFIG_FILES:
        if name.split("/")[0] not in present:
            continue
        path = posixpath.join(str(directory).rstrip("/"), name)
        try:
            data = read_side_file(fs, path, limit=MAX_CONFIG_BYTES, within=(root, directory))
            out.append((name, read_config_file(data.decode("utf-8"), name)))
        except FileNotFoundError:
            continue
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            out.append((name, str(exc)))
    return out


def config_hparams(source: HParamsSource, run: str, notes: list[str]) -> dict[str, Any]:
    """Hparams from the config files beside ``run``'s event files (:func:`read_run_configs`);
    a file not read adds a note naming it and why."""
    out: dict[str, Any] = {}
    for name, values in read_run_configs(source.fs, source.run_path(run), source.run_path(".")):
        if isinstance(values, str):
            notes.append(f"run {run!r}: {name} not read ({values})")
            continue
        for key, value in values.items():
            out.setdefault(key, value)
    return out
