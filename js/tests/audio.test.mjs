// The audio widget's pure modules: WAV parsing, waveform envelopes, the FFT and the
// spectrogram (tests/js/test_media_js.py compares them with Python's on the same clips).
import assert from "node:assert/strict";
import { test } from "node:test";
import { envelope, fft, fftSize, spectrogram } from "../src/widgets/audio/spectrum.js";
import { mixdown, parseWav } from "../src/widgets/audio/wav.js";

/** A PCM WAV file of the given 16-bit samples, `channels` interleaved. */
function wav16(samples, rate = 8000, channels = 1) {
  const data = new Int16Array(samples);
  const out = new DataView(new ArrayBuffer(44 + data.byteLength));
  const put = (at, s) => {
    for (let i = 0; i < s.length; i++) out.setUint8(at + i, s.charCodeAt(i));
  };
  put(0, "RIFF");
  out.setUint32(4, 36 + data.byteLength, true);
  put(8, "WAVE");
  put(12, "fmt ");
  out.setUint32(16, 16, true);
  out.setUint16(20, 1, true);
  out.setUint16(22, channels, true);
  out.setUint32(24, rate, true);
  out.setUint32(28, rate * channels * 2, true);
  out.setUint16(32, channels * 2, true);
  out.setUint16(34, 16, true);
  put(36, "data");
  out.setUint32(40, data.byteLength, true);
  new Int16Array(out.buffer, 44).set(data);
  return new Uint8Array(out.buffer);
}

test("16-bit PCM WAV: rate, channels de-interleaved, scaled to [-1, 1)", () => {
  const clip = parseWav(wav16([0, 16384, -32768, 32767], 16000, 2));
  assert.equal(clip.rate, 16000);
  assert.equal(clip.frames, 2);
  assert.deepEqual(Array.from(clip.channels[0]), [0, -1]);
  assert.deepEqual(Array.from(clip.channels[1]), [0.5, 32767 / 32768]);
  assert.deepEqual(Array.from(mixdown(clip.channels)), [0.25, (-1 + 32767 / 32768) / 2].map(Math.fround));
});

test("not a WAV, or no data: a clear error", () => {
  assert.throws(() => parseWav(new Uint8Array([1, 2, 3])), /not a WAV file/);
  assert.throws(() => parseWav(wav16([]).subarray(0, 36)), /without a data chunk/);
});

test("envelope: min and max per column", () => {
  const { min, max } = envelope(new Float32Array([0, 1, -1, 0.5, 0.25, -0.25]), 3);
  assert.deepEqual(
    [Array.from(min), Array.from(max)],
    [
      [0, -1, -0.25],
      [1, 0.5, 0.25],
    ],
  );
});

test("fft of an impulse is flat; of a cosine, two peaks", () => {
  const re = new Float64Array(8);
  const im = new Float64Array(8);
  re[0] = 1;
  fft(re, im);
  assert.deepEqual(Array.from(re), [1, 1, 1, 1, 1, 1, 1, 1]);
  const c = Float64Array.from({ length: 16 }, (_, i) => Math.cos((2 * Math.PI * 3 * i) / 16));
  const ci = new Float64Array(16);
  fft(c, ci);
  const mags = Array.from(c, (v, i) => Math.hypot(v, ci[i]));
  assert.ok(Math.abs(mags[3] - 8) < 1e-9 && Math.abs(mags[13] - 8) < 1e-9);
  assert.ok(mags.filter((m) => m > 1e-9).length === 2);
});

test("spectrogram: a 1 kHz tone peaks in its bin, the loudest at 0 dB", () => {
  const rate = 8000;
  const tone = Float32Array.from({ length: 8000 }, (_, i) => Math.sin((2 * Math.PI * 1000 * i) / rate));
  const { db, bins, columns } = spectrogram(tone, 10, { nfft: 256 });
  assert.equal(bins, 129);
  assert.equal(columns, 10);
  let best = 0;
  for (let k = 0; k < bins; k++) if (db[k * columns + 5] > db[best * columns + 5]) best = k;
  assert.equal(best, 32);
  assert.ok(Math.max(...db) === 0 && Math.min(...db) >= -80);
  assert.equal(fftSize(44100), 1024);
});
