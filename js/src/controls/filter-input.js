// A text box holding a case-insensitive regex: an invalid one is marked (class
// `tbnb-invalid` and a message) and never applied.
import { el, setText } from "../core/dom.js";
import { compileFilter } from "../core/filter.js";

/**
 * @typedef {object} FilterInput
 * @property {HTMLLabelElement} node      the box and its message
 * @property {HTMLInputElement} input
 * @property {(value: string) => void} set  show a value from elsewhere (unless the box holds an edit in progress that is invalid)
 */

/**
 * @param {{className: string, placeholder: string, on: (t: EventTarget, type: string, h: (e: any) => void) => void,
 *   onChange: (text: string, re: RegExp | null) => void}} options
 * @returns {FilterInput}
 */
export function filterInput({ className, placeholder, on, onChange }) {
  const input = el("input", { class: `tbnb-filter ${className}`, type: "text", placeholder, spellcheck: "false" });
  const message = el("span", { class: `tbnb-msg ${className}-msg` });
  const node = el("label", {}, input, message);
  on(input, "input", () => {
    const { re, error } = compileFilter(input.value);
    input.classList.toggle("tbnb-invalid", error !== null);
    input.setAttribute("aria-invalid", String(error !== null));
    setText(message, error ? `invalid regex: ${error}` : "");
    if (error === null) onChange(input.value, re);
  });
  return {
    node,
    input,
    set(value) {
      if (input.classList.contains("tbnb-invalid") && input.value !== value) return;
      if (input.value !== value) input.value = value;
      input.classList.remove("tbnb-invalid");
      input.setAttribute("aria-invalid", "false");
      setText(message, "");
    },
  };
}
