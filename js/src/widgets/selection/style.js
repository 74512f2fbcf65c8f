// Styles of the dashboard run selection, scoped under .tbnb-w-selection.
export const CSS = `
.tbnb-w-selection .tbnb-selection-bar { display: flex; flex-wrap: wrap; align-items: baseline; gap: 12px;
  padding: 2px 0; }
.tbnb-w-selection .tbnb-selection-toggle { cursor: pointer; font-weight: 600; }
.tbnb-w-selection .tbnb-selection-toggle:focus-visible { outline: 2px solid #4e79a7; outline-offset: 2px; }
.tbnb-w-selection .tbnb-selection-panel { display: flex; flex-direction: column; gap: 4px; padding: 4px 0;
  max-width: 100%; }
.tbnb-w-selection .tbnb-selection-panel .tbnb-runs { flex-direction: row; flex-wrap: wrap; align-items: center;
  gap: 4px 14px; }
.tbnb-w-selection .tbnb-runs-buttons { margin: 0; }
.tbnb-w-selection .tbnb-runs-list { display: flex; flex-wrap: wrap; gap: 2px 14px; max-height: 9em;
  overflow: auto; }
.tbnb-w-selection .tbnb-selection-hparams { color: #9f3000; }
`;
