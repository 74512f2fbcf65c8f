// Meshes and point clouds in WebGL2: shaded triangles, their edges, or round points.
//
// One MeshRenderer (one context) draws any number of meshes, each uploaded once as a
// MeshBuffers: positions quantised to uint16 within the mesh's box (read back in the vertex
// shader from the box's origin and size: half the memory of float32), RGB8 colours per
// vertex (or one colour for all), and the faces' vertex indices (uint16 or uint32). Solid
// triangles are shaded from their screen-space normal (no normals are sent); wireframe
// draws each triangle's edges (made from the faces the first time they are asked for).
// A camera move changes one uniform; a point cloud can be drawn as a uniform sample of
// its points (frame-budget.js's fixed shuffled order) while the view moves.
import { sampleOrder } from "./frame-budget.js";
import { createProgram, webgl2 } from "./program.js";

const VERTEX = `#version 300 es
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_color;
uniform mat4 u_matrix;
uniform vec3 u_origin;
uniform vec3 u_scale;
uniform float u_size;
out vec3 v_color;
out vec3 v_world;
void main() {
  vec3 p = u_origin + a_position * u_scale;
  v_world = p;
  v_color = a_color;
  gl_Position = u_matrix * vec4(p, 1.0);
  gl_PointSize = u_size;
}`;

const FRAGMENT = `#version 300 es
precision highp float;
in vec3 v_color;
in vec3 v_world;
uniform int u_mode;
uniform vec3 u_eye;
out vec4 outColor;
void main() {
  if (u_mode == 0) {
    vec2 p = gl_PointCoord * 2.0 - 1.0;
    if (dot(p, p) > 1.0) discard;
    outColor = vec4(v_color, 1.0);
  } else if (u_mode == 1) {
    vec3 n = normalize(cross(dFdx(v_world), dFdy(v_world)));
    float light = abs(dot(n, normalize(u_eye - v_world)));
    outColor = vec4(v_color * (0.3 + 0.7 * light), 1.0);
  } else {
    outColor = vec4(v_color, 1.0);
  }
}`;

const UNIFORMS = ["u_matrix", "u_origin", "u_scale", "u_size", "u_mode", "u_eye"];

/** How a mesh is drawn. */
export const MODES = /** @type {const} */ (["solid", "wireframe", "points"]);

/**
 * @typedef {object} Geometry
 * @property {Uint16Array} positions   3 per vertex, 0..65535 across the box
 * @property {number[]} origin         the box's lowest corner
 * @property {number[]} scale          the box's size per axis
 * @property {Uint8Array | null} colors   RGB per vertex
 * @property {Uint16Array | Uint32Array | null} faces  3 vertex indices per triangle
 */

/**
 * The edges of every triangle, as vertex index pairs (each shared edge once).
 * @param {Uint16Array | Uint32Array} faces
 * @param {number} [n]  vertices (indices are below it)
 * @returns {Uint32Array}
 */
export function edgesOf(faces, n = 65536) {
  const seen = new Set();
  const out = [];
  for (let i = 0; i + 2 < faces.length; i += 3) {
    for (let k = 0; k < 3; k++) {
      const a = faces[i + k];
      const b = faces[i + ((k + 1) % 3)];
      const lo = Math.min(a, b);
      const hi = Math.max(a, b);
      const key = lo * n + hi; // exact: n * n < 2^53 for any mesh WebGL can index
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(lo, hi);
    }
  }
  return Uint32Array.from(out);
}

/** One mesh on the GPU. */
export class MeshBuffers {
  /**
   * @param {WebGL2RenderingContext} gl
   * @param {Geometry} geometry
   */
  constructor(gl, geometry) {
    this.gl = gl;
    this.n = Math.floor(geometry.positions.length / 3);
    this.origin = geometry.origin;
    this.scale = geometry.scale;
    this.hasColors = geometry.colors !== null && geometry.colors.length === this.n * 3;
    this.faces = geometry.faces;
    this.faceCount = geometry.faces ? Math.floor(geometry.faces.length / 3) : 0;
    this.indexType = geometry.faces instanceof Uint32Array ? gl.UNSIGNED_INT : gl.UNSIGNED_SHORT;
    this.vao = gl.createVertexArray();
    /** @type {WebGLBuffer[]} */
    this.owned = [];
    gl.bindVertexArray(this.vao);
    this.buffer(gl.ARRAY_BUFFER, geometry.positions);
    gl.enableVertexAttribArray(0);
    gl.vertexAttribPointer(0, 3, gl.UNSIGNED_SHORT, true, 0, 0);
    if (this.hasColors && geometry.colors) {
      this.buffer(gl.ARRAY_BUFFER, geometry.colors);
      gl.enableVertexAttribArray(1);
      gl.vertexAttribPointer(1, 3, gl.UNSIGNED_BYTE, true, 0, 0);
    }
    /** @type {WebGLBuffer | null} */
    this.faceBuffer = geometry.faces ? this.buffer(gl.ELEMENT_ARRAY_BUFFER, geometry.faces) : null;
    gl.bindVertexArray(null);
    /** @type {{buffer: WebGLBuffer, count: number} | null} */
    this.edges = null;
    /** @type {WebGLBuffer | null} */
    this.order = null;
    /** Bytes held on the GPU (positions, colours, indices). */
    this.bytes = geometry.positions.byteLength + (this.hasColors ? this.n * 3 : 0) + (geometry.faces?.byteLength || 0);
  }

  /**
   * @param {number} target @param {ArrayBufferView} data
   * @returns {WebGLBuffer}
   */
  buffer(target, data) {
    const gl = this.gl;
    const buffer = gl.createBuffer();
    if (!buffer) throw new Error("WebGL: cannot create a buffer");
    gl.bindBuffer(target, buffer);
    gl.bufferData(target, data, gl.STATIC_DRAW);
    this.owned.push(buffer);
    return buffer;
  }

