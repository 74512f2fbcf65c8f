// A WebGL2 point cloud: millions of round points (or sprite images) in one draw call.
//
// Per point: a position (2 or 3 float32), a colour (RGBA8) and flags (uint8: 1 selected,
// 2 search match, 4 neighbour, 8 focus, 16 hover). A sprite can be framed in its point's
// colour, so that colouring by a column shows with images on. Flagged points are drawn again on top
// with a ring, the others dimmed while anything is flagged. Moving the camera changes one
// uniform: no buffer is uploaded again, so a pan, zoom or orbit costs one draw. A draw can
// be limited to a uniform sample of the points (a fixed shuffled order, made and uploaded the
// first time a sample is drawn): see frame-budget.js.
import { sampleOrder } from "./frame-budget.js";
import { createProgram, webgl2 } from "./program.js";

/**
 * Diameter of a point in CSS pixels: `size`, or an image large enough to read when sprites
 * are drawn.
 * @param {number} size @param {boolean} sprites
 */
export function spriteSize(size, sprites) {
  return sprites ? Math.max(size * 5, 16) : size;
}

export const FLAG = { selected: 1, match: 2, neighbor: 4, focus: 8, hover: 16 };

const VERTEX = `#version 300 es
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec4 a_color;
layout(location = 2) in uint a_flags;
uniform mat4 u_matrix;
uniform float u_size;
uniform float u_opacity;
uniform float u_dim;
uniform float u_grow;
out vec4 v_color;
flat out uint v_flags;
flat out int v_index;
void main() {
  gl_Position = u_matrix * vec4(a_position, 1.0);
  uint f = a_flags;
  float size = u_size;
  if (u_grow > 0.5) {
    if ((f & 8u) != 0u) size *= 2.2;
    else if ((f & 20u) != 0u) size *= 1.7;
    else if ((f & 3u) != 0u) size *= 1.35;
    size = max(size, 6.0);
  }
  gl_PointSize = max(size, 1.0);
  float alpha = a_color.a * u_opacity * ((f & 31u) != 0u ? 1.0 : u_dim);
  v_color = vec4(a_color.rgb, alpha);
  v_flags = f;
  v_index = gl_VertexID;
}`;

const FRAGMENT = `#version 300 es
precision highp float;
in vec4 v_color;
flat in uint v_flags;
flat in int v_index;
uniform sampler2D u_sprite;
uniform bool u_useSprite;
uniform bool u_frame;
uniform float u_columns;
uniform vec2 u_cell;
out vec4 outColor;
vec4 ring(uint f) {
  if ((f & 8u) != 0u) return vec4(0.86, 0.08, 0.24, 1.0);
  if ((f & 16u) != 0u) return vec4(0.1, 0.1, 0.1, 1.0);
  if ((f & 4u) != 0u) return vec4(1.0, 0.55, 0.0, 1.0);
  if ((f & 2u) != 0u) return vec4(0.75, 0.0, 0.75, 1.0);
  return vec4(0.1, 0.1, 0.1, 1.0);
}
void main() {
  vec2 p = gl_PointCoord * 2.0 - 1.0;
  if (u_useSprite) {
    float index = float(v_index);
    float row = floor(index / u_columns);
    float col = index - row * u_columns;
    vec4 s = texture(u_sprite, (vec2(col, row) + gl_PointCoord) * u_cell);
    float edge = max(abs(p.x), abs(p.y));
    if ((v_flags & 31u) != 0u && edge > 0.86) s = ring(v_flags);
    else if (u_frame && edge > 0.84) s = vec4(v_color.rgb, 1.0);
    float a = s.a * v_color.a;
    outColor = vec4(s.rgb * a, a);
    return;
  }
  float r = dot(p, p);
  if (r > 1.0) discard;
  vec4 c = v_color;
  if ((v_flags & 31u) != 0u && r > 0.45) c = vec4(ring(v_flags).rgb, 1.0);
  float a = c.a * (1.0 - smoothstep(0.75, 1.0, r));
  outColor = vec4(c.rgb * a, a);
}`;

const UNIFORMS = [
  "u_matrix",
  "u_size",
  "u_opacity",
  "u_dim",
  "u_grow",
  "u_sprite",
  "u_useSprite",
  "u_frame",
  "u_columns",
  "u_cell",
];

