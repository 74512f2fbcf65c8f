// Bundles each widget's front end into ../tbnb/static/<key>.js (one ES module per
// widget; anywidget loads it as the widget's _esm). Shared modules (codecs, colours,
// smoothing, chart) are inlined into each bundle so a bundle never imports anything.
//
// Dependencies and why: d3-scale (+ d3-format/d3-time it pulls in) gives linear, log
// and time scales with "nice" ticks and tick formats, tree-shaken to a few tens of KB;
// the chart itself is our own canvas code (src/chart.js), because series of one chart
// have their own x arrays (runs log at different steps), which aligned-table chart
// libraries would pad to the union of all steps. No plotly.js: it is ~5 MB per widget
// state. esbuild: one fast, dependency-free bundler binary.
//
// The bundles are committed (pip install from git, Colab), and tests/test_js.py checks
// they equal a fresh build. `node build.mjs --check` exits 1 if they differ.
import { build } from "esbuild";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, "..", "tbnb", "static");
// A widget is a pair tbnb/widgets/<key>/ + js/src/<key>.js: every such pair is built.
const WIDGETS = readdirSync(join(here, "src"))
  .filter((f) => f.endsWith(".js"))
  .map((f) => f.slice(0, -3))
  .filter((key) => existsSync(join(here, "..", "tbnb", "widgets", key, "__init__.py")))
  .sort();
const check = process.argv.includes("--check");

let stale = [];
for (const key of WIDGETS) {
  const result = await build({
    entryPoints: [join(here, "src", `${key}.js`)],
    bundle: true,
    format: "esm",
    minify: true,
    target: ["es2020"],
    legalComments: "none",
    write: false,
    outfile: join(out, `${key}.js`),
  });
  const text = result.outputFiles[0].text;
  const target = join(out, `${key}.js`);
  if (check) {
    let old = "";
    try {
      old = readFileSync(target, "utf8");
    } catch {}
    if (old !== text) stale.push(key);
  } else {
    const { writeFileSync } = await import("node:fs");
    writeFileSync(target, text);
    console.log(`${key}.js ${text.length} bytes`);
  }
}
if (check && stale.length) {
  console.error(`stale bundles: ${stale.join(", ")} (run: cd js && npm run build)`);
  process.exit(1);
}
