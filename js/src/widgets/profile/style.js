// The profiler widget's own styles, every rule under its root class.
export const CSS = `
.tbnb-w-profile .tbnb-prof-tabs{display:flex;gap:2px;border-bottom:1px solid var(--tbnb-border-soft);margin-bottom:8px}
.tbnb-w-profile .tbnb-prof-tabs button{border:1px solid transparent;border-bottom:none;border-radius:3px 3px 0 0;background:none;padding:3px 10px;cursor:pointer}
.tbnb-w-profile .tbnb-prof-tabs button[aria-selected=true]{border-color:var(--tbnb-border-soft);background:var(--tbnb-bg-alt);font-weight:600}
.tbnb-w-profile .tbnb-prof-panel[hidden]{display:none}
.tbnb-w-profile .tbnb-prof-note{color:var(--tbnb-muted);white-space:pre-wrap;overflow-wrap:anywhere}
.tbnb-w-profile .tbnb-prof-findings{margin:4px 0 10px 0;padding-left:18px}
.tbnb-w-profile .tbnb-prof-findings li{margin:2px 0;overflow-wrap:anywhere}
.tbnb-w-profile .tbnb-prof-problems{color:#b35900;margin:4px 0;padding-left:18px;font-size:11px}
.tbnb-w-profile .tbnb-prof-grid{display:flex;flex-wrap:wrap;gap:14px;align-items:flex-start}
.tbnb-w-profile .tbnb-prof-card{flex:1 1 380px;min-width:300px;max-width:100%}
.tbnb-w-profile .tbnb-prof-card h4{margin:6px 0 4px 0;font-size:12px}
.tbnb-w-profile .tbnb-prof-head{display:flex;gap:8px;align-items:center;justify-content:space-between}
.tbnb-w-profile .tbnb-prof-chart{position:relative;width:100%}
.tbnb-w-profile .tbnb-prof-chart canvas{display:block;width:100%}
.tbnb-w-profile .tbnb-prof-stage{position:relative;border:1px solid var(--tbnb-border-soft);border-radius:4px;overflow:hidden;background:var(--tbnb-bg);outline:none}
.tbnb-w-profile .tbnb-prof-stage:focus-visible{border-color:var(--tbnb-accent)}
.tbnb-w-profile .tbnb-prof-stage canvas{display:block;cursor:grab;touch-action:none}
.tbnb-w-profile .tbnb-prof-stage canvas:active{cursor:grabbing}
.tbnb-w-profile .tbnb-prof-timeline{display:flex;gap:10px;align-items:flex-start}
.tbnb-w-profile .tbnb-prof-timeline .tbnb-prof-stage{flex:1 1 auto;min-width:0}
.tbnb-w-profile .tbnb-prof-details{flex:0 0 300px;max-width:300px;max-height:560px;overflow:auto;font-size:11px}
.tbnb-w-profile .tbnb-prof-details table{border-collapse:collapse;width:100%}
.tbnb-w-profile .tbnb-prof-details th{text-align:left;font-weight:500;opacity:.75;padding:1px 6px 1px 0;vertical-align:top;white-space:nowrap}
.tbnb-w-profile .tbnb-prof-details td{padding:1px 0;overflow-wrap:anywhere;word-break:break-word}
.tbnb-w-profile .tbnb-prof-title{font-weight:600;font-size:12px;overflow-wrap:anywhere;margin-bottom:4px}
.tbnb-w-profile .tbnb-prof-link{border:none;background:none;padding:0;color:var(--tbnb-accent);cursor:pointer;text-align:left;font:inherit;overflow-wrap:anywhere}
.tbnb-w-profile .tbnb-prof-links{list-style:none;margin:0;padding:0}
.tbnb-w-profile .tbnb-prof-status{font-size:11px;opacity:.75;min-height:15px}
.tbnb-w-profile .tbnb-prof-hint{font-size:11px;opacity:.65}
.tbnb-w-profile .tbnb-prof-legend{display:flex;flex-wrap:wrap;gap:2px 10px;font-size:11px;margin:2px 0 4px 0}
.tbnb-w-profile .tbnb-prof-legend span{display:inline-flex;gap:4px;align-items:center}
.tbnb-w-profile .tbnb-prof-compare{display:flex;flex-wrap:wrap;gap:14px}
.tbnb-w-profile .tbnb-table td.tbnb-text{overflow-wrap:anywhere;word-break:break-word;max-width:28em}
.tbnb-w-profile .tbnb-prof-card .tbnb-table-wrap{max-width:100%}
`;
