// Styles every media view shares (cards, groups, toolbar, side panel), scoped under the
// widget's own root class: mediaCSS("images") starts every rule with `.tbnb-w-images`.

/**
 * @param {string} key  the widget key
 * @returns {string}
 */
export function mediaCSS(key) {
  const w = `.tbnb-w-${key}`;
  return `
${w} .tbnb-main{display:flex;gap:12px;align-items:flex-start}
${w} .tbnb-side{flex:0 0 200px;max-width:200px;max-height:640px;overflow:auto;border-right:1px solid var(--tbnb-border-soft);padding-right:6px}
${w} .tbnb-content{flex:1;min-width:0}
${w} .tbnb-status{font-size:11px;opacity:.7}
${w} .tbnb-global-step input[type=range]{width:260px}
${w} .tbnb-problems{margin:0 0 8px 0;color:#b35900;font-size:11px}
${w} .tbnb-problems summary{cursor:pointer}
${w} .tbnb-problems li{overflow-wrap:anywhere}
${w} .tbnb-empty{padding:16px;opacity:.7}
${w} .tbnb-group{margin-bottom:8px}
${w} .tbnb-group>summary{cursor:pointer;font-weight:600;padding:2px 0;overflow-wrap:anywhere}
${w} .tbnb-group[hidden],${w} .tbnb-card[hidden]{display:none}
${w} .tbnb-cards{display:flex;flex-wrap:wrap;gap:10px;align-items:flex-start}
${w} .tbnb-card{border:1px solid var(--tbnb-border-soft);border-radius:4px;padding:4px;min-width:0;max-width:100%;display:flex;flex-direction:column;gap:3px}
${w} .tbnb-card.tbnb-pinned{border-color:var(--tbnb-accent)}
${w} .tbnb-card-head{display:flex;gap:5px;align-items:flex-start;font-size:11px}
${w} .tbnb-card-head .tbnb-swatch{margin-top:2px}
${w} .tbnb-card-run{flex:1;font-weight:600;overflow-wrap:anywhere;min-width:0}
${w} .tbnb-card-follow{font-size:10px;padding:0 4px}
${w} .tbnb-card-body{position:relative}
${w} .tbnb-card[data-state=loading] .tbnb-card-content{opacity:.55}
${w} .tbnb-card[data-state=error] .tbnb-card-content,${w} .tbnb-card[data-state=missing] .tbnb-card-content{opacity:.15}
${w} .tbnb-card-msg{font-size:11px;color:#b35900;overflow-wrap:anywhere;padding:2px 0}
${w} .tbnb-card-msg[hidden]{display:none}
${w} .tbnb-card-controls{display:flex;flex-direction:column;gap:2px;font-size:11px}
${w} .tbnb-card-controls .tbnb-step-slider input[type=range]{width:auto;flex:1;min-width:60px}
${w} .tbnb-card-controls .tbnb-step-slider{display:flex}
${w} .tbnb-card-controls .tbnb-step-slider input[type=number]{width:6em}
${w} .tbnb-card-samples[hidden]{display:none}
${w} .tbnb-card-info{font-size:10px;opacity:.75;overflow-wrap:anywhere}
`;
}
