// 4x4 matrices for the point views: column-major Float32Array(16), as WebGL takes them.

/** @typedef {Float32Array} Mat4 */

/** @returns {Mat4} */
export function identity() {
  const m = new Float32Array(16);
  m[0] = m[5] = m[10] = m[15] = 1;
  return m;
}

/**
 * a * b (apply b first).
 * @param {Mat4} a
 * @param {Mat4} b
 * @returns {Mat4}
 */
export function multiply(a, b) {
  const out = new Float32Array(16);
  for (let c = 0; c < 4; c++) {
    for (let r = 0; r < 4; r++) {
      let s = 0;
      for (let k = 0; k < 4; k++) s += a[k * 4 + r] * b[c * 4 + k];
      out[c * 4 + r] = s;
    }
  }
  return out;
}

/**
 * Orthographic projection of the box [left, right] x [bottom, top] x [near, far].
 * @param {number} left @param {number} right @param {number} bottom @param {number} top
 * @param {number} near @param {number} far
 * @returns {Mat4}
 */
export function ortho(left, right, bottom, top, near, far) {
  const m = identity();
  m[0] = 2 / (right - left);
  m[5] = 2 / (top - bottom);
  m[10] = -2 / (far - near);
  m[12] = -(right + left) / (right - left);
  m[13] = -(top + bottom) / (top - bottom);
  m[14] = -(far + near) / (far - near);
  return m;
}

/**
 * Perspective projection.
 * @param {number} fovy  vertical field of view, radians
 * @param {number} aspect  width / height
 * @param {number} near @param {number} far
 * @returns {Mat4}
 */
export function perspective(fovy, aspect, near, far) {
  const f = 1 / Math.tan(fovy / 2);
  const m = new Float32Array(16);
  m[0] = f / aspect;
  m[5] = f;
  m[10] = (far + near) / (near - far);
  m[11] = -1;
  m[14] = (2 * far * near) / (near - far);
  return m;
}

/**
 * A view matrix looking from `eye` at `target`, `up` roughly up.
 * @param {number[]} eye @param {number[]} target @param {number[]} up
 * @returns {Mat4}
 */
export function lookAt(eye, target, up) {
  let zx = eye[0] - target[0];
  let zy = eye[1] - target[1];
  let zz = eye[2] - target[2];
  let len = Math.hypot(zx, zy, zz) || 1;
  zx /= len;
  zy /= len;
  zz /= len;
  let xx = up[1] * zz - up[2] * zy;
  let xy = up[2] * zx - up[0] * zz;
  let xz = up[0] * zy - up[1] * zx;
  len = Math.hypot(xx, xy, xz) || 1;
  xx /= len;
  xy /= len;
  xz /= len;
  const yx = zy * xz - zz * xy;
  const yy = zz * xx - zx * xz;
  const yz = zx * xy - zy * xx;
  const m = identity();
  m[0] = xx;
  m[4] = xy;
  m[8] = xz;
  m[1] = yx;
  m[5] = yy;
  m[9] = yz;
  m[2] = zx;
  m[6] = zy;
  m[10] = zz;
  m[12] = -(xx * eye[0] + xy * eye[1] + xz * eye[2]);
  m[13] = -(yx * eye[0] + yy * eye[1] + yz * eye[2]);
  m[14] = -(zx * eye[0] + zy * eye[1] + zz * eye[2]);
  return m;
}

/**
 * Project points to CSS pixels of a `width` x `height` canvas through matrix `m`.
 * `out[2i], out[2i+1]` are x, y (y down); points behind the camera get NaN.
 * @param {Mat4} m
 * @param {Float32Array} positions  n * dims
 * @param {number} dims  2 or 3
 * @param {number} width @param {number} height
 * @param {Float32Array} [out]
 * @returns {Float32Array}
 */
export function projectAll(m, positions, dims, width, height, out) {
  const n = Math.floor(positions.length / dims);
  const result = out && out.length >= 2 * n ? out : new Float32Array(2 * n);
  const hw = width / 2;
  const hh = height / 2;
  for (let i = 0; i < n; i++) {
    const x = positions[i * dims];
    const y = positions[i * dims + 1];
    const z = dims === 3 ? positions[i * dims + 2] : 0;
    const w = m[3] * x + m[7] * y + m[11] * z + m[15];
    if (!(w > 1e-9)) {
      result[2 * i] = Number.NaN;
      result[2 * i + 1] = Number.NaN;
      continue;
    }
    result[2 * i] = ((m[0] * x + m[4] * y + m[8] * z + m[12]) / w + 1) * hw;
    result[2 * i + 1] = (1 - (m[1] * x + m[5] * y + m[9] * z + m[13]) / w) * hh;
  }
  return result;
}
