// The one way text reaches the DOM: text nodes. Strings from logs (run names, tags,
// hparam names and values, text summaries) are data, never markup: no DOM API that parses
// HTML from a string appears anywhere in js/src (tests/safety.test.mjs scans for them).

/** @typedef {string | number | boolean | null | undefined} Attr */
/** @typedef {Node | string | number} Child */

const URL_ATTRS = new Set(["href", "src", "action", "formaction", "xlink:href", "srcdoc"]);

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
 * A text node holding `value` as it is (never parsed as HTML).
 * @param {unknown} value
 * @returns {Text}
 */
export function text(value) {
  return document.createTextNode(value === null || value === undefined ? "" : String(value));
}

/**
 * Replace the content of `node` by `value` as text.
 * @template {Node} N
 * @param {N} node
 * @param {unknown} value
 * @returns {N}
 */
export function setText(node, value) {
  node.textContent = value === null || value === undefined ? "" : String(value);
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
    else if (name === "text") node.textContent = String(value);
    else if (name === "style" && typeof value === "object") {
      for (const [prop, v] of Object.entries(value)) node.style.setProperty(prop, v);
    } else {
      const v = value === true ? "" : String(value);
      if (!safeAttribute(name, v)) throw new Error(`el(): refusing attribute ${name}`);
      node.setAttribute(name, v);
    }
  }
  for (const child of children) node.append(typeof child === "number" ? String(child) : child);
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
  const parts = String(value ?? "").split(/(?<=[/,_])/);
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
