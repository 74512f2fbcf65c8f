// The graph view's pointer: drag pans, hovering names the item under the pointer, a click
// selects a node or opens/closes a group (its toggle), double-click toggles a group, the
// wheel zooms about the pointer.

import { hitTest, onToggle } from "./scene.js";

/**
 * Listen to the pointer on the view's canvas (listeners live and die with the view).
 * @param {import("./view").GraphView} view
 */
export function bindPointer(view) {
  const on = view.on.bind(view);
  /** @type {{x: number, y: number, tx: number, ty: number, moved: boolean} | null} */
  let drag = null;
  /** @param {MouseEvent} e @returns {[number, number]} */
  const local = (e) => {
    const r = view.canvas.getBoundingClientRect();
    return [e.clientX - r.left, e.clientY - r.top];
  };
  on(view.canvas, "pointerdown", (/** @type {PointerEvent} */ e) => {
    drag = { x: e.clientX, y: e.clientY, tx: view.camera.tx, ty: view.camera.ty, moved: false };
    view.canvas.setPointerCapture?.(e.pointerId);
  });
  on(view.canvas, "pointermove", (/** @type {PointerEvent} */ e) => {
    if (drag && (drag.moved || Math.hypot(e.clientX - drag.x, e.clientY - drag.y) > 3)) {
      drag.moved = true;
      view.camera.tx = drag.tx + e.clientX - drag.x;
      view.camera.ty = drag.ty + e.clientY - drag.y;
      view.frames.request();
      return;
    }
    if (!view.scene) return;
    const [gx, gy] = view.camera.toGraph(...local(e));
    const item = hitTest(view.scene, gx, gy);
    if (item !== view.hover) {
      view.hover = item;
      view.canvas.title = item >= 0 ? view.nameOf(item) : "";
      view.root.setAttribute("data-hover", item >= 0 ? view.nameOf(item) : "");
      view.frames.request();
    }
  });
  on(view.canvas, "pointerup", (/** @type {PointerEvent} */ e) => {
    const was = drag;
    drag = null;
    if (!was || was.moved || !view.scene) return;
    const [gx, gy] = view.camera.toGraph(...local(e));
    const item = hitTest(view.scene, gx, gy);
    const k = item >= 0 ? view.scene.index.get(item) : undefined;
    if (k !== undefined && item >= view.data.n && onToggle(view.scene, k, gx, gy)) view.toggle(item - view.data.n);
    else view.save({ selected: item >= 0 ? view.nameOf(item) : "" });
  });
  on(view.canvas, "dblclick", (/** @type {MouseEvent} */ e) => {
    if (!view.scene) return;
    const [gx, gy] = view.camera.toGraph(...local(e));
    const item = hitTest(view.scene, gx, gy);
    const k = item >= 0 ? view.scene.index.get(item) : undefined;
    if (k !== undefined && item >= view.data.n && !onToggle(view.scene, k, gx, gy)) view.toggle(item - view.data.n);
  });
  on(
    view.canvas,
    "wheel",
    (/** @type {WheelEvent} */ e) => {
      e.preventDefault();
      const [sx, sy] = local(e);
      view.camera.zoomAt(sx, sy, Math.exp(-e.deltaY * 0.0015));
      view.frames.request();
    },
    { passive: false },
  );
}
