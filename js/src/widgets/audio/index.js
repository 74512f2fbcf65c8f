// The audio widget's front end (Python side: tbnb/widgets/audio/): a player per run and
// tag with its waveform and spectrogram.
import { renderView } from "../../core/view.js";
import { CSS } from "./style.js";
import { AudioView } from "./view.js";

export default { render: renderView(AudioView, { key: "audio", css: CSS }) };
