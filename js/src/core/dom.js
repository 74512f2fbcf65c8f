// The one way text reaches the DOM: text nodes. Strings from logs (run names, tags,
// hparam names and values, text summaries) are data, never markup: no DOM API that parses
// HTML from a string appears anywhere in js/src (tests/safety.test.mjs scans for them).
// Bidi controls, invisible and control characters in them are shown as <U+XXXX>
// (visibleControls), so no name can pass for another.

/** @typedef {string | number | boolean | null | undefined} Attr */
/** @typedef {Node | string | number} Child */

const URL_ATTRS = new Set(["href", "src", "action", "formaction", "xlink:href", "srcdoc"]);
/** Attributes a reader sees (tooltips, labels): their controls are made visible too. */
const SHOWN_ATTRS = new Set(["title", "aria-label", "placeholder", "alt"]);

/**
 * Whether an attribute may be set from code that might hold data: never an event handler
 * (`on*`), and a URL only when it is one the page made (blob:, data: or a fragment).
 * @param {string} name
 * @param {string} value
 */
export function safeAttribute(name, value) {
  const lower = name.toLowerCase();
  if (lower.startsWith("on") || lower === "style" || lower === "srcdoc") return false;
  if (URL_ATTRS.has(lower)) return /^(blob:|data:|#)/i.test(value.trim());
  return true;
}

/**
 * Characters shown as <U+XXXX>: bidi controls (a right-to-left override makes
 * "evil\u202Egnp.exe" read "evilexe.png"), invisible characters (zero-width space, word
 * joiner, Hangul fillers, tag characters) and control characters but tab, line feed and
 * carriage return. Zero-width joiners and non-joiners stay: scripts and emoji need them.
 * The same class as CONTROLS in tbnb/io/safe_text.py (tests/io/test_safe_text.py).
 */
const CONTROLS = new RegExp(
  "[\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f\\u00ad\\u034f\\u061c\\u115f\\u1160\\u17b4\\u17b5" +
    "\\u180b-\\u180e\\u200b\\u200e\\u200f\\u2028-\\u202e\\u2060-\\u206f\\u3164\\ufeff\\uffa0\\ufff9-\\ufffb\\u{e0000}-\\u{e007f}]",
  "gu",
);

/**
 * `value` as text, each bidi, invisible or control character shown as <U+XXXX>.
 * @param {unknown} value
 * @returns {string}
 */
export function visibleControls(value) {
  const s = value === null || value === undefined ? "" : String(value);
  return s.replace(CONTROLS, (c) => `<U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}>`);
}

/**
 * A text node holding `value` as it is (never parsed as HTML; controls made visible).
 * @param {unknown} value
 * @returns {Text}
 */
export function text(value) {
  return document.createTextNode(visibleControls(value));
}

/**
 * Replace the content of `node` by `value` as text (controls made visible).
 * @template {Node} N
 * @param {N} node
 * @param {unknown} value
 * @returns {N}
 */
export function setText(node, value) {
  node.textContent = visibleControls(value);
  return node;
}

/**
 * Create an element. `attrs.class` sets the class, `attrs.text` the text content, `attrs.style`
 * an object of style properties; other attributes are set as strings (`null`/`undefined`/`false`
 * leave them out, `true` sets them empty). Children strings become text nodes.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, Attr | Record<string, string>>} [attrs]
 * @param {...Child} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "class") node.className = String(value);
    else if (name === "text") node.textContent = visibleControls(value);
    else if (name === "style" && typeof value === "object") {
      for (const [prop, v] of Object.entries(value)) node.style.setProperty(prop, v);
    } else {
      const raw = value === true ? "" : String(value);
      const v = SHOWN_ATTRS.has(name) ? visibleControls(raw) : raw;
      if (!safeAttribute(name, v)) throw new Error(`el(): refusing attribute ${name}`);
      node.setAttribute(name, v);
    }
  }
  for (const child of children) node.append(typeof child === "object" ? child : visibleControls(child));
  return node;
}

/**
 * `value` as text that may break after "/", "," and "_" (a <wbr> there: long run names and
 * tags wrap between their parts, never inside a number, and the text content stays
 * exactly `value`).
 * @param {unknown} value
 * @returns {DocumentFragment}
 */
export function breakableText(value) {
  const out = document.createDocumentFragment();
  const parts = visibleControls(value).split(/(?<=[/,_])/);
  parts.forEach((part, i) => {
    if (i) out.append(document.createElement("wbr"));
    out.append(part);
  });
  return out;
}

/**
 * Whether `node` has the keyboard focus, in the page or in the shadow root it sits in
 * (`document.activeElement` is the shadow host there, never the element inside).
 * @param {Element} node
 * @returns {boolean}
 */
export function isFocused(node) {
  const root = /** @type {Document | ShadowRoot} */ (node.getRootNode());
  return (root.activeElement ?? document.activeElement) === node;
}

/**
 * The element with the keyboard focus in the root `node` sits in (see isFocused).
 * @param {Element} node
 * @returns {Element | null}
 */
export function focusedIn(node) {
  const root = /** @type {Document | ShadowRoot} */ (node.getRootNode());
  return root.activeElement ?? document.activeElement;
}
