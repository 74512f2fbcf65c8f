// The "save image" button of a chart card: a small menu "PNG / SVG" (SVG only for charts
// that draw with a 2D context, see chart/image-export.js), keyboard reachable (Enter/Space
// opens, arrows move, Escape closes), downloading through a blob URL and a[download] (no
// network: it works in JupyterLab and in the exported page alike).
import { chartPNG, chartSVG, imageFileName } from "../chart/image-export.js";
import { el, focusedIn } from "../core/dom.js";

/** @typedef {import("../chart/image-export").ChartImage} ChartImage */

/**
 * Download `blob` as `filename` from an anchor inside `parent` (the widget's own DOM).
 * @param {HTMLElement} parent
 * @param {string} filename
 * @param {Blob} blob
 */
export function downloadBlob(parent, filename, blob) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  parent.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 5000);
}

/**
 * A save-image button with its menu. `image()` is asked at click time (null: nothing drawn
 * yet). The node carries `data-saved` ("png 1200x640", "svg 24817 bytes") after a save and
 * `data-error` when one failed.
 * @param {{on: (t: EventTarget, type: string, h: (e: any) => void) => void,
 *   image: () => ChartImage | null, svg?: boolean, label?: string}} options
 * @returns {HTMLElement}
 */
export function saveImageButton({ on, image, svg = true, label = "chart" }) {
  const button = el("button", {
    type: "button",
    class: "tbnb-save-button",
    text: "⤓",
    title: "Save as image (PNG or SVG)",
    "aria-label": `Save ${label} as image`,
    "aria-haspopup": "menu",
    "aria-expanded": "false",
  });
  const formats = svg ? ["png", "svg"] : ["png"];
  const items = formats.map((f) =>
    el("button", { type: "button", role: "menuitem", "data-format": f, tabindex: "-1", text: f.toUpperCase() }),
  );
  const menu = el("div", { class: "tbnb-save-menu", role: "menu", hidden: true }, ...items);
  const node = el("span", { class: "tbnb-save-image" }, button, menu);
  const open = (/** @type {boolean} */ yes, focus = false) => {
    menu.hidden = !yes;
    button.setAttribute("aria-expanded", String(yes));
    if (yes && focus) items[0].focus();
  };
  on(button, "click", (/** @type {MouseEvent} */ e) => {
    e.stopPropagation();
    open(menu.hidden, e.detail === 0);
  });
  on(node, "keydown", (/** @type {KeyboardEvent} */ e) => {
    const at = items.indexOf(/** @type {any} */ (focusedIn(node)));
    if (e.key === "Escape" && !menu.hidden) {
      open(false);
      button.focus();
    } else if ((e.key === "ArrowDown" || e.key === "ArrowUp") && !menu.hidden) {
      const step = e.key === "ArrowDown" ? 1 : -1;
      items[(at + step + items.length) % items.length].focus();
    } else return;
    e.preventDefault();
    e.stopPropagation();
  });
  // Focus leaving the button and its menu closes the menu (no document-wide listener: a
  // button lives and dies with its card).
  on(node, "focusout", (/** @type {FocusEvent} */ e) => {
    if (!menu.hidden && !node.contains(/** @type {Node | null} */ (e.relatedTarget))) open(false);
  });
  for (const item of items) {
    on(item, "click", async (/** @type {MouseEvent} */ e) => {
      e.stopPropagation();
      open(false);
      button.focus();
      const format = /** @type {"png" | "svg"} */ (item.getAttribute("data-format"));
      node.removeAttribute("data-error");
      try {
        const spec = image();
        if (!spec) throw new Error("nothing is drawn yet");
        const name = imageFileName(spec.subtitle ? `${spec.title}_${spec.subtitle}` : spec.title, format);
        if (format === "png") {
          const png = await chartPNG(spec);
          downloadBlob(node, name, png.blob);
          node.setAttribute("data-saved", `png ${png.width}x${png.height}`);
        } else {
          const text = chartSVG(spec);
          downloadBlob(node, name, new Blob([text], { type: "image/svg+xml" }));
          node.setAttribute("data-saved", `svg ${text.length} chars`);
        }
      } catch (err) {
        node.setAttribute("data-error", String(/** @type {Error} */ (err).message || err));
      }
    });
  }
  return node;
}
