"""The exported page's data block: Python packs it, the page's script unpacks it exactly."""

from __future__ import annotations

import base64
import hashlib
import zlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tbnb.notebook.page_data import _FROM_PAGE, FILTERS, _base85, _best_filter, pack, unpack
from tests.js.test_js import run_node


def _columns() -> dict[str, bytes]:
    rng = np.random.default_rng(0)
    n = 20_000
    return {
        "step": np.arange(0, 3 * n, 3, dtype=np.int32).tobytes(),
        "wall_time": (1.7e9 + np.cumsum(rng.exponential(0.5, n))).tobytes(),
        "value": rng.normal(size=n).astype(np.float32).astype(np.float64).tobytes(),
        "counts": rng.integers(0, 50, n, dtype=np.int32).tobytes(),
        "odd": bytes(rng.integers(0, 256, 1001, dtype=np.uint8)),
        "empty": b"",
    }


@pytest.mark.parametrize("name", FILTERS)
@given(data=st.binary(max_size=200))
@settings(max_examples=40, deadline=None)
def test_every_filter_inverts(name: str, data: bytes) -> None:
    forward, inverse, size = FILTERS[name]
    data = data[: len(data) - len(data) % size]
    assert inverse(forward(data)) == data


def test_filters_chosen_for_what_columns_are() -> None:
    cols = _columns()
    assert _best_filter(cols["step"]) == "delta32"
    assert _best_filter(cols["wall_time"]) in {"xor64", "shuffle8"}
    assert _best_filter(cols["value"]) == "shuffle8"
    assert _best_filter(cols["odd"]) == "none"
    assert _best_filter(b"\x89PNG\r\n\x1a\n" + bytes(100)) == "none"  # compressed already


def test_columns_shrink_well_below_plain_deflate() -> None:
    cols = _columns()
    raw = b"".join(cols.values())
    packed = pack({}, list(cols.values()))
    plain = len(zlib.compress(raw, 6)) * 4 / 3
    assert len(packed) < 0.75 * plain, (len(packed), plain)


def test_round_trip_in_python() -> None:
    cols = _columns()
    payload, buffers = unpack(pack({"names": ["</script><b>x</b>", "ü"]}, list(cols.values())))
    assert payload == {"names": ["</script><b>x</b>", "ü"]}
    assert buffers == list(cols.values())


UNPACK_JS = """
import { createHash } from "node:crypto";
import { unpackPage } from "./src/export/data.js";
const chunks = [];
for await (const c of process.stdin) chunks.push(c);
const { payload, buffers } = await unpackPage(JSON.parse(chunks.join("")));
const digests = buffers.map((b) => createHash("sha256").update(b).digest("hex"));
process.stdout.write(JSON.stringify({ payload, digests }));
"""


def test_the_page_script_unpacks_what_python_packed() -> None:
    cols = _columns()
    text = pack({"views": ["m"], "label": "</script>"}, list(cols.values()))
    out = run_node(UNPACK_JS, text)
    assert out == {
        "payload": {"views": ["m"], "label": "</script>"},
        "digests": [hashlib.sha256(b).hexdigest() for b in cols.values()],
    }


UNPACK_MANY_JS = """
import { unpackPage } from "./src/export/data.js";
const chunks = [];
for await (const c of process.stdin) chunks.push(c);
const out = [];
for (const text of JSON.parse(chunks.join(""))) {
  const { buffers } = await unpackPage(text);
  out.push(buffers.map((b) => Buffer.from(b).toString("hex")));
}
process.stdout.write(JSON.stringify(out));
"""


def test_every_text_length_decodes_in_the_page() -> None:
    # the deflated block's length mod 4 decides the last base85 group: cover all four
    cases = [[bytes(range(n))] for n in range(40)]
    texts = [pack({}, case) for case in cases]
    assert {len(t) % 5 for t in texts} == {0, 2, 3, 4}
    assert run_node(UNPACK_MANY_JS, texts) == [[b.hex() for b in case] for case in cases]


@given(data=st.binary(max_size=64))
def test_base85_is_pythons_with_the_page_alphabet(data: bytes) -> None:
    text = _base85(data)
    assert not set(text) & set("<>&\"'\\")
    assert text.encode().translate(_FROM_PAGE) == base64.b85encode(data)
