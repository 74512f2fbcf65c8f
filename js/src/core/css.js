// Styles: the kit's shared CSS, scoped under `.tbnb-root` and injected once per page;
// each widget's own CSS is scoped under its root class `.tbnb-w-<key>` (see renderView).
// Never a global rule: a test checks that every selector starts with one of those.
// Every colour is a `--tbnb-*` variable defined here once: the host's theme variables where it
// has them (JupyterLab's `--jp-*`, VS Code's `--vscode-*`), else tbnb's light values, or its
// dark values on a root marked `tbnb-dark` (theme.js decides, from what the host says).

export const KIT_CSS = `
.tbnb-root{--tbnb-fg:var(--jp-ui-font-color1,var(--vscode-editor-foreground,#222));--tbnb-muted:var(--jp-ui-font-color2,var(--vscode-descriptionForeground,#666));--tbnb-bg:var(--jp-layout-color0,var(--vscode-editor-background,#fff));--tbnb-bg-alt:var(--jp-layout-color1,var(--vscode-editorWidget-background,#f6f6f6));--tbnb-bg-hover:var(--jp-layout-color2,var(--vscode-list-hoverBackground,#eee));--tbnb-border:var(--jp-border-color1,var(--vscode-panel-border,#bbb));--tbnb-border-soft:var(--jp-border-color2,var(--vscode-editorWidget-border,#e0e0e0));--tbnb-accent:var(--jp-brand-color1,var(--vscode-focusBorder,#4e79a7));--tbnb-accent-soft:var(--jp-brand-color3,var(--vscode-editor-selectionBackground,#c8d7ea));--tbnb-link:var(--jp-content-link-color,var(--vscode-textLink-foreground,#1a6ec1));--tbnb-font:var(--jp-ui-font-family,var(--vscode-font-family,system-ui,sans-serif));--tbnb-code-font:var(--jp-code-font-family,var(--vscode-editor-font-family,SFMono-Regular,Menlo,Consolas,monospace))}
.tbnb-root.tbnb-dark{--tbnb-fg:var(--jp-ui-font-color1,var(--vscode-editor-foreground,#e0e0e0));--tbnb-muted:var(--jp-ui-font-color2,var(--vscode-descriptionForeground,#a8a8a8));--tbnb-bg:var(--jp-layout-color0,var(--vscode-editor-background,#1e1e1e));--tbnb-bg-alt:var(--jp-layout-color1,var(--vscode-editorWidget-background,#262626));--tbnb-bg-hover:var(--jp-layout-color2,var(--vscode-list-hoverBackground,#333));--tbnb-border:var(--jp-border-color1,var(--vscode-panel-border,#5a5a5a));--tbnb-border-soft:var(--jp-border-color2,var(--vscode-editorWidget-border,#3c3c3c));--tbnb-accent:var(--jp-brand-color1,var(--vscode-focusBorder,#6ea8e0));--tbnb-accent-soft:var(--jp-brand-color3,var(--vscode-editor-selectionBackground,#2c4a6e));--tbnb-link:var(--jp-content-link-color,var(--vscode-textLink-foreground,#6cb6ff))}
.tbnb-root.tbnb-dark{color-scheme:dark}
.tbnb-root{position:relative;font-family:var(--tbnb-font);font-size:12px;color:var(--tbnb-fg);background:transparent;line-height:1.35}
.tbnb-root *{box-sizing:border-box}
.tbnb-root[data-kernel=waiting]::before{content:"waiting for the kernel (busy): showing what this page holds";position:absolute;right:0;top:-2px;z-index:12;font-size:10px;padding:0 6px;border-radius:3px;background:var(--jp-warn-color3,#fff3cd);color:var(--jp-ui-font-color1,#222);pointer-events:none}
.tbnb-root .tbnb-toolbar{display:flex;flex-wrap:wrap;gap:6px 14px;align-items:center;margin:0 0 8px 0}
.tbnb-root .tbnb-toolbar label{display:inline-flex;gap:4px;align-items:center}
.tbnb-root select,.tbnb-root button,.tbnb-root input[type=text],.tbnb-root input[type=number]{font:inherit;color:inherit;background:var(--tbnb-bg-alt);border:1px solid var(--tbnb-border);border-radius:3px;padding:1px 6px}
.tbnb-root button:disabled{opacity:.5}
.tbnb-root input.tbnb-invalid{border-color:#d33;background:rgba(221,51,51,.08)}
.tbnb-root .tbnb-msg{color:#d33;font-size:11px}
.tbnb-root .tbnb-error{color:#d33;white-space:pre-wrap;font-size:11px}
.tbnb-root .tbnb-swatch{display:inline-block;width:10px;height:10px;border-radius:2px;flex:0 0 10px}
.tbnb-root .tbnb-filter{width:150px}
.tbnb-root .tbnb-legend{font-size:11px;display:flex;gap:4px 10px;align-items:center;flex-wrap:wrap;min-height:16px}
.tbnb-root .tbnb-legend-entry{display:inline-flex;gap:4px;align-items:center;overflow-wrap:anywhere}
.tbnb-root .tbnb-runs{display:flex;flex-direction:column;gap:1px}
.tbnb-root .tbnb-runs-buttons{display:flex;gap:4px;margin:4px 0}
.tbnb-root .tbnb-legend-item{display:flex;align-items:flex-start;gap:5px;padding:1px 0;white-space:normal;overflow-wrap:anywhere;word-break:break-word}
.tbnb-root .tbnb-legend-item .tbnb-swatch{margin-top:2px}
.tbnb-root .tbnb-legend-item input{margin:1px 0 0 0;flex:0 0 auto}
.tbnb-root .tbnb-legend-item.tbnb-filtered-out{display:none}
.tbnb-root .tbnb-members{opacity:.6;font-size:10px;white-space:nowrap}
.tbnb-root:is(.tbnb-shared-runs *) .tbnb-side,.tbnb-root:is(.tbnb-shared-runs *) .tbnb-run-filter{display:none}

.tbnb-root .tbnb-save-image{position:relative;display:inline-flex;margin-left:auto}
.tbnb-root .tbnb-save-image>button{padding:0 5px;line-height:16px;opacity:.75}
.tbnb-root .tbnb-save-image>button:hover,.tbnb-root .tbnb-save-image>button:focus-visible{opacity:1}
.tbnb-root .tbnb-save-menu{position:absolute;right:0;top:100%;z-index:11;display:flex;flex-direction:column;background:var(--tbnb-bg);border:1px solid var(--tbnb-border);border-radius:3px;padding:2px;box-shadow:0 2px 6px rgba(0,0,0,.15)}
.tbnb-root .tbnb-save-menu[hidden]{display:none}
.tbnb-root .tbnb-save-menu button{border:0;text-align:left;white-space:nowrap;padding:2px 10px}
.tbnb-root .tbnb-save-menu button:hover,.tbnb-root .tbnb-save-menu button:focus-visible{background:var(--tbnb-bg-hover)}
.tbnb-root .tbnb-canvas-stack{position:relative;width:100%}
.tbnb-root .tbnb-canvas-stack canvas{display:block}
.tbnb-root .tbnb-canvas-stack canvas+canvas{position:absolute;left:0;top:0}
.tbnb-root .tbnb-tooltip{position:absolute;z-index:10;pointer-events:none;background:var(--tbnb-bg);border:1px solid var(--tbnb-border);border-radius:3px;padding:3px 5px;font-size:11px;width:max-content;box-shadow:0 1px 4px rgba(0,0,0,.18)}
.tbnb-root .tbnb-tooltip table{border-collapse:collapse}
.tbnb-root .tbnb-tooltip th{font-weight:600;text-align:right;padding:0 4px;white-space:nowrap;opacity:.75}
.tbnb-root .tbnb-tooltip td{padding:0 4px;text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums;vertical-align:top}
.tbnb-root .tbnb-tooltip .tbnb-tip-name{text-align:left;white-space:normal;overflow-wrap:anywhere;min-width:6em;max-width:22em}
.tbnb-root .tbnb-tooltip th.tbnb-tip-name{opacity:.75}
.tbnb-root .tbnb-tooltip .tbnb-tip-more{opacity:.7;text-align:left}
.tbnb-root .tbnb-table-wrap{overflow:auto;max-width:100%;max-height:520px}
.tbnb-root .tbnb-table{border-collapse:collapse;font-variant-numeric:tabular-nums}
.tbnb-root .tbnb-table th{position:sticky;top:0;background:var(--tbnb-bg-alt);cursor:pointer;padding:2px 6px;border-bottom:1px solid var(--tbnb-border);text-align:left;vertical-align:bottom;max-width:14em}
.tbnb-root .tbnb-table td{padding:1px 6px;border-bottom:1px solid var(--tbnb-border-soft);white-space:nowrap}
.tbnb-root .tbnb-table td.tbnb-text{white-space:normal;max-width:24em}
.tbnb-root .tbnb-table .tbnb-cell-key{display:inline-flex;gap:4px;align-items:baseline}
.tbnb-root .tbnb-table td.tbnb-num,.tbnb-root .tbnb-table th.tbnb-num{text-align:right}
.tbnb-root .tbnb-table td:first-child{position:sticky;left:0;background:var(--tbnb-bg);z-index:1}
.tbnb-root .tbnb-table th:first-child{left:0;z-index:2}
.tbnb-root .tbnb-table tr.tbnb-hover td{background:rgba(255,200,0,.25)}
.tbnb-root .tbnb-table tr.tbnb-hover td:first-child{background:linear-gradient(rgba(255,200,0,.25),rgba(255,200,0,.25)),var(--tbnb-bg)}
.tbnb-root .tbnb-table tr.tbnb-dim td{opacity:.45}
.tbnb-root .tbnb-pager{display:flex;gap:8px;align-items:center;margin-top:4px}
.tbnb-root .tbnb-step-slider{display:inline-flex;gap:6px;align-items:center}
.tbnb-root .tbnb-step-slider input[type=range]{width:180px}
.tbnb-root .tbnb-step-slider input[type=number]{width:7em}
`;

