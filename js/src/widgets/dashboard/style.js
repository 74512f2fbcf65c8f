// Styles of the dashboard, scoped under .tbnb-w-dashboard.
export const CSS = `
.tbnb-w-dashboard { display: flex; flex-direction: column; gap: 4px; background: transparent; }
.tbnb-w-dashboard .tbnb-dashboard-header { overflow-wrap: anywhere; }
.tbnb-w-dashboard .tbnb-dashboard-header code { font-family: var(--tbnb-code-font, monospace); }
.tbnb-w-dashboard .tbnb-dashboard-brand { font-weight: 600; }
.tbnb-w-dashboard .tbnb-dashboard-note { color: var(--tbnb-muted); white-space: pre-wrap; }
.tbnb-w-dashboard .tbnb-dashboard-tablist { display: flex; flex-wrap: wrap; border-bottom: 1px solid var(--tbnb-border);
  margin-top: 2px; }
.tbnb-w-dashboard .tbnb-dashboard-tablist button { border: 1px solid transparent; border-bottom: none;
  background: none; color: inherit; padding: 4px 12px; margin-bottom: -1px; cursor: pointer; font: inherit;
  border-radius: 3px 3px 0 0; }
.tbnb-w-dashboard .tbnb-dashboard-tablist button:hover { background: var(--tbnb-bg-alt); }
.tbnb-w-dashboard .tbnb-dashboard-tablist button[aria-selected="true"] { border-color: var(--tbnb-border);
  background: var(--tbnb-bg); border-bottom: 1px solid var(--tbnb-bg); font-weight: 600; }
.tbnb-w-dashboard .tbnb-dashboard-tablist button:focus-visible { outline: 2px solid var(--tbnb-accent);
  outline-offset: -2px; }
.tbnb-w-dashboard .tbnb-dashboard-panel { padding-top: 6px; min-width: 0; }
.tbnb-w-dashboard .tbnb-dashboard-panel[hidden] { display: none; }
.tbnb-w-dashboard .tbnb-dashboard-pending { color: var(--tbnb-muted); font-style: italic; padding: 8px 0; }
.tbnb-w-dashboard .tbnb-dashboard-error { white-space: pre-wrap; overflow-wrap: anywhere; }
`;
