// Finding points on screen: the nearest one to the pointer (a grid over projected points)
// and the ones inside a lasso or a box. Screen coordinates come from matrix.js's projectAll.

/**
 * A uniform grid over projected points for nearest-point queries.
 * Built in O(n) (counting sort by cell); a query looks at the 3 x 3 cells around it.
 */
export class ScreenGrid {
  /**
   * @param {Float32Array} screen  2n CSS-pixel coordinates (NaN: not on screen)
   * @param {number} width @param {number} height
   * @param {number} [cell]  cell size in CSS pixels
   */
  constructor(screen, width, height, cell = 12) {
    this.screen = screen;
    this.cell = cell;
    this.cols = Math.max(Math.ceil(width / cell), 1);
    this.rows = Math.max(Math.ceil(height / cell), 1);
    const n = screen.length / 2;
    const cells = this.cols * this.rows;
    const counts = new Uint32Array(cells + 1);
    const cellOf = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const c = this.cellIndex(screen[2 * i], screen[2 * i + 1]);
      cellOf[i] = c;
      if (c >= 0) counts[c + 1]++;
    }
    for (let c = 0; c < cells; c++) counts[c + 1] += counts[c];
    this.starts = counts;
    this.items = new Uint32Array(counts[cells]);
    const fill = counts.slice(0, cells);
    for (let i = 0; i < n; i++) {
      const c = cellOf[i];
      if (c >= 0) this.items[fill[c]++] = i;
    }
  }

  /** @param {number} x @param {number} y */
  cellIndex(x, y) {
    if (!(x >= 0 && y >= 0)) return -1;
    const cx = Math.floor(x / this.cell);
    const cy = Math.floor(y / this.cell);
    if (cx >= this.cols || cy >= this.rows) return -1;
    return cy * this.cols + cx;
  }

  /**
   * The point nearest to (x, y) within `radius` CSS pixels, or -1. Among equally near
   * points the one drawn last (on top) wins.
   * @param {number} x @param {number} y @param {number} radius
   */
  nearest(x, y, radius) {
    let best = -1;
    let bestD = radius * radius;
    const cx = Math.floor(x / this.cell);
    const cy = Math.floor(y / this.cell);
    const reach = Math.ceil(radius / this.cell);
    for (let gy = cy - reach; gy <= cy + reach; gy++) {
      if (gy < 0 || gy >= this.rows) continue;
      for (let gx = cx - reach; gx <= cx + reach; gx++) {
        if (gx < 0 || gx >= this.cols) continue;
        const c = gy * this.cols + gx;
        for (let k = this.starts[c]; k < this.starts[c + 1]; k++) {
          const i = this.items[k];
          const dx = this.screen[2 * i] - x;
          const dy = this.screen[2 * i + 1] - y;
          const d = dx * dx + dy * dy;
          if (d < bestD || (d === bestD && i > best)) {
            bestD = d;
            best = i;
          }
        }
      }
    }
    return best;
  }
}

/**
 * Indices of the points inside `polygon` (even-odd rule), in increasing order.
 * @param {Float32Array} screen  2n CSS-pixel coordinates
 * @param {number[]} polygon  x0, y0, x1, y1, ... (closed implicitly)
 * @returns {Int32Array}
 */
export function insidePolygon(screen, polygon) {
  const m = polygon.length / 2;
  if (m < 3) return new Int32Array(0);
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (let k = 0; k < m; k++) {
    x0 = Math.min(x0, polygon[2 * k]);
    x1 = Math.max(x1, polygon[2 * k]);
    y0 = Math.min(y0, polygon[2 * k + 1]);
    y1 = Math.max(y1, polygon[2 * k + 1]);
  }
  const n = screen.length / 2;
  const out = new Int32Array(n);
  let count = 0;
  for (let i = 0; i < n; i++) {
    const x = screen[2 * i];
    const y = screen[2 * i + 1];
    if (!(x >= x0 && x <= x1 && y >= y0 && y <= y1)) continue;
    let inside = false;
    for (let a = 0, b = m - 1; a < m; b = a++) {
      const ya = polygon[2 * a + 1];
      const yb = polygon[2 * b + 1];
      if (ya > y !== yb > y) {
        const xa = polygon[2 * a];
        const xb = polygon[2 * b];
        if (x < ((xb - xa) * (y - ya)) / (yb - ya) + xa) inside = !inside;
      }
    }
    if (inside) out[count++] = i;
  }
  return out.slice(0, count);
}

/**
 * Indices of the points inside the box from (ax, ay) to (bx, by).
 * @param {Float32Array} screen
 * @param {number} ax @param {number} ay @param {number} bx @param {number} by
 * @returns {Int32Array}
 */
export function insideBox(screen, ax, ay, bx, by) {
  return insidePolygon(screen, [ax, ay, bx, ay, bx, by, ax, by]);
}
