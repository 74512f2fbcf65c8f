// Waveform envelopes and spectrograms of a clip, computed here (no library): min/max per
// pixel column, and one Hann-windowed FFT frame centred on each column's time, in dB
// relative to the loudest bin. The mirror of tbnb/widgets/audio/prepare.py: envelope and
// spectrogram. Pure: no DOM.

/**
 * Min and max of each of `columns` equal slices of `samples`.
 * @param {Float32Array} samples
 * @param {number} columns
 * @returns {{min: Float32Array, max: Float32Array}}
 */
export function envelope(samples, columns) {
  const n = samples.length;
  const cols = n ? Math.max(1, Math.min(columns, n)) : 1;
  const min = new Float32Array(cols);
  const max = new Float32Array(cols);
  for (let c = 0; c < cols && n; c++) {
    const lo = Math.floor((c * n) / cols);
    const hi = Math.floor(((c + 1) * n) / cols);
    let a = samples[lo];
    let b = samples[lo];
    for (let i = lo + 1; i < hi; i++) {
      const v = samples[i];
      if (v < a) a = v;
      if (v > b) b = v;
    }
    min[c] = a;
    max[c] = b;
  }
  return { min, max };
}

/**
 * In-place radix-2 FFT of (re, im), length a power of two.
 * @param {Float64Array} re
 * @param {Float64Array} im
 */
export function fft(re, im) {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      [re[i], re[j]] = [re[j], re[i]];
      [im[i], im[j]] = [im[j], im[i]];
    }
  }
  for (let len = 2; len <= n; len <<= 1) {
    const angle = (-2 * Math.PI) / len;
    const wr = Math.cos(angle);
    const wi = Math.sin(angle);
    for (let i = 0; i < n; i += len) {
      let cr = 1;
      let ci = 0;
      for (let k = 0; k < len / 2; k++) {
        const a = i + k;
        const b = a + len / 2;
        const tr = re[b] * cr - im[b] * ci;
        const ti = re[b] * ci + im[b] * cr;
        re[b] = re[a] - tr;
        im[b] = im[a] - ti;
        re[a] += tr;
        im[a] += ti;
        const next = cr * wr - ci * wi;
        ci = cr * wi + ci * wr;
        cr = next;
      }
    }
  }
}

/**
 * Magnitudes in dB, relative to the loudest bin and floored at `floorDb`: `bins` rows
 * (0 Hz first) of `columns` values, row-major.
 * @param {Float32Array} samples
 * @param {number} columns
 * @param {{nfft?: number, floorDb?: number}} [options]
 * @returns {{db: Float32Array, bins: number, columns: number}}
 */
export function spectrogram(samples, columns, { nfft = 512, floorDb = -80 } = {}) {
  const n = samples.length;
  const cols = Math.max(1, Math.floor(columns));
  const bins = nfft / 2 + 1;
  const half = nfft / 2;
  const window = new Float64Array(nfft);
  for (let i = 0; i < nfft; i++) window[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / nfft);
  const raw = new Float64Array(bins * cols);
  const re = new Float64Array(nfft);
  const im = new Float64Array(nfft);
  let top = Number.NEGATIVE_INFINITY;
  const last = Math.max(n - nfft, 0); // frames stay inside the clip: no onset at the ends
  for (let c = 0; c < cols; c++) {
    const centre = Math.floor(((c + 0.5) * n) / cols);
    const start = Math.min(Math.max(centre - half, 0), last);
    for (let i = 0; i < nfft; i++) {
      const at = start + i;
      re[i] = at < n ? samples[at] * window[i] : 0;
      im[i] = 0;
    }
    fft(re, im);
    for (let k = 0; k < bins; k++) {
      const v = 20 * Math.log10(Math.max(Math.hypot(re[k], im[k]), 1e-12));
      raw[k * cols + c] = v;
      if (v > top) top = v;
    }
  }
  const db = new Float32Array(bins * cols);
  for (let i = 0; i < db.length; i++) db[i] = Math.max(raw[i] - top, floorDb);
  return { db, bins, columns: cols };
}

/**
 * The FFT size for a clip: 512 samples up to 24 kHz, 1024 above (about 20 ms either way).
 * @param {number} rate
 */
export function fftSize(rate) {
  return rate > 24000 ? 1024 : 512;
}
