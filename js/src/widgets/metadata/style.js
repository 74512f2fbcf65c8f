// The run information widget's own styles, every rule under its root class. The runs table
// keeps one line per run: long values are cut with an ellipsis (a run put side by side
// shows them whole).
export const CSS = `
.tbnb-w-metadata .tbnb-runs-main{display:flex;gap:12px;align-items:flex-start}
.tbnb-w-metadata .tbnb-runs-side{flex:0 0 200px;max-width:200px;max-height:560px;overflow:auto;border-right:1px solid var(--tbnb-border-soft);padding-right:6px}
.tbnb-w-metadata .tbnb-runs-body{flex:1;min-width:0}
.tbnb-w-metadata .tbnb-runs-status{font-size:11px;opacity:.75}
.tbnb-w-metadata .tbnb-runs-sections{display:inline-flex;gap:8px;flex-wrap:wrap}
.tbnb-w-metadata .tbnb-runs-compare{margin-top:12px}
.tbnb-w-metadata .tbnb-runs-compare-title{font-weight:600;margin:4px 0}
.tbnb-w-metadata .tbnb-runs-hint{opacity:.7}
.tbnb-w-metadata .tbnb-diff-wrap{overflow:auto;max-width:100%;max-height:560px}
.tbnb-w-metadata table.tbnb-diff{border-collapse:collapse;font-variant-numeric:tabular-nums}
.tbnb-w-metadata table.tbnb-diff th,.tbnb-w-metadata table.tbnb-diff td{padding:1px 8px 1px 4px;border-bottom:1px solid var(--tbnb-border-soft);text-align:left;vertical-align:top;max-width:26em;overflow-wrap:anywhere}
.tbnb-w-metadata table.tbnb-diff thead th{position:sticky;top:0;background:var(--tbnb-bg-alt);z-index:1}
.tbnb-w-metadata table.tbnb-diff .tbnb-diff-section{opacity:.6;white-space:nowrap}
.tbnb-w-metadata table.tbnb-diff tr.tbnb-differs td{background:rgba(255,193,7,.22)}
.tbnb-w-metadata table.tbnb-diff tr.tbnb-differs td.tbnb-diff-key{font-weight:600}
.tbnb-w-metadata .tbnb-table tr.tbnb-chosen td{background:rgba(31,111,235,.10)}
.tbnb-w-metadata .tbnb-table tr.tbnb-row{cursor:pointer}
.tbnb-w-metadata .tbnb-table td.tbnb-text:not(:first-child){white-space:nowrap;overflow:hidden;text-overflow:ellipsis;max-width:24em}
.tbnb-w-metadata .tbnb-table td.tbnb-text:not(:first-child) wbr{display:none}
.tbnb-w-metadata .tbnb-table td:first-child{min-width:10em}
`;