/**
 * Put `css` once under `id` into `root`: the document's <head>, or a shadow root (marimo
 * renders each anywidget in one, and rules in <head> do not reach inside it). A later call
 * with other text replaces it, so a reloaded bundle brings its styles. One
 * `<style data-tbnb-style=id>` per id per root.
 * @param {string} id
 * @param {string} css
 * @param {Document | ShadowRoot} [root]  default: this document
 */
export function adoptStyles(id, css, root = document) {
  const parent = root instanceof ShadowRoot ? root : root.head || root.documentElement;
  let style = /** @type {HTMLStyleElement | null} */ (parent.querySelector(`style[data-tbnb-style="${id}"]`));
  if (style && style.textContent === css) return;
  if (!style) {
    style = document.createElement("style");
    style.setAttribute("data-tbnb-style", id);
    if (root instanceof ShadowRoot) parent.prepend(style);
    else parent.append(style);
  }
  style.textContent = css;
}

/**
 * Give `host` the styles `sheets` ({id: css}) wherever it is shown: the document's head
 * at once, and the shadow root it sits in once it is attached (anywidget may call render
 * on an element not yet in the page, so the root is known only later). Returns a cleanup
 * that stops waiting.
 * @param {Element} host
 * @param {Record<string, string>} sheets
 * @returns {() => void}
 */
export function styleRoots(host, sheets) {
  const adopt = (/** @type {Document | ShadowRoot} */ root) => {
    for (const [id, css] of Object.entries(sheets)) adoptStyles(id, css, root);
  };
  adopt(document);
  const intoShadow = () => {
    const root = host.getRootNode();
    if (root instanceof ShadowRoot) adopt(root);
    return host.isConnected;
  };
  if (intoShadow() || typeof ResizeObserver === "undefined") return () => {};
  // Not attached yet: an element gets its first size when it is laid out in a root.
  const observer = new ResizeObserver(() => {
    if (intoShadow()) observer.disconnect();
  });
  observer.observe(host);
  return () => observer.disconnect();
}
