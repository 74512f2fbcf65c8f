// The graphs widget's own styles, every rule under its root class.
export const CSS = `
.tbnb-w-graphs .tbnb-graph-main{display:flex;gap:10px;align-items:flex-start}
.tbnb-w-graphs .tbnb-graph-side{flex:0 0 170px;max-width:170px;max-height:560px;overflow:auto;border-right:1px solid var(--tbnb-border-soft);padding-right:6px}
.tbnb-w-graphs .tbnb-graph-stage{position:relative;flex:1 1 auto;min-width:0;border:1px solid var(--tbnb-border-soft);border-radius:4px;overflow:hidden;background:var(--tbnb-bg)}
.tbnb-w-graphs .tbnb-graph-canvas{display:block;cursor:grab;touch-action:none}
.tbnb-w-graphs .tbnb-graph-canvas:active{cursor:grabbing}
.tbnb-w-graphs .tbnb-graph-minimap{position:absolute;right:6px;bottom:6px;border:1px solid var(--tbnb-border);background:var(--tbnb-bg-alt);border-radius:3px;cursor:pointer}
.tbnb-w-graphs .tbnb-graph-note{position:absolute;left:12px;top:12px;right:12px;color:var(--tbnb-muted);white-space:pre-wrap;overflow-wrap:anywhere}
.tbnb-w-graphs .tbnb-graph-details{flex:0 0 270px;max-width:270px;max-height:560px;overflow:auto;font-size:11px}
.tbnb-w-graphs .tbnb-graph-title{font-weight:600;font-size:12px;overflow-wrap:anywhere;margin-bottom:4px}
.tbnb-w-graphs .tbnb-graph-sub{font-weight:600;opacity:.75;margin:6px 0 2px}
.tbnb-w-graphs .tbnb-graph-hint{opacity:.7}
.tbnb-w-graphs .tbnb-graph-props{border-collapse:collapse;width:100%}
.tbnb-w-graphs .tbnb-graph-props th{text-align:left;font-weight:500;opacity:.75;padding:1px 6px 1px 0;vertical-align:top;white-space:nowrap}
.tbnb-w-graphs .tbnb-graph-props td{padding:1px 0;overflow-wrap:anywhere;word-break:break-word}
.tbnb-w-graphs .tbnb-graph-attrs{font-family:var(--tbnb-code-font);font-size:10.5px;overflow-wrap:anywhere;white-space:pre-wrap}
.tbnb-w-graphs .tbnb-graph-links{list-style:none;margin:0;padding:0}
.tbnb-w-graphs .tbnb-graph-links li{margin:1px 0;overflow-wrap:anywhere}
.tbnb-w-graphs .tbnb-graph-link,.tbnb-w-graphs .tbnb-graph-result{border:none;background:none;padding:0;color:var(--tbnb-accent);cursor:pointer;text-align:left;font:inherit;overflow-wrap:anywhere}
.tbnb-w-graphs .tbnb-graph-op{opacity:.6}
.tbnb-w-graphs .tbnb-graph-results{display:flex;flex-wrap:wrap;gap:2px 12px;max-height:66px;overflow:auto;font-size:11px;margin-bottom:4px}
.tbnb-w-graphs .tbnb-graph-results:empty{display:none}
.tbnb-w-graphs .tbnb-graph-search{width:190px}
.tbnb-w-graphs .tbnb-graph-count{font-size:11px;opacity:.75;min-width:4em}
.tbnb-w-graphs .tbnb-graph-status{font-size:11px;opacity:.7}
.tbnb-w-graphs .tbnb-graph-legend{margin-bottom:6px}
.tbnb-w-graphs .tbnb-graph-stats{margin-top:10px}
.tbnb-w-graphs .tbnb-graph-tab.tbnb-active{font-weight:600;border-color:var(--tbnb-accent)}
.tbnb-w-graphs .tbnb-graph-toggle,.tbnb-w-graphs .tbnb-graph-all-attrs{margin:4px 0;font-size:11px}
`;
