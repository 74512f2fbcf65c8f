// The scalars widget's own styles, every rule under its root class.
export const CSS = `
.tbnb-w-scalars .tbnb-smoothing-value{display:inline-block;min-width:3.2em;font-variant-numeric:tabular-nums}
.tbnb-w-scalars .tbnb-status{font-size:11px;opacity:.7}
.tbnb-w-scalars .tbnb-main{display:flex;gap:12px;align-items:flex-start}
.tbnb-w-scalars .tbnb-side{flex:0 0 210px;max-width:210px;max-height:640px;overflow:auto;border-right:1px solid var(--tbnb-border-soft);padding-right:6px}
.tbnb-w-scalars .tbnb-groups{flex:1;min-width:0}
.tbnb-w-scalars .tbnb-group{margin-bottom:8px}
.tbnb-w-scalars .tbnb-group>summary{cursor:pointer;font-weight:600;padding:2px 0;overflow-wrap:anywhere}
.tbnb-w-scalars .tbnb-group.tbnb-hidden,.tbnb-w-scalars .tbnb-chart.tbnb-hidden{display:none}
.tbnb-w-scalars .tbnb-grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(340px,1fr));gap:10px}
.tbnb-w-scalars .tbnb-chart{border:1px solid var(--tbnb-border-soft);border-radius:4px;padding:4px 4px 2px;min-width:0;content-visibility:auto;contain-intrinsic-size:auto 280px}
.tbnb-w-scalars .tbnb-chart-head{display:flex;flex-wrap:wrap;gap:2px 8px;align-items:center;font-size:11px}
.tbnb-w-scalars .tbnb-chart-title{font-weight:600;flex:1 1 100%;overflow-wrap:anywhere}
.tbnb-w-scalars .tbnb-chart-head input[type=text]{width:52px;padding:0 2px}
.tbnb-w-scalars .tbnb-chart-body{position:relative;width:100%}
.tbnb-w-scalars .tbnb-layer-2{cursor:crosshair}
.tbnb-w-scalars .tbnb-reset-zoom{font-size:10px;padding:0 4px}
`;
