// Formats of the media views' info and status lines: sizes in bytes, clip durations,
// what a view shows and keeps.

/**
 * A size in bytes: `812 B`, `12.3 KB`, `4.1 MB` (powers of 1000, as file managers show).
 * @param {number} bytes
 * @returns {string}
 */
export function formatBytes(bytes) {
  const n = Number(bytes) || 0;
  if (n < 1000) return `${n} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let v = n / 1000;
  let u = 0;
  while (v >= 999.95 && u < units.length - 1) {
    v /= 1000;
    u += 1;
  }
  return `${v >= 100 ? v.toFixed(0) : v.toFixed(1)} ${units[u]}`;
}

/**
 * A clip's duration: `0.25 s`, `12.0 s`, `3:05.2` (minutes from a minute up).
 * @param {number} seconds
 * @returns {string}
 */
export function formatClipDuration(seconds) {
  const s = Number(seconds);
  if (!Number.isFinite(s) || s < 0) return "";
  if (s < 10) return `${s.toFixed(2)} s`;
  if (s < 60) return `${s.toFixed(1)} s`;
  const minutes = Math.floor(s / 60);
  const rest = s - minutes * 60;
  return `${minutes}:${rest.toFixed(1).padStart(4, "0")}`;
}

/**
 * A player's position in its clip, `0.04 / 0.10 s`, `3.5 / 12.0 s`, `0:03.5 / 3:05.2`:
 * in the clip's own unit, so a 0.1 s clip never reads "0:00 / 0:00".
 * @param {number} current  seconds played
 * @param {number} duration  the clip's seconds
 * @returns {string}
 */
export function formatPlayback(current, duration) {
  const d = Number(duration);
  if (!Number.isFinite(d) || d <= 0) return "";
  const t = Math.min(Math.max(Number(current) || 0, 0), d);
  if (d < 10) return `${t.toFixed(2)} / ${d.toFixed(2)} s`;
  if (d < 60) return `${t.toFixed(1)} / ${d.toFixed(1)} s`;
  const clock = (/** @type {number} */ s) => {
    const minutes = Math.floor(s / 60);
    return `${minutes}:${(s - minutes * 60).toFixed(1).padStart(4, "0")}`;
  };
  return `${clock(t)} / ${clock(d)}`;
}

/**
 * A media view's status line: cards and runs shown, what the saved state keeps, and
 * whether the kernel is gone.
 * @param {{run: string}[]} shown  the cards shown
 * @param {{items?: number, bytes?: number, budget?: number, left_out?: number}} kept  the `embedded` trait
 * @param {string} noun  "images", "clips", "texts"
 * @param {boolean} offline
 */
export function statusLine(shown, kept, noun, offline) {
  const runs = new Set(shown.map((c) => c.run)).size;
  const parts = [`${shown.length} cards, ${runs} runs`];
  if (kept.items !== undefined) {
    const over = kept.left_out ? `, ${kept.left_out} over the ${formatBytes(Number(kept.budget))} budget` : "";
    parts.push(`kept in the saved state: ${kept.items} ${noun} (${formatBytes(Number(kept.bytes))}${over})`);
  }
  if (offline) parts.push("no kernel: only saved steps show");
  return parts.join(" · ");
}
