// The audio widget's view: a card per run and tag with a player, the waveform (click to
// seek; a playhead follows playback) and the spectrogram with a frequency and a time axis,
// the position in the clip in its own unit (0.04 / 0.10 s), the sample rate, channels,
// duration and label, on the media kit.

import { rasterImage } from "../../chart/image-export.js";
import { runColor } from "../../color/palettes.js";
import { saveImageButton } from "../../controls/save-image.js";
import { el, setText } from "../../core/dom.js";
import { cardCaption } from "../../media/caption.js";
import { formatBytes, formatClipDuration, formatPlayback } from "../../media/format.js";
import { MediaView } from "../../media/media-view.js";
import { frequencyTicks, renderTicks, timeTicks } from "./axes.js";
import { decodeClip, releaseClip } from "./decode.js";
import { paintSpectrogram, paintWaveform } from "./paint.js";

/** @typedef {import("../../media/card").CardView} CardView */
/** @typedef {import("./decode").DecodedClip} DecodedClip */

const WAVE_HEIGHT = 64;

export class AudioView extends MediaView {
  /**
   * @param {import("./model").AudioModel} model
   * @param {HTMLElement} host
   */
  constructor(model, host) {
    super(model, host, "audio", {
      noun: "clips",
      radius: 2,
      fetcher: { maxDecoded: 120, maxBytes: 512 << 20 },
      csv: [
        ["sample_rate", (item) => item.sample_rate],
        ["num_channels", (item) => item.num_channels],
        ["length_frames", (item) => item.length_frames],
        ["duration", (item) => item.duration],
        ["label", (item) => item.label],
        ["nbytes", (item) => item.nbytes],
      ],
    });
    this.displaySelect = el(
      "select",
      { class: "tbnb-audio-display", "aria-label": "show" },
      el("option", { value: "both", text: "waveform + spectrogram" }),
      el("option", { value: "waveform", text: "waveform" }),
      el("option", { value: "spectrogram", text: "spectrogram" }),
    );
    this.scaleSelect = el(
      "select",
      { class: "tbnb-frequency-scale", "aria-label": "frequency axis" },
      el("option", { value: "linear", text: "frequency: linear" }),
      el("option", { value: "log", text: "frequency: log" }),
    );
    this.disposers.push(() => {
      for (const cv of this.cards.values()) {
        cv.extra.audio?.pause();
        cancelAnimationFrame(cv.extra.frame || 0);
      }
    });
  }

  toolbarExtras() {
    return [this.displaySelect, this.scaleSelect];
  }

  build() {
    super.build();
    this.on(this.displaySelect, "change", () => {
      this.model.set("display", this.displaySelect.value);
      this.saveSoon();
      this.applyDisplay();
    });
    this.on(this.scaleSelect, "change", () => {
      this.model.set("frequency_scale", this.scaleSelect.value);
      this.saveSoon();
      this.applyDisplay();
    });
    this.listen("change:display change:frequency_scale", () => this.applyDisplay());
    this.applyDisplay();
  }

  applyDisplay() {
    const display = this.model.get("display") || "both";
    this.displaySelect.value = display;
    this.scaleSelect.value = this.model.get("frequency_scale") || "linear";
    this.main.classList.toggle("tbnb-no-wave", display === "spectrogram");
    this.main.classList.toggle("tbnb-no-spec", display === "waveform");
    for (const cv of this.cards.values()) cv.shownKey = null; // repaint with the new axis
    this.frames.request();
  }

