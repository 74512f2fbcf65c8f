// The audio widget's own styles, every rule under its root class.
import { mediaCSS } from "../../media/style.js";

export const CSS = `${mediaCSS("audio")}
.tbnb-w-audio .tbnb-card{width:380px}
.tbnb-w-audio .tbnb-audio-box{display:flex;flex-direction:column;gap:4px}
.tbnb-w-audio .tbnb-audio-stage{position:relative;cursor:pointer;display:flex;flex-direction:column;gap:2px}
.tbnb-w-audio .tbnb-wave{display:block;width:100%;height:64px;background:rgba(128,128,128,.06)}
.tbnb-w-audio .tbnb-spec{display:block;width:100%;height:96px;image-rendering:auto}
.tbnb-w-audio .tbnb-no-wave .tbnb-wave,.tbnb-w-audio .tbnb-no-spec .tbnb-spec{display:none}
.tbnb-w-audio .tbnb-playhead{position:absolute;top:0;bottom:0;width:1px;background:#d33;pointer-events:none}
.tbnb-w-audio .tbnb-playhead[hidden]{display:none}
.tbnb-w-audio .tbnb-audio-box>.tbnb-save-image{align-self:flex-end}
.tbnb-w-audio .tbnb-player{width:100%;height:32px}
`;