export class PointRenderer {
  /** @param {HTMLCanvasElement} canvas */
  constructor(canvas) {
    const gl = webgl2(canvas);
    if (!gl) throw new Error("this browser has no WebGL2: the projector needs it");
    this.gl = gl;
    this.canvas = canvas;
    const { program, uniforms } = createProgram(gl, VERTEX, FRAGMENT, UNIFORMS);
    this.program = program;
    this.u = uniforms;
    this.vao = gl.createVertexArray();
    this.buffers = {
      position: gl.createBuffer(),
      color: gl.createBuffer(),
      flags: gl.createBuffer(),
      highlight: gl.createBuffer(),
      order: gl.createBuffer(),
    };
    /** Points in the uploaded sample order (0: none uploaded). */
    this.orderSize = 0;
    this.n = 0;
    this.dims = 2;
    this.highlightCount = 0;
    /** @type {WebGLTexture | null} */
    this.texture = null;
    this.sprite = { columns: 1, cell: [1, 1] };
    this.lastDrawMs = 0;
  }

  /**
   * @param {Float32Array} positions  n * dims
   * @param {number} dims  2 or 3
   */
  setPositions(positions, dims) {
    const gl = this.gl;
    this.dims = dims;
    this.n = Math.floor(positions.length / dims);
    gl.bindVertexArray(this.vao);
    gl.bindBuffer(gl.ARRAY_BUFFER, this.buffers.position);
    gl.bufferData(gl.ARRAY_BUFFER, positions, gl.DYNAMIC_DRAW);
    gl.enableVertexAttribArray(0);
    gl.vertexAttribPointer(0, dims, gl.FLOAT, false, 0, 0);
    if (dims === 2) gl.vertexAttrib3f(0, 0, 0, 0);
    gl.bindVertexArray(null);
  }

  /** @param {Uint8Array} rgba  n * 4 */
  setColors(rgba) {
    const gl = this.gl;
    gl.bindVertexArray(this.vao);
    gl.bindBuffer(gl.ARRAY_BUFFER, this.buffers.color);
    gl.bufferData(gl.ARRAY_BUFFER, rgba, gl.DYNAMIC_DRAW);
    gl.enableVertexAttribArray(1);
    gl.vertexAttribPointer(1, 4, gl.UNSIGNED_BYTE, true, 0, 0);
    gl.bindVertexArray(null);
  }

