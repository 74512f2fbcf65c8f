// The histograms widget's own styles, every rule under its root class.
export const CSS = `
.tbnb-w-histograms .tbnb-bars{margin-bottom:6px}
.tbnb-w-histograms .tbnb-bars .tbnb-toolbar{margin-bottom:4px}
.tbnb-w-histograms .tbnb-bins,.tbnb-w-histograms .tbnb-max-steps{width:5em}
.tbnb-w-histograms .tbnb-status{font-size:11px;opacity:.7}
.tbnb-w-histograms .tbnb-message{font-size:12px}
.tbnb-w-histograms .tbnb-empty{padding:8px;border:1px dashed var(--tbnb-border);border-radius:4px;margin:4px 0}
.tbnb-w-histograms .tbnb-problems{color:#b35900;margin:4px 0}
.tbnb-w-histograms .tbnb-problems>div{white-space:pre-wrap;overflow-wrap:anywhere;font-size:11px}
.tbnb-w-histograms .tbnb-main{display:flex;gap:12px;align-items:flex-start}
.tbnb-w-histograms .tbnb-side{flex:0 0 200px;max-width:200px;max-height:640px;overflow:auto;border-right:1px solid var(--tbnb-border-soft);padding-right:6px}
.tbnb-w-histograms .tbnb-groups{flex:1;min-width:0}
.tbnb-w-histograms .tbnb-group{margin-bottom:8px}
.tbnb-w-histograms .tbnb-group>summary{cursor:pointer;font-weight:600;padding:2px 0;overflow-wrap:anywhere}
.tbnb-w-histograms .tbnb-group-count{font-weight:400;opacity:.6}
.tbnb-w-histograms .tbnb-hidden,.tbnb-w-histograms .tbnb-bars .tbnb-hidden{display:none}
.tbnb-w-histograms .tbnb-grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(280px,1fr));gap:10px}
.tbnb-w-histograms .tbnb-chart{border:1px solid var(--tbnb-border-soft);border-radius:4px;padding:4px 4px 2px;min-width:0;content-visibility:auto;contain-intrinsic-size:auto 214px}
.tbnb-w-histograms .tbnb-chart-head{display:flex;flex-wrap:wrap;gap:2px 8px;align-items:center;font-size:11px;margin-bottom:2px}
.tbnb-w-histograms .tbnb-chart-title{font-weight:600;flex:1 1 100%;overflow-wrap:anywhere}
.tbnb-w-histograms .tbnb-card-run{display:inline-flex;gap:4px;align-items:center;overflow-wrap:anywhere;min-width:0}
.tbnb-w-histograms .tbnb-card-legend{display:flex;flex-wrap:wrap;gap:2px 6px}
.tbnb-w-histograms .tbnb-card-legend .tbnb-legend-entry{border:none;background:none;padding:0 2px;cursor:pointer;font-size:11px}
.tbnb-w-histograms .tbnb-card-legend .tbnb-off{opacity:.35;text-decoration:line-through}
.tbnb-w-histograms .tbnb-card-note{opacity:.6}
.tbnb-w-histograms .tbnb-chart-body{position:relative;width:100%}
.tbnb-w-histograms .tbnb-layer-1{cursor:crosshair}
`;