  /** The bounding box in data units. */
  bounds() {
    return {
      min: [0, 1, 2].map((d) => this.origin[d]),
      max: [0, 1, 2].map((d) => this.origin[d] + this.scale[d]),
    };
  }

  /** Bind the edges as the element buffer (made from the faces the first time). */
  bindEdges() {
    const gl = this.gl;
    if (!this.edges && this.faces) {
      const pairs = edgesOf(this.faces, this.n);
      this.edges = { buffer: this.buffer(gl.ELEMENT_ARRAY_BUFFER, pairs), count: pairs.length };
      this.bytes += pairs.byteLength;
    }
    if (this.edges) gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, this.edges.buffer);
    return this.edges ? this.edges.count : 0;
  }

  /** Bind the sample order of the points as the element buffer (made the first time). */
  bindOrder() {
    const gl = this.gl;
    if (!this.order) {
      this.order = this.buffer(gl.ELEMENT_ARRAY_BUFFER, sampleOrder(this.n));
      this.bytes += this.n * 4;
    }
    gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, this.order);
  }

  /** Free the GPU buffers. */
  dispose() {
    const gl = this.gl;
    for (const b of this.owned) gl.deleteBuffer(b);
    this.owned = [];
    gl.deleteVertexArray(this.vao);
  }
}

/**
 * @typedef {object} MeshStyle
 * @property {"solid" | "wireframe" | "points"} mode
 * @property {number} size       point diameter in CSS pixels
 * @property {number} dpr
 * @property {number[]} color    RGB 0..1 where the mesh has no colours
 * @property {number[]} eye      the camera's position (lighting)
 */

export class MeshRenderer {
  /** @param {HTMLCanvasElement} canvas  the canvas every mesh is drawn on (or an OffscreenCanvas) */
  constructor(canvas) {
    const gl = webgl2(canvas);
    if (!gl) throw new Error("this browser has no WebGL2: the mesh view needs it");
    this.gl = gl;
    this.canvas = canvas;
    const { program, uniforms } = createProgram(gl, VERTEX, FRAGMENT, UNIFORMS);
    this.program = program;
    this.u = uniforms;
    this.lastDrawMs = 0;
  }

  /** @param {Geometry} geometry */
  upload(geometry) {
    return new MeshBuffers(this.gl, geometry);
  }

  /**
   * Size the drawing buffer to `width` x `height` CSS pixels at `dpr`.
   * @param {number} width @param {number} height @param {number} dpr
   */
  resize(width, height, dpr) {
    const w = Math.max(Math.round(width * dpr), 1);
    const h = Math.max(Math.round(height * dpr), 1);
    if (this.canvas.width !== w) this.canvas.width = w;
    if (this.canvas.height !== h) this.canvas.height = h;
  }

  /**
   * Draw one mesh: triangles (solid), their edges (wireframe) or points; a mesh without
   * faces is drawn as points in every mode. `count` limits the points drawn to a uniform
   * sample of them (a point cloud while the view moves).
   * @param {MeshBuffers} mesh
   * @param {Float32Array} matrix  data -> clip space
   * @param {MeshStyle} style
   * @param {number} [count]
   * @returns {number}  points, edges or triangles drawn
   */
  draw(mesh, matrix, style, count = mesh.n) {
    const started = performance.now();
    const gl = this.gl;
    gl.viewport(0, 0, this.canvas.width, this.canvas.height);
    gl.clearColor(0, 0, 0, 0);
    gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
    if (!mesh.n) return 0;
    gl.useProgram(this.program);
    gl.disable(gl.BLEND);
    gl.enable(gl.DEPTH_TEST);
    gl.depthFunc(gl.LEQUAL);
    const u = this.u;
    gl.uniformMatrix4fv(u.u_matrix, false, matrix);
    gl.uniform3fv(u.u_origin, mesh.origin);
    gl.uniform3fv(u.u_scale, mesh.scale);
    gl.uniform1f(u.u_size, Math.max(style.size * style.dpr, 1));
    gl.uniform3fv(u.u_eye, style.eye);
    gl.bindVertexArray(mesh.vao);
    if (!mesh.hasColors) gl.vertexAttrib3f(1, style.color[0], style.color[1], style.color[2]);
    let drawn = 0;
    const mode = mesh.faceCount ? style.mode : "points";
    if (mode === "solid") {
      gl.uniform1i(u.u_mode, 1);
      gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, mesh.faceBuffer);
      gl.drawElements(gl.TRIANGLES, mesh.faceCount * 3, mesh.indexType, 0);
      drawn = mesh.faceCount;
    } else if (mode === "wireframe") {
      gl.uniform1i(u.u_mode, 2);
      const edges = mesh.bindEdges();
      gl.drawElements(gl.LINES, edges, gl.UNSIGNED_INT, 0);
      drawn = edges / 2;
    } else {
      gl.uniform1i(u.u_mode, 0);
      if (count >= mesh.n) {
        gl.drawArrays(gl.POINTS, 0, mesh.n);
        drawn = mesh.n;
      } else {
        mesh.bindOrder();
        drawn = Math.max(Math.floor(count), 0);
        gl.drawElements(gl.POINTS, drawn, gl.UNSIGNED_INT, 0);
      }
    }
    gl.bindVertexArray(null);
    this.lastDrawMs = performance.now() - started;
    return drawn;
  }

  /** Free the program and the context (each MeshBuffers is freed by its owner). */
  dispose() {
    this.gl.deleteProgram(this.program);
    this.gl.getExtension("WEBGL_lose_context")?.loseContext();
  }
}