  /**
   * Flags of every point, and the flagged ones (drawn again, on top).
   * @param {Uint8Array} flags  n
   * @param {Uint32Array} flagged  indices
   */
  setFlags(flags, flagged) {
    const gl = this.gl;
    gl.bindVertexArray(this.vao);
    gl.bindBuffer(gl.ARRAY_BUFFER, this.buffers.flags);
    gl.bufferData(gl.ARRAY_BUFFER, flags, gl.DYNAMIC_DRAW);
    gl.enableVertexAttribArray(2);
    gl.vertexAttribIPointer(2, 1, gl.UNSIGNED_BYTE, 0, 0);
    gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, this.buffers.highlight);
    gl.bufferData(gl.ELEMENT_ARRAY_BUFFER, flagged, gl.DYNAMIC_DRAW);
    gl.bindVertexArray(null);
    this.highlightCount = flagged.length;
  }

  /**
   * The sprite atlas (one image per point, row by row), or null for round points.
   * @param {ImageBitmap | null} image
   * @param {number} [cellWidth] @param {number} [cellHeight]
   * @returns {string}  why it is not used ('' when it is)
   */
  setSprite(image, cellWidth = 1, cellHeight = 1) {
    const gl = this.gl;
    if (this.texture) gl.deleteTexture(this.texture);
    this.texture = null;
    if (!image) return "";
    const max = gl.getParameter(gl.MAX_TEXTURE_SIZE);
    if (image.width > max || image.height > max) {
      return `sprite ${image.width}x${image.height} is larger than this GPU's ${max}px textures`;
    }
    this.texture = gl.createTexture();
    gl.bindTexture(gl.TEXTURE_2D, this.texture);
    gl.pixelStorei(gl.UNPACK_PREMULTIPLY_ALPHA_WEBGL, false);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, gl.RGBA, gl.UNSIGNED_BYTE, image);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.LINEAR);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
    this.sprite = {
      columns: Math.max(Math.floor(image.width / cellWidth), 1),
      cell: [cellWidth / image.width, cellHeight / image.height],
    };
    return "";
  }

  /**
   * Size the drawing buffer to `width` x `height` CSS pixels at `dpr`.
   * @param {number} width @param {number} height @param {number} dpr
   */
  resize(width, height, dpr) {
    const w = Math.max(Math.round(width * dpr), 1);
    const h = Math.max(Math.round(height * dpr), 1);
    if (this.canvas.width !== w || this.canvas.height !== h) {
      this.canvas.width = w;
      this.canvas.height = h;
    }
    this.canvas.style.width = `${width}px`;
    this.canvas.style.height = `${height}px`;
    this.dpr = dpr;
  }

  /**
   * Draw every point (or a uniform sample of `count` of them), then the flagged ones on top.
   * @param {Float32Array} matrix  data -> clip space
   * @param {{size: number, opacity: number, dim: number, sprites: boolean, dpr: number, frame?: boolean}} style
   *   size: point diameter in CSS pixels; dim: alpha of unflagged points while some are flagged;
   *   frame: sprites get a frame in their point's colour (the colouring stays visible)
   * @param {number} [count]  points to draw (all by default)
   */
  draw(matrix, style, count = this.n) {
    const started = performance.now();
    const gl = this.gl;
    gl.viewport(0, 0, this.canvas.width, this.canvas.height);
    gl.clearColor(0, 0, 0, 0);
    gl.clear(gl.COLOR_BUFFER_BIT);
    if (!this.n) return;
    gl.useProgram(this.program);
    gl.enable(gl.BLEND);
    gl.blendFunc(gl.ONE, gl.ONE_MINUS_SRC_ALPHA);
    gl.disable(gl.DEPTH_TEST);
    const u = this.u;
    const sprites = style.sprites && this.texture !== null;
    gl.uniformMatrix4fv(u.u_matrix, false, matrix);
    gl.uniform1f(u.u_size, spriteSize(style.size, sprites) * style.dpr);
    gl.uniform1f(u.u_opacity, style.opacity);
    gl.uniform1i(u.u_useSprite, sprites ? 1 : 0);
    gl.uniform1i(u.u_frame, style.frame ? 1 : 0);
    if (sprites) {
      gl.activeTexture(gl.TEXTURE0);
      gl.bindTexture(gl.TEXTURE_2D, this.texture);
      gl.uniform1i(u.u_sprite, 0);
      gl.uniform1f(u.u_columns, this.sprite.columns);
      gl.uniform2f(u.u_cell, this.sprite.cell[0], this.sprite.cell[1]);
    }
    gl.bindVertexArray(this.vao);
    gl.uniform1f(u.u_dim, this.highlightCount ? style.dim : 1);
    gl.uniform1f(u.u_grow, 0);
    if (count >= this.n) {
      gl.drawArrays(gl.POINTS, 0, this.n);
    } else {
      this.bindOrder();
      gl.drawElements(gl.POINTS, Math.max(count, 0), gl.UNSIGNED_INT, 0);
      gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, this.buffers.highlight);
    }
    if (this.highlightCount) {
      gl.uniform1f(u.u_grow, 1);
      gl.drawElements(gl.POINTS, this.highlightCount, gl.UNSIGNED_INT, 0);
    }
    gl.bindVertexArray(null);
    this.lastDrawMs = performance.now() - started;
  }

  /** Bind the sample order as the element buffer (made the first time, and for a new n). */
  bindOrder() {
    const gl = this.gl;
    gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, this.buffers.order);
    if (this.orderSize !== this.n) {
      gl.bufferData(gl.ELEMENT_ARRAY_BUFFER, sampleOrder(this.n), gl.STATIC_DRAW);
      this.orderSize = this.n;
    }
  }

  /** Free every GPU resource. */
  dispose() {
    const gl = this.gl;
    for (const b of Object.values(this.buffers)) gl.deleteBuffer(b);
    if (this.texture) gl.deleteTexture(this.texture);
    gl.deleteVertexArray(this.vao);
    gl.deleteProgram(this.program);
    gl.getExtension("WEBGL_lose_context")?.loseContext();
  }
}