  /** @param {import("../../media/card-index").Card} card */
  createContent(card) {
    const wave = el("canvas", { class: "tbnb-wave", width: "1", height: "1", title: "click to play from here" });
    const spec = el("canvas", { class: "tbnb-spec", width: "1", height: "1", title: "click to play from here" });
    const head = el("div", { class: "tbnb-playhead" });
    const audio = el("audio", { class: "tbnb-player", controls: true, preload: "metadata" });
    const freqAxis = el("div", { class: "tbnb-freq-axis", "aria-hidden": "true" });
    const specBox = el("div", { class: "tbnb-spec-box" }, spec, freqAxis);
    const stage = el("div", { class: "tbnb-audio-stage" }, wave, specBox, head);
    const timeAxis = el("div", { class: "tbnb-time-axis", "aria-hidden": "true" });
    const time = el("span", { class: "tbnb-audio-time" });
    const image = () => rasterImage(stage, card.tag, cardCaption(stage, card.run));
    const save = saveImageButton({ on: this.on.bind(this), svg: false, label: card.tag, image });
    const node = el(
      "div",
      { class: "tbnb-card-content tbnb-audio-box" },
      stage,
      timeAxis,
      audio,
      el("div", { class: "tbnb-audio-foot" }, time, save),
    );
    const seek = (/** @type {MouseEvent} */ e) => {
      const box = stage.getBoundingClientRect();
      if (!Number.isFinite(audio.duration) || !audio.duration) return;
      audio.currentTime = ((e.clientX - box.left) / Math.max(box.width, 1)) * audio.duration;
      audio.play().catch(() => {});
    };
    this.on(stage, "click", seek);
    const follow = () => {
      const clip = Number(node.getAttribute("data-duration"));
      setText(time, formatPlayback(audio.currentTime, Number.isFinite(audio.duration) ? audio.duration : clip));
      const t = audio.duration ? audio.currentTime / audio.duration : 0;
      head.style.left = `${(Math.min(Math.max(t, 0), 1) * 100).toFixed(2)}%`;
      head.hidden = !audio.currentTime && audio.paused;
    };
    const loop = () => {
      follow();
      if (!audio.paused) requestAnimationFrame(loop);
    };
    this.on(audio, "play", () => requestAnimationFrame(loop));
    this.on(audio, "timeupdate", follow);
    this.on(audio, "emptied", follow);
    this.on(audio, "loadedmetadata", follow);
    head.hidden = true;
    return node;
  }

  /** @param {any} item */
  decode(item) {
    return decodeClip(item);
  }

  /** @param {DecodedClip} decoded */
  release(decoded) {
    releaseClip(decoded);
  }

  /**
   * @param {CardView} cv
   * @param {any} _item
   * @param {DecodedClip} decoded
   */
  show(cv, _item, decoded) {
    const box = cv.content;
    const audio = /** @type {HTMLAudioElement} */ (box.querySelector(".tbnb-player"));
    const wave = /** @type {HTMLCanvasElement} */ (box.querySelector(".tbnb-wave"));
    const spec = /** @type {HTMLCanvasElement} */ (box.querySelector(".tbnb-spec"));
    cv.extra.audio = audio;
    if (audio.src !== decoded.url) {
      audio.pause();
      audio.src = decoded.url;
    }
    const colors = this.model.get("run_colors") || {};
    const color = runColor(colors, cv.card.run, this.index.runs.indexOf(cv.card.run));
    const display = this.model.get("display") || "both";
    const scale = this.model.get("frequency_scale") === "log" ? "log" : "linear";
    if (display !== "spectrogram") paintWaveform(wave, decoded.bands, color, WAVE_HEIGHT * 2);
    if (display !== "waveform") paintSpectrogram(spec, decoded.spectrum, decoded.rate, scale);
    renderTicks(
      /** @type {HTMLElement} */ (box.querySelector(".tbnb-freq-axis")),
      frequencyTicks(decoded.rate, scale),
      "top",
    );
    renderTicks(/** @type {HTMLElement} */ (box.querySelector(".tbnb-time-axis")), timeTicks(decoded.duration), "left");
    cv.node.setAttribute("data-duration", decoded.duration.toFixed(4));
    box.setAttribute("data-duration", String(decoded.duration));
    setText(
      /** @type {HTMLElement} */ (box.querySelector(".tbnb-audio-time")),
      formatPlayback(audio.currentTime, decoded.duration),
    );
  }

  /**
   * @param {any} item
   * @param {import("../../media/card-index").Position} pos
   */
  info(item, pos) {
    const channels = item.num_channels === 1 ? "mono" : item.num_channels === 2 ? "stereo" : `${item.num_channels} ch`;
    const label = item.label ? ` · ${item.label}` : "";
    return `${super.info(item, pos)} · ${item.sample_rate} Hz · ${channels} · ${formatClipDuration(item.duration)} · ${formatBytes(item.nbytes)}${label}`;
  }
}
