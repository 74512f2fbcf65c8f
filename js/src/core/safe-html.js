// HTML that is HTML by contract (an ipywidgets.HTML value, built and escaped in Python)
// shown through an allow-list: parsed in an inert document (DOMParser runs no script and
// loads nothing), then rebuilt element by element: allowed tags keep only `title` and
// `class`; any other element is replaced by its text (script and style by nothing).
// safeMarkdown() does the same for rendered markdown (text summaries, sanitised once in
// Python already): TensorBoard's markdown tags, and links that keep an http(s) or mailto
// URL, opening in a new tab without access to this page.
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

/** The tags of rendered markdown (TensorBoard's allow-list, without images). */
export const MARKDOWN_TAGS = new Set([...ALLOWED_TAGS, "a", "blockquote", "h5", "h6"]);

const LINK = /^(https?:|mailto:)/i;

/**
 * @param {Node} node
 * @param {Set<string>} allowed
 * @returns {Node}
 */
function rebuild(node, allowed = ALLOWED_TAGS) {
  if (node.nodeType === 3) return text(node.textContent);
  if (node.nodeType !== 1) return text("");
  const source = /** @type {Element} */ (node);
  const tag = source.tagName.toLowerCase();
  const children = [...source.childNodes].map((child) => rebuild(child, allowed));
  if (!allowed.has(tag)) {
    const out = document.createDocumentFragment();
    if (tag !== "script" && tag !== "style") out.append(...children);
    return out;
  }
  const attrs = {
    class: source.getAttribute("class") || null,
    title: source.getAttribute("title") || null,
  };
  if (tag === "a") return link(source.getAttribute("href"), attrs, children);
  return el(/** @type {keyof HTMLElementTagNameMap} */ (tag), attrs, ...children);
}

/**
 * A link kept only with an http(s) or mailto URL (else its text in a span); it opens in a
 * new tab that gets no handle on this page.
 * @param {string | null} href
 * @param {Record<string, string | null>} attrs
 * @param {Node[]} children
 */
function link(href, attrs, children) {
  const url = (href || "").trim();
  if (!LINK.test(url)) return el("span", attrs, ...children);
  const a = el("a", attrs, ...children);
  a.setAttribute("href", url); // el() refuses URLs it did not make; this one was checked above
  a.setAttribute("target", "_blank");
  a.setAttribute("rel", "noopener noreferrer nofollow");
  return a;
}

/**
 * A fragment showing `html` through the allow-list.
 * @param {string} html
 * @returns {DocumentFragment}
 */
export function safeFragment(html) {
  const doc = new DOMParser().parseFromString(String(html ?? ""), "text/html");
  const out = document.createDocumentFragment();
  out.append(...[...doc.body.childNodes].map((node) => rebuild(node)));
  return out;
}

/**
 * A fragment showing rendered markdown through the markdown allow-list (links: http(s)
 * and mailto only).
 * @param {string} html
 * @returns {DocumentFragment}
 */
export function safeMarkdown(html) {
  const doc = new DOMParser().parseFromString(String(html ?? ""), "text/html");
  const out = document.createDocumentFragment();
  out.append(...[...doc.body.childNodes].map((node) => rebuild(node, MARKDOWN_TAGS)));
  return out;
}
