// DOM helpers shared by every widget front end.

/** Create an element: `class` and `text` set className/textContent (never HTML). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v);
  }
  node.append(...children);
  return node;
}

/**
 * The anywidget `render` of a view class: build it into `el`, show a readable error
 * in place of the widget if building fails, and dispose of it when the view goes.
 */
export function renderView(View, name) {
  return function render({ model, el: host }) {
    const view = new View(model, host);
    try {
      view.build();
    } catch (err) {
      host.replaceChildren(el("pre", { class: "tbnb-error", text: `tbnb ${name} failed to render: ${err && err.stack ? err.stack : err}` }));
      throw err;
    }
    return () => view.dispose();
  };
}
