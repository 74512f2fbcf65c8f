// WebGL2 contexts and shader programs. One context per view canvas; everything is freed by
// the owner's dispose(). WebGL2 only (every current browser has it; no WebGPU-only path).

/**
 * A WebGL2 context for `canvas`, or null where there is none.
 * `preserveDrawingBuffer` keeps the last frame readable (screenshots, toDataURL).
 * @param {HTMLCanvasElement} canvas
 * @returns {WebGL2RenderingContext | null}
 */
export function webgl2(canvas) {
  return canvas.getContext("webgl2", {
    antialias: false,
    alpha: true,
    premultipliedAlpha: true,
    preserveDrawingBuffer: true,
    powerPreference: "high-performance",
  });
}

/**
 * @param {WebGL2RenderingContext} gl
 * @param {number} type
 * @param {string} source
 */
function compile(gl, type, source) {
  const shader = gl.createShader(type);
  if (!shader) throw new Error("WebGL: cannot create a shader");
  gl.shaderSource(shader, source);
  gl.compileShader(shader);
  if (!gl.getShaderParameter(shader, gl.COMPILE_STATUS)) {
    const log = gl.getShaderInfoLog(shader);
    gl.deleteShader(shader);
    throw new Error(`WebGL shader: ${log}`);
  }
  return shader;
}

/**
 * Compile and link a program; its uniform locations by name.
 * @param {WebGL2RenderingContext} gl
 * @param {string} vertex
 * @param {string} fragment
 * @param {string[]} uniforms
 * @returns {{program: WebGLProgram, uniforms: Record<string, WebGLUniformLocation | null>}}
 */
export function createProgram(gl, vertex, fragment, uniforms) {
  const program = gl.createProgram();
  if (!program) throw new Error("WebGL: cannot create a program");
  const vs = compile(gl, gl.VERTEX_SHADER, vertex);
  const fs = compile(gl, gl.FRAGMENT_SHADER, fragment);
  gl.attachShader(program, vs);
  gl.attachShader(program, fs);
  gl.linkProgram(program);
  gl.deleteShader(vs);
  gl.deleteShader(fs);
  if (!gl.getProgramParameter(program, gl.LINK_STATUS)) {
    throw new Error(`WebGL program: ${gl.getProgramInfoLog(program)}`);
  }
  /** @type {Record<string, WebGLUniformLocation | null>} */
  const locations = {};
  for (const name of uniforms) locations[name] = gl.getUniformLocation(program, name);
  return { program, uniforms: locations };
}
