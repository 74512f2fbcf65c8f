// Cameras of the point views: a 2-D pan/zoom one and a 3-D orbit one. Both map data
// coordinates to clip space through `matrix(width, height)` and fit a bounding box.
import { lookAt, multiply, ortho, perspective } from "./matrix.js";

/** @typedef {{min: number[], max: number[]}} Bounds */

/**
 * The bounding box of `n * dims` coordinates (non-finite values skipped).
 * @param {Float32Array} positions
 * @param {number} dims
 * @returns {Bounds}
 */
export function boundsOf(positions, dims) {
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < positions.length; i += dims) {
    for (let d = 0; d < dims; d++) {
      const v = positions[i + d];
      if (v < min[d]) min[d] = v;
      if (v > max[d]) max[d] = v;
    }
  }
  for (let d = 0; d < 3; d++) {
    if (!(min[d] <= max[d])) {
      min[d] = -1;
      max[d] = 1;
    }
  }
  return { min, max };
}

/** Pan and zoom over a plane: `center` in data units, `scale` CSS pixels per data unit. */
export class Camera2D {
  constructor() {
    this.center = [0, 0];
    this.scale = 1;
  }

  /**
   * Fit `bounds` into a `width` x `height` view with a margin.
   * @param {Bounds} bounds @param {number} width @param {number} height
   */
  fit(bounds, width, height) {
    const w = Math.max(bounds.max[0] - bounds.min[0], 1e-12);
    const h = Math.max(bounds.max[1] - bounds.min[1], 1e-12);
    this.center = [(bounds.min[0] + bounds.max[0]) / 2, (bounds.min[1] + bounds.max[1]) / 2];
    this.scale = 0.9 * Math.min(width / w, height / h);
  }

  /** @param {number} dx @param {number} dy  CSS pixels */
  pan(dx, dy) {
    this.center = [this.center[0] - dx / this.scale, this.center[1] + dy / this.scale];
  }

  /**
   * Zoom by `factor` keeping the point under (px, py) in place.
   * @param {number} factor @param {number} px @param {number} py @param {number} width @param {number} height
   */
  zoomAt(factor, px, py, width, height) {
    const x = this.center[0] + (px - width / 2) / this.scale;
    const y = this.center[1] - (py - height / 2) / this.scale;
    this.scale *= factor;
    this.center = [x - (px - width / 2) / this.scale, y + (py - height / 2) / this.scale];
  }

  /** @param {number} width @param {number} height */
  matrix(width, height) {
    const hw = width / 2 / this.scale;
    const hh = height / 2 / this.scale;
    const [cx, cy] = this.center;
    return ortho(cx - hw, cx + hw, cy - hh, cy + hh, -1e6, 1e6);
  }
}

/** Orbit around `target`: `theta` (around the vertical), `phi` (elevation), `distance`. */
export class OrbitCamera {
  constructor() {
    this.target = [0, 0, 0];
    this.distance = 3;
    this.theta = 0.6;
    this.phi = 0.35;
    this.fovy = Math.PI / 4;
  }

  /** @param {Bounds} bounds */
  fit(bounds) {
    this.target = [0, 1, 2].map((d) => (bounds.min[d] + bounds.max[d]) / 2);
    const radius = Math.max(Math.hypot(...[0, 1, 2].map((d) => bounds.max[d] - bounds.min[d])) / 2, 1e-9);
    this.distance = (radius / Math.sin(this.fovy / 2)) * 1.05;
  }

  /** @param {number} dx @param {number} dy  CSS pixels dragged */
  rotate(dx, dy) {
    this.theta -= dx * 0.008;
    this.phi = Math.min(Math.max(this.phi + dy * 0.008, -1.5), 1.5);
  }

  /** @param {number} factor  >1 moves closer */
  zoom(factor) {
    this.distance /= factor;
  }

  eye() {
    const c = Math.cos(this.phi);
    return [
      this.target[0] + this.distance * c * Math.sin(this.theta),
      this.target[1] + this.distance * Math.sin(this.phi),
      this.target[2] + this.distance * c * Math.cos(this.theta),
    ];
  }

  /** @param {number} width @param {number} height */
  matrix(width, height) {
    const near = this.distance / 100;
    const far = this.distance * 100;
    const proj = perspective(this.fovy, width / Math.max(height, 1), near, far);
    return multiply(proj, lookAt(this.eye(), this.target, [0, 1, 0]));
  }
}
