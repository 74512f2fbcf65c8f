"""The media front ends agree with Python: WAV parsing, waveform and spectrogram, the
position rule and the keys; and their bundles are small and load nothing."""

from __future__ import annotations

import base64
import io
import json

import numpy as np
import pytest

from tbnb.widgets.audio.prepare import decode_wav, envelope, spectrogram
from tbnb.widgets.cards import CardIndex, card_key, item_key, position
from tests.js.test_js import NODE, ROOT, _script_loads, run_node

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")

WAV_JS = """
import { parseWav } from "./src/widgets/audio/wav.js";
import { envelope, spectrogram } from "./src/widgets/audio/spectrum.js";
const chunks = [];
for await (const c of process.stdin) chunks.push(c);
const cases = JSON.parse(chunks.join(""));
const out = cases.map(({ wav, columns, nfft }) => {
  const clip = parseWav(new Uint8Array(Buffer.from(wav, "base64")));
  const env = envelope(clip.channels[0], columns);
  const spec = spectrogram(clip.channels[0], columns, { nfft });
  return { rate: clip.rate, channels: clip.channels.map((c) => Array.from(c)),
           min: Array.from(env.min), max: Array.from(env.max), db: Array.from(spec.db), bins: spec.bins };
});
process.stdout.write(JSON.stringify(out));
"""

SUBTYPES = [("WAV", "PCM_U8"), ("WAV", "PCM_16"), ("WAV", "PCM_24"), ("WAV", "PCM_32"),
            ("WAV", "FLOAT"), ("WAV", "DOUBLE"), ("WAVEX", "PCM_16"), ("WAVEX", "FLOAT")]


def _wav(clip: np.ndarray, rate: int, fmt: str, subtype: str) -> bytes:
    import soundfile

    out = io.BytesIO()
    soundfile.write(out, clip, rate, format=fmt, subtype=subtype)
    return out.getvalue()


def test_js_reads_wav_files_as_python_does() -> None:
    rng = np.random.default_rng(4)
    cases, expected = [], []
    for i, (fmt, subtype) in enumerate(SUBTYPES):
        channels = 1 + i % 2
        clip = np.clip(rng.normal(scale=0.3, size=(900 + 37 * i, channels)), -1, 1)
        data = _wav(clip, 8000 + 1000 * i, fmt, subtype)
        samples, rate = decode_wav(data)
        columns, nfft = 50 + i, 256 if i % 2 else 512
        cases.append({"wav": base64.b64encode(data).decode(), "columns": columns, "nfft": nfft})
        expected.append((samples, rate, envelope(samples[:, 0], columns),
                         spectrogram(samples[:, 0], columns, n_fft=nfft)))
    got = run_node(WAV_JS, cases)
    assert isinstance(got, list)
    for (fmt, subtype), g, (samples, rate, (lo, hi), db) in zip(SUBTYPES, got, expected,
                                                                strict=True):
        assert g["rate"] == rate, subtype
        js = np.array(g["channels"], dtype=np.float32).T
        np.testing.assert_array_equal(js, samples, err_msg=f"{fmt} {subtype}")
        np.testing.assert_array_equal(np.array(g["min"], np.float32), lo)
        np.testing.assert_array_equal(np.array(g["max"], np.float32), hi)
        js_db = np.array(g["db"], np.float32).reshape(g["bins"], -1)
        np.testing.assert_allclose(js_db, db, atol=2e-3, err_msg=f"{fmt} {subtype}")


POSITION_JS = """
import { decodeIndex, positionOf, itemKey, cardKey } from "./src/media/card-index.js";
const chunks = [];
for await (const c of process.stdin) chunks.push(c);
const { index, queries, names } = JSON.parse(chunks.join(""));
const dec = (a) => ({ view: new DataView(Int32Array.from(a).buffer), dtype: "int32", shape: [a.length] });
const idx = decodeIndex({ ...index, card_run: dec(index.card_run), card_tag: dec(index.card_tag),
  offsets: dec(index.offsets), steps: dec(index.steps), counts: dec(index.counts) });
const out = queries.map(([card, global, pins]) => {
  const c = idx.cards[card];
  const p = positionOf(c, global, pins[c.key]);
  return p ? [p.step, p.sample] : null;
});
process.stdout.write(JSON.stringify({ out,
  keys: names.map(([r, t, s, i]) => [cardKey(r, t), itemKey(r, t, s, i)]) }));
"""


def test_js_positions_and_keys_equal_pythons() -> None:
    import pandas as pd

    rng = np.random.default_rng(9)
    rows = []
    for run in ("a", "b", "c"):
        for tag in ("x", "y"):
            steps = np.unique(rng.integers(0, 60, rng.integers(1, 9)))
            for step in steps:
                for sample in range(int(rng.integers(1, 4))):
                    rows.append({"run": run, "tag": tag, "step": int(step), "wall_time": 0.0,
                                 "sample": sample})
    index = CardIndex.build(pd.DataFrame(rows), ["a", "b", "c"])
    payload = index.payload()
    queries, expected = [], []
    for _ in range(300):
        card = int(rng.integers(len(index)))
        global_step = None if rng.random() < 0.2 else int(rng.integers(-5, 70))
        key = card_key(*index.cards[card])
        pins = {}
        if rng.random() < 0.5:
            pins[key] = {"step": None if rng.random() < 0.5 else int(rng.integers(0, 60)),
                         "sample": int(rng.integers(0, 4))}
        queries.append([card, global_step, pins])
        expected.append(list(position(index, card, global_step, pins) or ()))
    names = [["lr=0.1", "x", 3, 0], ["ünï/cødé", "τ", -2, 1],
             ['"><script>', "<img src=x onerror=1>", 2**40, 0], ["a\tb\n", "\u2028", 0, 0]]
    got = run_node(POSITION_JS, {
        "index": {k: (v.tolist() if isinstance(v, np.ndarray) else v) for k, v in payload.items()},
        "queries": queries, "names": names})
    assert isinstance(got, dict)
    assert got["out"] == expected
    assert got["keys"] == [[card_key(r, t), item_key(r, t, s, i)] for r, t, s, i in names]


@pytest.mark.parametrize("name", ["images", "audio", "text"])
def test_media_bundles_are_small_and_load_nothing(name: str) -> None:
    bundle = (ROOT / "tbnb" / "static" / f"{name}.js").read_text(encoding="utf-8")
    assert len(bundle.encode()) < 120_000
    assert _script_loads(bundle) == []
    for forbidden in ("fetch(", "importScripts", "innerHTML", "eval("):
        assert forbidden not in bundle, forbidden
    assert json.dumps(name) in bundle or name in bundle
