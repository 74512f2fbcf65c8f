"""Binary (de)serialisation of numpy arrays between Python and the widgets' front ends.

Arrays travel as ``{"view": memoryview, "dtype": "float64", "shape": [n]}``
(ipywidgets moves every memoryview into a binary buffer of the comm message,
so no JSON list and no base64 is ever built). Nested dicts and lists of
arrays are converted recursively, so one trait can carry a whole packed
table. For custom messages, :func:`pack` replaces each array by
``{"buffer": i, "dtype", "shape"}`` and returns the buffers to send beside
the content. The mirror of this module is ``js/src/codecs.js``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = [
    "DTYPES",
    "array_from_json",
    "array_to_json",
    "pack",
    "tree_from_json",
    "tree_serialization",
    "tree_to_json",
    "unpack",
]

#: dtypes the front end decodes (each has a JS typed array).
DTYPES = ("int8", "uint8", "int16", "uint16", "int32", "uint32", "float32", "float64")

_NARROW = {"int64": "int32", "uint64": "uint32", "bool": "uint8"}


def _wire_array(arr: npt.ArrayLike) -> np.ndarray[Any, Any]:
    a = np.asarray(arr)
    name = a.dtype.name
    if name in _NARROW:
        target = np.dtype(_NARROW[name])
        if a.size and name != "bool":
            info = np.iinfo(target)
            if a.min() < info.min or a.max() > info.max:
                target = np.dtype(np.float64)
        a = a.astype(target)
    elif name not in DTYPES:
        if a.dtype.kind == "f":
            a = a.astype(np.float64)
        else:
            raise TypeError(f"cannot send arrays of dtype {a.dtype} to the browser")
    # Little-endian, C-contiguous: the browser reads the bytes as they are.
    return np.ascontiguousarray(a, dtype=a.dtype.newbyteorder("<"))


def array_to_json(arr: npt.ArrayLike, widget: object = None) -> dict[str, Any]:
    """One array as ``{"view", "dtype", "shape"}``.

    int64 is narrowed to int32 when its values fit (JS has no cheap int64 typed
    array), else sent as float64; float16 widens to float64; bool becomes uint8.

    Examples
    --------
    >>> import numpy as np
    >>> enc = array_to_json(np.arange(3, dtype=np.int64))
    >>> enc["dtype"], enc["shape"], bytes(enc["view"])[:4]
    ('int32', [3], b'\\x00\\x00\\x00\\x00')
    """
    a = _wire_array(arr)
    flat: Any = a.reshape(-1)
    return {"view": memoryview(flat).cast("B"), "dtype": a.dtype.name, "shape": list(a.shape)}


def array_from_json(obj: dict[str, Any], widget: object = None) -> np.ndarray[Any, Any]:
    """Inverse of :func:`array_to_json` (accepts memoryview, bytes or bytearray).

    Examples
    --------
    >>> import numpy as np
    >>> array_from_json(array_to_json(np.array([1.5, 2.5]))).tolist()
    [1.5, 2.5]
    """
    dtype = str(obj["dtype"])
    if dtype not in DTYPES:
        raise TypeError(f"unknown dtype from the browser: {dtype!r}")
    raw = obj["view"]
    buf = raw.tobytes() if isinstance(raw, memoryview) else bytes(raw)
    shape = tuple(int(s) for s in obj["shape"])
    out: np.ndarray[Any, Any] = np.frombuffer(buf, dtype=np.dtype(dtype).newbyteorder("<"))
    result: np.ndarray[Any, Any] = out.reshape(shape).copy()
    return result


def _is_encoded(obj: object) -> bool:
    return isinstance(obj, dict) and set(obj) == {"view", "dtype", "shape"}


def tree_to_json(tree: Any, widget: object = None) -> Any:
    """Replace every numpy array inside nested dicts/lists by its encoding.

    Examples
    --------
    >>> import numpy as np
    >>> tree_to_json({"a": [np.zeros(2, np.float32)], "b": 1})["a"][0]["dtype"]
    'float32'
    """
    if isinstance(tree, np.ndarray):
        return array_to_json(tree)
    if isinstance(tree, dict):
        return {str(k): tree_to_json(v) for k, v in tree.items()}
    if isinstance(tree, (list, tuple)):
        return [tree_to_json(v) for v in tree]
    if isinstance(tree, np.generic):
        return tree.item()
    return tree


def tree_from_json(tree: Any, widget: object = None) -> Any:
    """Inverse of :func:`tree_to_json`.

    Examples
    --------
    >>> import numpy as np
    >>> tree_from_json(tree_to_json({"x": np.arange(2.0)}))["x"].tolist()
    [0.0, 1.0]
    """
    if _is_encoded(tree):
        return array_from_json(tree)
    if isinstance(tree, dict):
        return {k: tree_from_json(v) for k, v in tree.items()}
    if isinstance(tree, list):
        return [tree_from_json(v) for v in tree]
    return tree


#: ``sync=True`` trait serializer for nested trees of arrays.
tree_serialization: dict[str, Any] = {"to_json": tree_to_json, "from_json": tree_from_json}


def pack(tree: Any) -> tuple[Any, list[memoryview]]:
    """Content and buffers for a custom message carrying arrays.

    Each array becomes ``{"buffer": i, "dtype", "shape"}`` with its bytes as
    ``buffers[i]``; the front end's ``unpack(content, buffers)`` reverses it.

    Examples
    --------
    >>> import numpy as np
    >>> content, buffers = pack({"y": np.arange(3.0)})
    >>> content, len(buffers), buffers[0].nbytes
    ({'y': {'buffer': 0, 'dtype': 'float64', 'shape': [3]}}, 1, 24)
    """
    buffers: list[memoryview] = []

    def walk(node: Any) -> Any:
        if isinstance(node, np.ndarray):
            enc = array_to_json(node)
            buffers.append(enc["view"])
            return {"buffer": len(buffers) - 1, "dtype": enc["dtype"], "shape": enc["shape"]}
        if isinstance(node, dict):
            return {str(k): walk(v) for k, v in node.items()}
        if isinstance(node, (list, tuple)):
            return [walk(v) for v in node]
        if isinstance(node, np.generic):
            return node.item()
        return node

    return walk(tree), buffers


def unpack(content: Any, buffers: list[Any]) -> Any:
    """Inverse of :func:`pack` (used for messages from the browser and in tests).

    Examples
    --------
    >>> import numpy as np
    >>> unpack(*pack({"y": np.arange(3.0)}))["y"].tolist()
    [0.0, 1.0, 2.0]
    """
    if isinstance(content, dict):
        if set(content) == {"buffer", "dtype", "shape"}:
            return array_from_json(
                {
                    "view": buffers[int(content["buffer"])],
                    "dtype": content["dtype"],
                    "shape": content["shape"],
                }
            )
        return {k: unpack(v, buffers) for k, v in content.items()}
    if isinstance(content, list):
        return [unpack(v, buffers) for v in content]
    return content
