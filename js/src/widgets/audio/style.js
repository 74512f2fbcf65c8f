// The audio widget's own styles, every rule under its root class.
import { mediaCSS } from "../../media/style.js";

export const CSS = `${mediaCSS("audio")}
.tbnb-w-audio .tbnb-card{width:380px}
.tbnb-w-audio .tbnb-audio-box{display:flex;flex-direction:column;gap:4px}
.tbnb-w-audio .tbnb-audio-stage{position:relative;cursor:pointer;display:flex;flex-direction:column;gap:2px}
.tbnb-w-audio .tbnb-wave{display:block;width:100%;height:64px;background:rgba(128,128,128,.06)}
.tbnb-w-audio .tbnb-spec{display:block;width:100%;height:96px;image-rendering:auto}
.tbnb-w-audio .tbnb-spec-box{position:relative}
.tbnb-w-audio .tbnb-no-wave .tbnb-wave,.tbnb-w-audio .tbnb-no-spec .tbnb-spec-box{display:none}
.tbnb-w-audio .tbnb-freq-axis{position:absolute;left:0;top:0;bottom:0;width:0;pointer-events:none}
.tbnb-w-audio .tbnb-time-axis{position:relative;height:13px;margin-top:-2px;border-top:1px solid var(--tbnb-border-soft)}
.tbnb-w-audio .tbnb-audio-tick{position:absolute;font-size:9px;line-height:11px;white-space:nowrap;font-variant-numeric:tabular-nums;opacity:.85}
.tbnb-w-audio .tbnb-freq-axis .tbnb-audio-tick{left:2px;transform:translateY(-50%);padding:0 2px;border-radius:2px;background:rgba(0,0,0,.55);color:#fff;opacity:1}
.tbnb-w-audio .tbnb-freq-axis .tbnb-audio-tick[data-edge=start]{transform:none}
.tbnb-w-audio .tbnb-freq-axis .tbnb-audio-tick[data-edge=end]{transform:translateY(-100%)}
.tbnb-w-audio .tbnb-time-axis .tbnb-audio-tick{top:1px;transform:translateX(-50%)}
.tbnb-w-audio .tbnb-time-axis .tbnb-audio-tick[data-edge=start]{transform:none}
.tbnb-w-audio .tbnb-time-axis .tbnb-audio-tick[data-edge=end]{transform:translateX(-100%)}
.tbnb-w-audio .tbnb-audio-foot{display:flex;align-items:center;justify-content:space-between;gap:8px}
.tbnb-w-audio .tbnb-audio-time{font-size:11px;font-variant-numeric:tabular-nums}
.tbnb-w-audio .tbnb-player::-webkit-media-controls-current-time-display,.tbnb-w-audio .tbnb-player::-webkit-media-controls-time-remaining-display{display:none}
.tbnb-w-audio .tbnb-playhead{position:absolute;top:0;bottom:0;width:1px;background:#d33;pointer-events:none}
.tbnb-w-audio .tbnb-playhead[hidden]{display:none}
.tbnb-w-audio .tbnb-player{width:100%;height:32px}
`;
