// The custom-scalars widget's own styles, every rule under its root class.
export const CSS = `
.tbnb-w-custom_scalars .tbnb-smoothing-value{display:inline-block;min-width:3.2em;font-variant-numeric:tabular-nums}
.tbnb-w-custom_scalars .tbnb-status{font-size:11px;opacity:.7}
.tbnb-w-custom_scalars .tbnb-main{display:flex;gap:12px;align-items:flex-start}
.tbnb-w-custom_scalars .tbnb-side{flex:0 0 210px;max-width:210px;max-height:640px;overflow:auto;border-right:1px solid var(--tbnb-border-soft);padding-right:6px}
.tbnb-w-custom_scalars .tbnb-groups{flex:1;min-width:0}
.tbnb-w-custom_scalars .tbnb-group{margin-bottom:8px}
.tbnb-w-custom_scalars .tbnb-group>summary{cursor:pointer;font-weight:600;padding:2px 0;overflow-wrap:anywhere}
.tbnb-w-custom_scalars .tbnb-grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(340px,1fr));gap:10px}
.tbnb-w-custom_scalars .tbnb-chart{border:1px solid var(--tbnb-border-soft);border-radius:4px;padding:4px 4px 2px;min-width:0}
.tbnb-w-custom_scalars .tbnb-chart-head{display:flex;flex-wrap:wrap;gap:2px 8px;align-items:center;font-size:11px}
.tbnb-w-custom_scalars .tbnb-chart-title{font-weight:600;flex:1 1 auto;overflow-wrap:anywhere}
.tbnb-w-custom_scalars .tbnb-chart-body{position:relative;width:100%}
.tbnb-w-custom_scalars .tbnb-layer-2{cursor:crosshair}
.tbnb-w-custom_scalars .tbnb-cs-notes .tbnb-msg{color:#b33;overflow-wrap:anywhere}
.tbnb-w-custom_scalars .tbnb-cs-legend{margin:2px 0}
.tbnb-w-custom_scalars .tbnb-cs-empty{padding:8px;opacity:.8}
`;
