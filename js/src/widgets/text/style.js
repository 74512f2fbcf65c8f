// The text widget's own styles, every rule under its root class.
import { mediaCSS } from "../../media/style.js";

export const CSS = `${mediaCSS("text")}
.tbnb-w-text .tbnb-cards{flex-direction:column;align-items:stretch}
.tbnb-w-text .tbnb-card{width:100%}
.tbnb-w-text .tbnb-text-box{max-height:420px;overflow:auto;font-size:13px;line-height:1.45}
.tbnb-w-text .tbnb-markdown>:first-child{margin-top:0}
.tbnb-w-text .tbnb-markdown>:last-child{margin-bottom:0}
.tbnb-w-text .tbnb-markdown p{margin:0 0 .6em 0}
.tbnb-w-text .tbnb-markdown a{color:var(--tbnb-link);text-decoration:underline}
.tbnb-w-text .tbnb-markdown code,.tbnb-w-text .tbnb-raw,.tbnb-w-text .tbnb-markdown pre{font-family:var(--tbnb-code-font);font-size:12px}
.tbnb-w-text .tbnb-markdown code{background:rgba(128,128,128,.14);padding:0 3px;border-radius:3px}
.tbnb-w-text .tbnb-markdown pre{background:rgba(128,128,128,.1);padding:6px 8px;border-radius:3px;overflow:auto}
.tbnb-w-text .tbnb-markdown pre code{background:none;padding:0}
.tbnb-w-text .tbnb-markdown blockquote{margin:0 0 .6em 0;padding-left:10px;border-left:3px solid rgba(128,128,128,.4)}
.tbnb-w-text .tbnb-markdown table,.tbnb-w-text .tbnb-raw-table{border-collapse:collapse;margin:0 0 .6em 0}
.tbnb-w-text .tbnb-markdown td,.tbnb-w-text .tbnb-markdown th,.tbnb-w-text .tbnb-raw-table td{border:1px solid var(--tbnb-border-soft);padding:2px 6px;vertical-align:top;text-align:left}
.tbnb-w-text .tbnb-markdown td>p:last-child{margin:0}
.tbnb-w-text .tbnb-raw{white-space:pre-wrap;overflow-wrap:anywhere;margin:0}
.tbnb-w-text .tbnb-raw-table td{white-space:pre-wrap;font-family:var(--tbnb-code-font);font-size:12px}
.tbnb-w-text .tbnb-text-note,.tbnb-w-text .tbnb-text-warning{font-size:11px;opacity:.85;margin-bottom:4px}
`;
