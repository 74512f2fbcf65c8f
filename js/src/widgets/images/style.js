// The images widget's own styles, every rule under its root class.
import { mediaCSS } from "../../media/style.js";

export const CSS = `${mediaCSS("images")}
.tbnb-w-images .tbnb-card{width:calc(var(--tbnb-img-size,280px) + 10px);contain:content}
.tbnb-w-images .tbnb-actual .tbnb-card{width:auto;min-width:200px}
.tbnb-w-images .tbnb-img-box{overflow:auto;max-width:100%;display:flex;justify-content:center;background:repeating-conic-gradient(rgba(128,128,128,.12) 0 25%,transparent 0 50%) 0 0/16px 16px}
.tbnb-w-images .tbnb-img-box{position:relative}
.tbnb-w-images .tbnb-img-box>.tbnb-save-image{position:absolute;top:2px;right:2px}
.tbnb-w-images canvas.tbnb-img{display:block;height:auto;max-width:none;filter:var(--tbnb-img-filter,none)}
.tbnb-w-images canvas.tbnb-pixelated{image-rendering:pixelated}
.tbnb-w-images .tbnb-filter-value{display:inline-block;min-width:2.6em;font-variant-numeric:tabular-nums}
.tbnb-w-images .tbnb-brightness,.tbnb-w-images .tbnb-contrast{width:90px}
.tbnb-w-images .tbnb-size{width:90px}
.tbnb-w-images .tbnb-compare{border:1px solid var(--tbnb-border);border-radius:4px;padding:6px;margin-bottom:10px;display:flex;flex-direction:column;gap:4px}
.tbnb-w-images .tbnb-compare[hidden],.tbnb-w-images .tbnb-compare [hidden]{display:none}
.tbnb-w-images .tbnb-compare-head{display:flex;flex-wrap:wrap;gap:6px;align-items:center;font-weight:600}
.tbnb-w-images .tbnb-compare-head select{max-width:220px;font-weight:400}
.tbnb-w-images .tbnb-compare-controls{display:flex;flex-wrap:wrap;gap:4px 14px;font-size:11px}
.tbnb-w-images .tbnb-compare-side{display:flex;flex-wrap:wrap;gap:10px;align-items:flex-start}
.tbnb-w-images .tbnb-compare-pane{display:flex;flex-direction:column;gap:2px;max-width:100%;overflow:auto}
.tbnb-w-images .tbnb-compare-label,.tbnb-w-images .tbnb-wipe-labels{font-size:11px;overflow-wrap:anywhere}
.tbnb-w-images .tbnb-compare-run{display:inline-flex;gap:4px;align-items:center}
.tbnb-w-images .tbnb-wipe-box{position:relative;display:inline-block;max-width:100%;overflow:auto;cursor:ew-resize;touch-action:none}
.tbnb-w-images .tbnb-wipe-line{position:absolute;top:0;bottom:0;width:2px;margin-left:-1px;background:#fff;box-shadow:0 0 0 1px rgba(0,0,0,.5);pointer-events:none}
.tbnb-w-images .tbnb-wipe:focus{outline:2px solid var(--tbnb-accent)}
`;
