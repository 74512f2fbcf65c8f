// The PR-curves widget's own styles, every rule under its root class.
export const CSS = `
.tbnb-w-pr_curves .tbnb-status{font-size:11px;opacity:.7}
.tbnb-w-pr_curves .tbnb-main{display:flex;gap:12px;align-items:flex-start}
.tbnb-w-pr_curves .tbnb-side{flex:0 0 210px;max-width:210px;max-height:640px;overflow:auto;border-right:1px solid var(--tbnb-border-soft);padding-right:6px}
.tbnb-w-pr_curves .tbnb-content{flex:1;min-width:0}
.tbnb-w-pr_curves .tbnb-group{margin-bottom:8px}
.tbnb-w-pr_curves .tbnb-group>summary{cursor:pointer;font-weight:600;padding:2px 0;overflow-wrap:anywhere}
.tbnb-w-pr_curves .tbnb-grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(320px,1fr));gap:10px}
.tbnb-w-pr_curves .tbnb-pr-chart{border:1px solid var(--tbnb-border-soft);border-radius:4px;padding:4px 4px 2px;min-width:0;contain:content}
.tbnb-w-pr_curves .tbnb-pr-chart.tbnb-hidden{display:none}
.tbnb-w-pr_curves .tbnb-pr-head{display:flex;flex-wrap:wrap;gap:2px 8px;align-items:center;font-size:11px}
.tbnb-w-pr_curves .tbnb-pr-title{font-weight:600;flex:1 1 100%;overflow-wrap:anywhere}
.tbnb-w-pr_curves .tbnb-pr-head .tbnb-step-slider input[type=range]{width:140px}
.tbnb-w-pr_curves .tbnb-pr-head .tbnb-step-slider input[type=number]{width:6em}
.tbnb-w-pr_curves .tbnb-pr-global-step input[type=range]{width:220px}
.tbnb-w-pr_curves .tbnb-pr-body,.tbnb-w-pr_curves .tbnb-pr-auc{position:relative;width:100%}
.tbnb-w-pr_curves .tbnb-pr-canvas .tbnb-layer-1,.tbnb-w-pr_curves .tbnb-pr-auc .tbnb-layer-2{cursor:crosshair}
.tbnb-w-pr_curves .tbnb-pr-legend{display:flex;flex-direction:column;gap:1px;font-size:11px;margin:2px 0 4px 0}
.tbnb-w-pr_curves .tbnb-pr-entry{display:flex;flex-wrap:wrap;gap:0 8px;align-items:baseline}
.tbnb-w-pr_curves .tbnb-pr-entry .tbnb-swatch{align-self:center}
.tbnb-w-pr_curves .tbnb-pr-run{overflow-wrap:anywhere;font-weight:600}
.tbnb-w-pr_curves .tbnb-pr-step,.tbnb-w-pr_curves .tbnb-pr-ap,.tbnb-w-pr_curves .tbnb-pr-roc{font-variant-numeric:tabular-nums;white-space:nowrap}
.tbnb-w-pr_curves .tbnb-pr-entry[data-exact=false] .tbnb-pr-step{opacity:.7;font-style:italic}
.tbnb-w-pr_curves .tbnb-pr-auc-mark{position:absolute;left:0;width:0;border-left:1px dashed currentColor;opacity:.6;pointer-events:none}
.tbnb-w-pr_curves .tbnb-pr-auc-mark[hidden]{display:none}
.tbnb-w-pr_curves .tbnb-pr-auc-title{font-size:10px;opacity:.75;margin-top:2px}
.tbnb-w-pr_curves .tbnb-pr-table{margin-top:8px}
.tbnb-w-pr_curves .tbnb-pr-table>summary,.tbnb-w-pr_curves .tbnb-pr-problems>summary{cursor:pointer;font-weight:600}
.tbnb-w-pr_curves .tbnb-pr-problems{margin:0 0 6px 0;color:#b33}
.tbnb-w-pr_curves .tbnb-pr-empty{padding:8px;opacity:.8}
`;
