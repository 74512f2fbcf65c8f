// HTML that is HTML by contract (an ipywidgets.HTML value, built and escaped in Python)
// shown through an allow-list: parsed in an inert document (DOMParser runs no script and
// loads nothing), then rebuilt element by element: allowed tags keep only `title` and
// `class`; any other element is replaced by its text (script and style by nothing).
import { el, text } from "./dom.js";

export const ALLOWED_TAGS = new Set([
  "b",
  "strong",
  "i",
  "em",
  "code",
  "span",
  "small",
  "sub",
  "sup",
  "br",
  "p",
  "div",
  "ul",
  "ol",
  "li",
  "pre",
  "kbd",
  "hr",
  "h1",
  "h2",
  "h3",
  "h4",
  "table",
  "thead",
  "tbody",
  "tr",
  "th",
  "td",
]);

/**
 * @param {Node} node
 * @returns {Node}
 */
function rebuild(node) {
  if (node.nodeType === 3) return text(node.textContent);
  if (node.nodeType !== 1) return text("");
  const source = /** @type {Element} */ (node);
  const tag = source.tagName.toLowerCase();
  const children = [...source.childNodes].map(rebuild);
  if (!ALLOWED_TAGS.has(tag)) {
    const out = document.createDocumentFragment();
    if (tag !== "script" && tag !== "style") out.append(...children);
    return out;
  }
  const attrs = {
    class: source.getAttribute("class") || null,
    title: source.getAttribute("title") || null,
  };
  return el(/** @type {keyof HTMLElementTagNameMap} */ (tag), attrs, ...children);
}

/**
 * A fragment showing `html` through the allow-list.
 * @param {string} html
 * @returns {DocumentFragment}
 */
export function safeFragment(html) {
  const doc = new DOMParser().parseFromString(String(html ?? ""), "text/html");
  const out = document.createDocumentFragment();
  out.append(...[...doc.body.childNodes].map(rebuild));
  return out;
}
