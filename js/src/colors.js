// Stable run colours from a hash of the run name: the mirror of run_color() in
// tbnb/widgets/_base.py. A run keeps its colour when runs are added or removed.

export function fnv1a(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** murmur3's 32-bit finaliser: names differing in one character get unrelated hues. */
export function mix32(h) {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b) >>> 0;
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35) >>> 0;
  h ^= h >>> 16;
  return h >>> 0;
}

export function runColor(name) {
  const h = mix32(fnv1a(name));
  const hue = h % 360;
  const light = [38, 48, 58][(h >>> 9) % 3];
  const sat = [70, 55][(h >>> 12) % 2];
  return `hsl(${hue}, ${sat}%, ${light}%)`;
}
