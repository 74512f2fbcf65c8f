import assert from "node:assert/strict";
import { test } from "node:test";
import { drawGrid, drawTicks } from "../src/chart/axes.js";
import { imageFileName } from "../src/chart/image-export.js";
import { escapeXML, fontAttributes, paint, SvgContext } from "../src/chart/svg-context.js";
import { makePath, SvgPath } from "../src/chart/svg-path.js";

const ENTITY = /&(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-f]+);/gi;

/**
 * A strict check that `xml` is well formed: one root, tags nested and closed, attribute
 * values quoted without raw "<" or "&", text without raw "<", ">" or "&". Returns the
 * elements (name, attributes, text inside) in document order.
 */
function parseXML(xml) {
  let s = xml.replace(/^<\?xml[^?]*\?>\s*/, "");
  const stack = [];
  const elements = [];
  let roots = 0;
  while (s.length) {
    const lt = s.indexOf("<");
    const text = lt < 0 ? s : s.slice(0, lt);
    const bare = text.replace(ENTITY, "");
    assert.ok(!/[<>&]/.test(bare), `raw markup character in text: ${JSON.stringify(text.slice(0, 80))}`);
    if (text.trim()) {
      assert.ok(stack.length, "text outside the root");
      stack[stack.length - 1].text += text;
    }
    if (lt < 0) break;
    s = s.slice(lt);
    const m = /^<(\/?)([A-Za-z][\w:.-]*)((?:\s+[\w:.-]+="[^"]*")*)\s*(\/?)>/.exec(s);
    assert.ok(m, `malformed tag at ${JSON.stringify(s.slice(0, 80))}`);
    const [whole, close, name, attrs, selfClose] = m;
    for (const [, , value] of attrs.matchAll(/([\w:.-]+)="([^"]*)"/g)) {
      assert.ok(!/[<&]/.test(value.replace(ENTITY, "")), `raw character in attribute ${value.slice(0, 80)}`);
    }
    if (close) {
      const open = stack.pop();
      assert.equal(open?.name, name, "mismatched close tag");
    } else {
      const node = { name, attrs, text: "" };
      elements.push(node);
      if (!stack.length) roots++;
      if (!selfClose) stack.push(node);
    }
    s = s.slice(whole.length);
  }
  assert.equal(stack.length, 0, "unclosed elements");
  assert.equal(roots, 1, "one root element");
  return elements;
}

const fromXML = (t) =>
  t
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");

test("a drawing becomes well-formed SVG with paths, text and clip groups", () => {
  const ctx = new SvgContext(300, 200, { measure: null, title: "loss & <b>" });
  ctx.save();
  ctx.beginPath();
  ctx.rect(10, 10, 100, 50);
  ctx.clip();
  ctx.strokeStyle = "rgba(10, 20, 30, 0.5)";
  ctx.lineWidth = 2;
  ctx.setLineDash([6, 3]);
  ctx.beginPath();
  ctx.moveTo(0, 0);
  ctx.lineTo(50, 25);
  ctx.stroke();
  ctx.restore();
  ctx.fillStyle = "#ff000080";
  ctx.fillRect(1, 2, 3, 4);
  const xml = ctx.toString();
  const els = parseXML(xml);
  assert.equal(els[0].name, "svg");
  assert.match(els[0].attrs, /viewBox="0 0 300 200"/);
  assert.equal(fromXML(els.find((e) => e.name === "title").text), "loss & <b>");
  const line = els.find((e) => e.name === "path" && /stroke=/.test(e.attrs));
  assert.match(line.attrs, /d="M0 0L50 25"/);
  assert.match(line.attrs, /stroke="rgb\(10,20,30\)" stroke-width="2" stroke-opacity="0.5"/);
  assert.match(line.attrs, /stroke-dasharray="6 3"/);
  // The clip group closes at restore: the rectangle after it is not clipped.
  const clipAt = xml.indexOf('<g clip-path="url(#c1)">');
  const closeAt = xml.indexOf("</g>");
  const rectAt = xml.indexOf('d="M1 2L4 2L4 6L1 6Z');
  assert.ok(clipAt > 0 && clipAt < closeAt && closeAt < rectAt, xml);
  assert.match(xml, /fill="#ff0000" fill-opacity="0.502"/);
});

