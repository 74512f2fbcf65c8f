// The hparams widget's own styles, every rule under its root class.
export const CSS = `
.tbnb-w-hparams .tbnb-hp-status{opacity:.75}
.tbnb-w-hparams .tbnb-hp-pc{position:relative;width:100%;user-select:none}
.tbnb-w-hparams .tbnb-hp-pc canvas{display:block}
.tbnb-w-hparams .tbnb-axis{position:absolute;top:0;display:flex;flex-direction:column;align-items:center;pointer-events:none}
.tbnb-w-hparams .tbnb-axis-head{pointer-events:auto;cursor:grab;overflow:hidden;font-weight:600;text-align:center;padding:0 2px;font-size:11px;line-height:12px;max-height:24px;white-space:normal;overflow-wrap:anywhere}
.tbnb-w-hparams .tbnb-axis.tbnb-dragging .tbnb-axis-head{cursor:grabbing;opacity:.6}
.tbnb-w-hparams .tbnb-axis-tools{pointer-events:auto;display:flex;gap:2px;height:16px}
.tbnb-w-hparams .tbnb-axis-tools button{font-size:10px;padding:0 3px;line-height:14px}
.tbnb-w-hparams .tbnb-axis-track{pointer-events:auto;position:absolute;width:28px;cursor:ns-resize}
.tbnb-w-hparams .tbnb-hp-lower{display:flex;gap:14px;align-items:flex-start;margin-top:8px;flex-wrap:wrap}
.tbnb-w-hparams .tbnb-hp-scatter{display:flex;flex-wrap:wrap;gap:6px;flex:1 1 420px;min-width:0}
.tbnb-w-hparams .tbnb-hp-scatter-title{flex:1 1 100%;font-size:11px;opacity:.7}
.tbnb-w-hparams .tbnb-hp-cell{border:1px solid var(--tbnb-border-soft);border-radius:3px;padding:2px}
.tbnb-w-hparams .tbnb-hp-cell-head{display:flex;align-items:center;gap:4px;max-width:200px}
.tbnb-w-hparams .tbnb-hp-cell-title{font-size:11px;text-align:center;overflow-wrap:anywhere;max-width:200px;flex:1}
.tbnb-w-hparams .tbnb-hp-importance{flex:0 1 360px;min-width:260px}
.tbnb-w-hparams .tbnb-hp-importance-title{font-weight:600;margin-bottom:2px}
.tbnb-w-hparams .tbnb-hp-importance-note{font-size:11px;opacity:.75;margin-bottom:2px;overflow-wrap:anywhere}
.tbnb-w-hparams .tbnb-hp-importance-pending{font-size:12px;opacity:.8;padding:4px 0;overflow-wrap:anywhere}
.tbnb-w-hparams .tbnb-hp-importance-pending[data-state="computing"]{font-style:italic}
.tbnb-w-hparams .tbnb-hp-importance-pending[data-state="error"]{color:#c0392b;opacity:1}
.tbnb-w-hparams .tbnb-hp-importance table{border-collapse:collapse;width:100%}
.tbnb-w-hparams .tbnb-hp-importance td,.tbnb-w-hparams .tbnb-hp-importance th{padding:1px 4px;text-align:left;white-space:nowrap}
.tbnb-w-hparams .tbnb-hp-importance td.tbnb-hp-feature{white-space:normal;overflow-wrap:anywhere}
.tbnb-w-hparams .tbnb-hp-bar{display:inline-block;height:9px;background:#4c78a8;vertical-align:middle}
.tbnb-w-hparams .tbnb-hp-bar.tbnb-neg{background:#e45756}
.tbnb-w-hparams .tbnb-table-box{margin-top:10px}
`;
