// The meshes widget's own styles, every rule under its root class.
import { mediaCSS } from "../../media/style.js";

export const CSS = `${mediaCSS("mesh")}
.tbnb-w-mesh .tbnb-card{width:calc(var(--tbnb-mesh-size,320px) + 10px)}
.tbnb-w-mesh .tbnb-mesh-box{width:var(--tbnb-mesh-size,320px);height:var(--tbnb-mesh-size,320px);position:relative;background:radial-gradient(circle at 50% 40%,rgba(128,128,128,.06),rgba(128,128,128,.16));border-radius:3px;overflow:hidden}
.tbnb-w-mesh canvas.tbnb-mesh-canvas{display:block;width:100%;height:100%;cursor:grab;touch-action:none}
.tbnb-w-mesh canvas.tbnb-mesh-canvas:active{cursor:grabbing}
.tbnb-w-mesh canvas.tbnb-mesh-canvas:focus{outline:2px solid var(--tbnb-accent);outline-offset:-2px}
.tbnb-w-mesh .tbnb-point-size{width:80px}
.tbnb-w-mesh .tbnb-mesh-note{position:absolute;left:4px;bottom:3px;right:4px;font-size:10px;color:#b35900;pointer-events:none;overflow-wrap:anywhere}
.tbnb-w-mesh .tbnb-mesh-note:empty{display:none}
.tbnb-w-mesh .tbnb-gl-error{color:#b00020;font-size:12px;padding:6px}
`;
