// Static checks over js/src: no HTML parsing of data, and no global CSS rule.
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { KIT_CSS } from "../src/core/css.js";

const SRC = new URL("../src/", import.meta.url).pathname;

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith(".js") ? [path] : [];
  });
}

test("no innerHTML, outerHTML, insertAdjacentHTML or document.write anywhere in js/src", () => {
  const sources = files(SRC);
  assert.ok(sources.length > 20);
  for (const path of sources) {
    const text = readFileSync(path, "utf8");
    for (const api of ["innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "createContextualFragment"]) {
      assert.ok(!text.includes(api), `${path} uses ${api}`);
    }
  }
});

/** Every selector of a CSS text (comma groups split). */
function selectors(css) {
  return [...css.matchAll(/([^{}]+)\{[^{}]*\}/g)].flatMap((m) => m[1].split(",").map((s) => s.trim()));
}

test("every CSS rule is scoped: kit rules under .tbnb-root, widget rules under .tbnb-w-<key>", async () => {
  const kit = selectors(KIT_CSS);
  assert.ok(kit.length > 20);
  for (const s of kit) assert.match(s, /^\.tbnb-root(\s|$|[.:[*>])/, s);
  const widgets = readdirSync(join(SRC, "widgets"));
  assert.ok(widgets.length >= 2);
  for (const key of widgets) {
    const { CSS } = await import(join(SRC, "widgets", key, "style.js"));
    const own = selectors(CSS);
    assert.ok(own.length > 3, key);
    for (const s of own) assert.ok(s.startsWith(`.tbnb-w-${key} `) || s === `.tbnb-w-${key}`, `${key}: ${s}`);
  }
});
