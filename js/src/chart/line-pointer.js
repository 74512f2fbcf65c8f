// The line chart's pointer: hovering moves the readout, a drag across the plot zooms x to
// the dragged span (reported through `onZoom`), a double-click zooms back out.

/**
 * Listen to the pointer on the chart's top canvas (through the owner's `on`, so the
 * listeners go with the view).
 * @param {import("./line-chart").LineChart} chart
 */
export function bindLinePointer(chart) {
  const c = chart.surface.top;
  const on = chart.options.on;
  const pos = (/** @type {MouseEvent} */ e) => {
    const r = c.getBoundingClientRect();
    return [e.clientX - r.left, e.clientY - r.top];
  };
  const invert = (/** @type {number} */ px) => (chart.maps ? chart.maps.x.invert(px) : null);
  on(c, "mousemove", (/** @type {MouseEvent} */ e) => {
    const [px, py] = pos(e);
    if (chart.drag) chart.drag.b = px;
    chart.hoverX = invert(px);
    chart.pointerY = py;
    if (chart.maps) chart.drawOver();
  });
  on(c, "mouseleave", () => {
    chart.hoverX = null;
    chart.drag = null;
    if (chart.maps) chart.drawOver();
  });
  on(c, "mousedown", (/** @type {MouseEvent} */ e) => {
    const [px] = pos(e);
    chart.drag = { a: px, b: px };
  });
  on(c, "mouseup", (/** @type {MouseEvent} */ e) => {
    const d = chart.drag;
    chart.drag = null;
    if (!d) return;
    d.b = pos(e)[0];
    if (Math.abs(d.b - d.a) > 5) {
      const lo = invert(Math.min(d.a, d.b));
      const hi = invert(Math.max(d.a, d.b));
      if (lo !== null && hi !== null) {
        chart.zoom = [lo, hi];
        chart.options.onZoom(chart.zoom);
      }
    }
    chart.draw();
  });
  on(c, "dblclick", () => {
    chart.zoom = null;
    chart.options.onZoom(null);
    chart.draw();
  });
}