test("text from logs is escaped: a <script> tag name and & stay text", () => {
  const ctx = new SvgContext(200, 100, { measure: null });
  const hostile = `<script>alert("x")</script> & <img src=x onerror=alert(1)> ']]>`;
  ctx.font = "bold 12px 'Fira <Sans>', sans-serif";
  ctx.fillStyle = 'red" onload="alert(1)';
  ctx.textAlign = "center";
  ctx.textBaseline = "top";
  ctx.fillText(hostile, 100, 10);
  const xml = ctx.toString();
  const els = parseXML(xml);
  assert.ok(!/<script|<img/i.test(xml), xml);
  const text = els.find((e) => e.name === "text");
  assert.equal(fromXML(text.text), hostile);
  assert.match(text.attrs, /text-anchor="middle" dominant-baseline="hanging"/);
  assert.match(text.attrs, /font-weight="bold"/);
  const names = [...text.attrs.matchAll(/([\w:.-]+)="[^"]*"/g)].map((m) => m[1]);
  assert.ok(!names.includes("onload"), text.attrs);
  assert.match(text.attrs, /fill="red&quot; onload=&quot;alert\(1\)"/);
});

test("transforms map path points; text keeps its size through a uniform scale", () => {
  const ctx = new SvgContext(100, 100, { measure: null });
  ctx.translate(10, 20);
  ctx.scale(2, 2);
  ctx.beginPath();
  ctx.moveTo(1, 1);
  ctx.lineTo(2, 3);
  ctx.lineWidth = 1.5;
  ctx.stroke();
  ctx.font = "10px sans-serif";
  ctx.fillText("a", 5, 5);
  const xml = ctx.toString();
  assert.match(xml, /d="M12 22L14 26"[^>]*stroke-width="3"/);
  assert.match(xml, /<text x="20" y="30" font-family="sans-serif" font-size="20"/);
  assert.deepEqual(ctx.getTransform(), { a: 2, b: 0, c: 0, d: 2, e: 10, f: 20 });
});

test("Path2D stand-ins are stroked with the transform at stroke time", () => {
  const ctx = new SvgContext(100, 100, { measure: null });
  const path = makePath(ctx);
  assert.ok(path instanceof SvgPath);
  path.moveTo(0, 0);
  path.lineTo(10, 0);
  ctx.translate(5, 5);
  ctx.stroke(path);
  assert.match(ctx.toString(), /d="M0 0L10 0" fill="none"[^>]*transform="matrix\(1 0 0 1 5 5\)"/);
});

test("arcs become Béziers through their end points; full circles close", () => {
  const p = new SvgPath();
  p.arc(50, 50, 10, 0, Math.PI * 2);
  const d = p.d;
  assert.match(d, /^M60 50C/);
  assert.equal((d.match(/C/g) || []).length, 4);
  assert.ok(d.endsWith("60 50"), d);
  const half = new SvgPath();
  half.arc(0, 0, 5, 0, Math.PI);
  assert.ok(half.d.endsWith("-5 0"), half.d);
});

test("unbalanced save/clip still closes every group; NaN points are skipped", () => {
  const ctx = new SvgContext(10, 10, { measure: null });
  ctx.save();
  ctx.rect(0, 0, 5, 5);
  ctx.clip();
  ctx.beginPath();
  ctx.moveTo(Number.NaN, 1);
  ctx.lineTo(1, 1);
  ctx.lineTo(2, Number.POSITIVE_INFINITY);
  ctx.stroke();
  const xml = ctx.toString();
  parseXML(xml);
  assert.match(xml, /d="M1 1"/);
});

test("the kit's axes draw into the SVG context: grid and tick labels", () => {
  const ctx = new SvgContext(300, 150, { measure: null });
  const ticks = [
    { pos: 60, label: "0" },
    { pos: 160, label: "1k" },
  ];
  drawGrid(ctx, ticks, ticks, { left: 50, top: 10, right: 290, bottom: 120 }, "#333");
  drawTicks(ctx, ticks, { side: "bottom", at: 122, color: "#333", font: "10px sans-serif" });
  const els = parseXML(ctx.toString());
  assert.deepEqual(
    els.filter((e) => e.name === "text").map((e) => e.text),
    ["0", "1k"],
  );
  assert.ok(els.some((e) => e.name === "path" && /stroke-opacity="0.12"/.test(e.attrs)));
});

test("colours, fonts and file names", () => {
  assert.deepEqual(paint("rgba(1,2,3,0.25)"), ["rgb(1,2,3)", 0.25]);
  assert.deepEqual(paint("rgb(1 2 3 / 50%)"), ["rgb(1,2,3)", 0.5]);
  assert.deepEqual(paint("#abc"), ["#abc", 1]);
  assert.deepEqual(paint("#00000000"), ["#000000", 0]);
  assert.equal(fontAttributes("italic 600 11px Inter, sans-serif").includes('font-style="italic"'), true);
  assert.equal(escapeXML("a\u0001b"), "a\ufffdb");
  assert.equal(imageFileName("loss/train", "png"), "loss_train.png");
  assert.equal(imageFileName("<script>alert(1)</script>", "svg"), "script_alert_1_script.svg");
  assert.equal(imageFileName("../../etc/passwd", "svg"), "etc_passwd.svg");
  assert.equal(imageFileName("///", "png"), "chart.png");
  assert.equal(imageFileName("損失/訓練", "png"), "損失_訓練.png");
});

test("legend entries wrap into rows and stop at 60 with a count of the rest", async () => {
  const { legendLayout } = await import("../src/chart/image-export.js");
  const measure = { font: "", measureText: (s) => ({ width: s.length * 6 }) };
  const items = Array.from({ length: 70 }, (_, i) => ({ label: `run${i}`, color: "#123456" }));
  const { entries, rows } = legendLayout(measure, items, 300, "11px sans-serif");
  assert.equal(entries.length, 61);
  assert.equal(entries[60].label, "… and 10 more");
  assert.equal(entries[60].color, "");
  assert.ok(rows > 10);
  for (const e of entries) assert.ok(e.x + 16 + e.label.length * 6 <= 300 - 12 + 14 || e.x === 12, e);
  assert.deepEqual(legendLayout(measure, [], 300, "").rows, 0);
});
