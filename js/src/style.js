// Styles of the scalars widget, scoped by the tbnb- class prefix; JupyterLab's
// theme variables where present (dark themes), plain fallbacks elsewhere.
export const CSS = `
.tbnb-scalars{font-family:var(--jp-ui-font-family,system-ui,sans-serif);font-size:12px;color:var(--jp-ui-font-color1,#222);background:var(--jp-layout-color0,transparent)}
.tbnb-toolbar{display:flex;flex-wrap:wrap;gap:6px 14px;align-items:center;margin:0 0 8px 0}
.tbnb-toolbar label{display:inline-flex;gap:4px;align-items:center}
.tbnb-toolbar input[type=text]{width:140px;padding:2px 4px;border:1px solid var(--jp-border-color1,#bbb);border-radius:3px;background:var(--jp-layout-color1,#fff);color:inherit}
.tbnb-toolbar select,.tbnb-toolbar button,.tbnb-legend button{font:inherit;color:inherit;background:var(--jp-layout-color1,#fff);border:1px solid var(--jp-border-color1,#bbb);border-radius:3px;padding:1px 6px}
.tbnb-scalars input.tbnb-invalid{border-color:#d33;background:rgba(221,51,51,.08)}
.tbnb-msg{color:#d33;font-size:11px}
.tbnb-smoothing-value{display:inline-block;min-width:3.2em;font-variant-numeric:tabular-nums}
.tbnb-main{display:flex;gap:12px;align-items:flex-start}
.tbnb-legend{flex:0 0 190px;max-height:640px;overflow:auto;border-right:1px solid var(--jp-border-color2,#e3e3e3);padding-right:6px}
.tbnb-legend-item{display:flex;align-items:center;gap:5px;padding:1px 0;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.tbnb-legend-item.tbnb-filtered-out{display:none}
.tbnb-legend-buttons{display:flex;gap:4px;margin-bottom:4px}
.tbnb-members{opacity:.6;font-size:10px}
.tbnb-swatch{display:inline-block;width:10px;height:10px;border-radius:2px;flex:0 0 10px}
.tbnb-groups{flex:1;min-width:0}
.tbnb-group{margin-bottom:8px}
.tbnb-group>summary{cursor:pointer;font-weight:600;padding:2px 0}
.tbnb-group.tbnb-hidden,.tbnb-chart.tbnb-hidden{display:none}
.tbnb-grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(340px,1fr));gap:10px}
.tbnb-chart{border:1px solid var(--jp-border-color2,#e0e0e0);border-radius:4px;padding:4px 4px 2px;min-width:0}
.tbnb-chart-head{display:flex;flex-wrap:wrap;gap:2px 8px;align-items:center;font-size:11px}
.tbnb-chart-title{font-weight:600;flex:1 1 100%;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.tbnb-chart-head input[type=text]{width:46px;font:inherit;padding:0 2px;border:1px solid var(--jp-border-color1,#ccc);border-radius:2px;background:transparent;color:inherit}
.tbnb-chart-body{position:relative;width:100%}
.tbnb-canvas-wrap{position:relative}
.tbnb-canvas{display:block}
.tbnb-canvas-layer{position:absolute;left:0;top:0}
.tbnb-canvas-over{cursor:crosshair}
.tbnb-tooltip{position:absolute;z-index:5;pointer-events:none;background:var(--jp-layout-color0,#fff);border:1px solid var(--jp-border-color1,#bbb);border-radius:3px;padding:3px 5px;font-size:11px;max-width:340px;box-shadow:0 1px 4px rgba(0,0,0,.15)}
.tbnb-tooltip table{border-collapse:collapse}
.tbnb-tooltip td,.tbnb-tooltip th{padding:0 4px;text-align:right;white-space:nowrap}
.tbnb-tooltip td:nth-child(2),.tbnb-tooltip th:nth-child(2){text-align:left;max-width:140px;overflow:hidden;text-overflow:ellipsis}
.tbnb-reset-zoom{font-size:10px;padding:0 4px}
.tbnb-status{font-size:11px;opacity:.7}
`;
