// Light or dark: which theme a widget is shown in, and following it when it changes.
//
// Every colour of the kit's CSS is a `--tbnb-*` variable (css.js): JupyterLab's `--jp-*`
// where the host defines them (JupyterLab, Notebook 7, Voilà), VS Code's `--vscode-*` in
// VS Code's webview, else tbnb's own light or dark values. Which of those two applies is
// decided here, from what the host says, in this order: an exported page's
// `data-tbnb-theme` ("light", "dark", or "auto": the browser's `prefers-color-scheme`),
// JupyterLab's `data-jp-theme-light`, VS Code's `vscode-dark`/`vscode-light` body classes,
// marimo's `dark`/`dark-theme` classes and `data-theme`, and last the colour of the text
// around the widget (light text: a dark theme). Each view's root gets `tbnb-dark` when
// dark; canvas charts read their colours from the root's computed style when they draw,
// and are drawn again when the theme changes. Images and sprites are never recoloured.

/** @type {Set<WeakRef<{redraw: () => void, container: Element}>>} charts to redraw on a change */
const charts = new Set();

/**
 * Relative luminance-ish brightness of a CSS colour `rgb(...)`, 0..255 (NaN if unreadable).
 * @param {string} color
 */
function brightness(color) {
  const m = String(color).match(/[\d.]+/g);
  if (!m || m.length < 3) return Number.NaN;
  const [r, g, b] = m.map(Number);
  const alpha = m.length > 3 ? Number(m[3]) : 1;
  if (alpha === 0) return Number.NaN;
  return (r * 299 + g * 587 + b * 114) / 1000;
}

/**
 * Whether `host` (the element a widget is drawn into) is shown in a dark theme.
 * @param {Element} host
 * @returns {boolean}
 */
export function isDark(host) {
  const doc = host.ownerDocument || document;
  const html = doc.documentElement;
  const body = doc.body;
  const chosen = html.getAttribute("data-tbnb-theme");
  if (chosen === "dark") return true;
  if (chosen === "light") return false;
  if (chosen === "auto") return !!globalThis.matchMedia?.("(prefers-color-scheme: dark)").matches;
  const jp = body?.getAttribute("data-jp-theme-light");
  if (jp === "false") return true;
  if (jp === "true") return false;
  for (const node of [body, html]) {
    if (!node) continue;
    const classes = node.classList;
    if (classes.contains("vscode-dark") || classes.contains("vscode-high-contrast")) return true;
    if (classes.contains("vscode-light") || classes.contains("vscode-high-contrast-light")) return false;
    if (classes.contains("dark") || classes.contains("dark-theme") || classes.contains("dark-mode")) return true;
    const kind = node.getAttribute("data-vscode-theme-kind") || node.getAttribute("data-theme");
    if (kind === "dark" || kind === "vscode-dark" || kind === "vscode-high-contrast") return true;
    if (kind === "light" || kind === "vscode-light") return false;
  }
  const text = brightness(getComputedStyle(host).color);
  return Number.isFinite(text) && text > 150;
}

/**
 * Keep `root`'s `tbnb-dark` class on the theme `host` is shown in; returns the cleanup.
 * @param {HTMLElement} root  the view's root (`.tbnb-root`)
 * @param {Element} host
 * @returns {() => void}
 */
export function followTheme(root, host) {
  const apply = () => {
    const dark = isDark(host);
    if (root.classList.contains("tbnb-dark") === dark) return;
    root.classList.toggle("tbnb-dark", dark);
    redrawCharts(root);
  };
  apply();
  const doc = host.ownerDocument || document;
  /** @type {Array<() => void>} */
  const undo = [];
  if (typeof MutationObserver !== "undefined") {
    const observer = new MutationObserver(apply);
    for (const node of [doc.documentElement, doc.body]) {
      if (node)
        observer.observe(node, {
          attributes: true,
          attributeFilter: ["class", "data-jp-theme-light", "data-tbnb-theme", "data-theme", "data-vscode-theme-kind"],
        });
    }
    undo.push(() => observer.disconnect());
  }
  const media = globalThis.matchMedia?.("(prefers-color-scheme: dark)");
  if (media?.addEventListener) {
    media.addEventListener("change", apply);
    undo.push(() => media.removeEventListener("change", apply));
  }
  // attached later (anywidget may render into a detached element): look again once shown
  if (!host.isConnected) requestAnimationFrame(apply);
  return () => {
    for (const u of undo) u();
  };
}

/**
 * Draw `chart` again whenever the theme of the root it is in changes.
 * @param {{redraw: () => void, container: Element}} chart
 */
export function redrawOnTheme(chart) {
  charts.add(new WeakRef(chart));
}

/** @param {Element} root */
function redrawCharts(root) {
  for (const ref of charts) {
    const chart = ref.deref();
    if (!chart) {
      charts.delete(ref);
      continue;
    }
    if (chart.container.isConnected && root.contains(chart.container)) {
      try {
        chart.redraw();
      } catch (err) {
        console.error(err);
      }
    }
  }
}
