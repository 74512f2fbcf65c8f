// The projector's own styles, every rule under its root class.
export const CSS = `
.tbnb-w-embeddings [hidden]{display:none!important}
.tbnb-w-embeddings .tbnb-pj-toolbar{display:flex;flex-direction:column;gap:2px;margin-bottom:6px}
.tbnb-w-embeddings .tbnb-pj-row{margin:0}
.tbnb-w-embeddings .tbnb-pj-params{display:inline-flex;gap:8px;flex-wrap:wrap}
.tbnb-w-embeddings .tbnb-pj-params input{width:6.5em}
.tbnb-w-embeddings .tbnb-pj-embedding{max-width:28em}
.tbnb-w-embeddings .tbnb-pj-progress{width:120px;height:10px}
.tbnb-w-embeddings .tbnb-pj-status{opacity:.8;font-variant-numeric:tabular-nums}
.tbnb-w-embeddings .tbnb-pj-status.tbnb-pj-error{color:#d33;opacity:1}
.tbnb-w-embeddings .tbnb-pj-mode[aria-pressed=true]{background:var(--tbnb-accent-soft);border-color:var(--tbnb-accent)}
.tbnb-w-embeddings .tbnb-pj-matches{opacity:.75}
.tbnb-w-embeddings .tbnb-pj-main{display:flex;gap:10px;align-items:flex-start;width:100%}
.tbnb-w-embeddings .tbnb-pj-scene{position:relative;flex:1 1 auto;min-width:0;border:1px solid var(--tbnb-border-soft);border-radius:3px;overflow:hidden}
.tbnb-w-embeddings .tbnb-pj-scene canvas{display:block;position:absolute;left:0;top:0}
.tbnb-w-embeddings .tbnb-pj-overlay{touch-action:none;cursor:grab;outline:none}
.tbnb-w-embeddings .tbnb-pj-overlay[data-mode=lasso],.tbnb-w-embeddings .tbnb-pj-overlay[data-mode=box]{cursor:crosshair}
.tbnb-w-embeddings .tbnb-pj-panel{flex:0 0 252px;width:252px;max-height:640px;overflow:auto;display:flex;flex-direction:column;gap:8px;font-size:11px}
.tbnb-w-embeddings .tbnb-pj-title{font-weight:600;overflow-wrap:anywhere}
.tbnb-w-embeddings .tbnb-pj-message{color:#b45309;white-space:pre-wrap;overflow-wrap:anywhere}
.tbnb-w-embeddings .tbnb-pj-head{font-weight:600;overflow-wrap:anywhere;margin-bottom:2px}
.tbnb-w-embeddings .tbnb-pj-sub{opacity:.7;margin-bottom:2px}
.tbnb-w-embeddings .tbnb-pj-legend-item{display:flex;gap:5px;align-items:flex-start}
.tbnb-w-embeddings .tbnb-pj-legend-label{flex:1 1 auto;overflow-wrap:anywhere}
.tbnb-w-embeddings .tbnb-pj-count{opacity:.6;font-variant-numeric:tabular-nums}
.tbnb-w-embeddings .tbnb-pj-colorbar{height:10px;border-radius:2px}
.tbnb-w-embeddings .tbnb-pj-colorbar-ticks{display:flex;justify-content:space-between;font-variant-numeric:tabular-nums}
.tbnb-w-embeddings .tbnb-pj-neighbor{display:flex;gap:6px;cursor:pointer;padding:1px 2px;border-radius:2px}
.tbnb-w-embeddings .tbnb-pj-neighbor:hover{background:rgba(255,200,0,.25)}
.tbnb-w-embeddings .tbnb-pj-neighbor-label{flex:1 1 auto;overflow-wrap:anywhere}
.tbnb-w-embeddings .tbnb-pj-distance{font-variant-numeric:tabular-nums;opacity:.75}
.tbnb-w-embeddings .tbnb-pj-kv{display:flex;gap:6px}
.tbnb-w-embeddings .tbnb-pj-thumb{width:28px;height:28px;flex:0 0 28px;margin-right:4px;vertical-align:middle;image-rendering:pixelated;border-radius:2px}
.tbnb-w-embeddings .tbnb-pj-neighbor-label{display:flex;flex-direction:column}
.tbnb-w-embeddings .tbnb-pj-neighbor-meta{opacity:.65;font-size:10px}
.tbnb-w-embeddings .tbnb-pj-histogram select{font-size:11px;max-width:9em}
.tbnb-w-embeddings .tbnb-pj-bar{display:flex;gap:5px;align-items:center;cursor:pointer;padding:1px 0}
.tbnb-w-embeddings .tbnb-pj-bar:hover{background:rgba(120,140,200,.15)}
.tbnb-w-embeddings .tbnb-pj-bar-label{flex:0 0 38%;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.tbnb-w-embeddings .tbnb-pj-bar-track{position:relative;flex:1 1 auto;height:12px}
.tbnb-w-embeddings .tbnb-pj-bar-all,.tbnb-w-embeddings .tbnb-pj-bar-chosen{position:absolute;left:0;border-radius:1px}
.tbnb-w-embeddings .tbnb-pj-bar-all{top:0;height:12px;background:rgba(128,128,140,.35)}
.tbnb-w-embeddings .tbnb-pj-bar-chosen{top:3px;height:6px;background:var(--tbnb-accent)}
.tbnb-w-embeddings .tbnb-pj-key{opacity:.65;flex:0 0 35%;overflow-wrap:anywhere}
.tbnb-w-embeddings .tbnb-pj-value{flex:1 1 auto;overflow-wrap:anywhere}
`;
