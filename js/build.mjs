// Bundles each widget's front end, js/src/widgets/<key>/index.js, into
// ../tbnb/static/<key>.js (one ES module per widget; anywidget loads it as the widget's
// _esm), and the exported page's widget manager, js/src/export/index.js, into
// ../tbnb/static/export.js (tbnb/notebook/export.py inlines it). The kit (src/core, chart,
// color, controls) is inlined into each bundle that uses it, so no bundle imports anything.
//
// A widget is a pair tbnb/widgets/<key>/ + js/src/widgets/<key>/: a front end without its
// Python folder is an error. Dependencies and why: see README.md.
//
// A module imported as `./x.worker.js?worker-source` is bundled on its own (an IIFE, the
// kit inlined) and imported as its source text: a widget starts it as a Web Worker from a
// blob: URL, so a bundle still fetches nothing (js/README.md: "Workers").
//
// The bundles are committed (pip install from git, Colab need no node), and
// tests/js/test_js.py checks they equal a fresh build: `node build.mjs --check` exits 1 if
// they differ. `node build.mjs --sizes` prints raw and gzipped sizes.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, "..", "tbnb", "static");
const widgetsDir = join(here, "src", "widgets");

const widgets = readdirSync(widgetsDir, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(join(widgetsDir, d.name, "index.js")))
  .map((d) => d.name)
  .sort();
for (const key of widgets) {
  if (!existsSync(join(here, "..", "tbnb", "widgets", key, "__init__.py"))) {
    console.error(`js/src/widgets/${key}/ has no Python side (tbnb/widgets/${key}/__init__.py)`);
    process.exit(1);
  }
}

const entries = [
  ...widgets.map((key) => ({ name: key, entry: join(widgetsDir, key, "index.js") })),
  { name: "export", entry: join(here, "src", "export", "index.js") },
];
const check = process.argv.includes("--check");
const sizes = process.argv.includes("--sizes");

/** esbuild plugin: `import SOURCE from "./file.js?worker-source"` gives the bundled text. */
const workerSource = {
  name: "worker-source",
  setup(plugin) {
    plugin.onResolve({ filter: /\?worker-source$/ }, (args) => ({
      path: join(args.resolveDir, args.path.replace(/\?worker-source$/, "")),
      namespace: "worker-source",
    }));
    plugin.onLoad({ filter: /.*/, namespace: "worker-source" }, async (args) => {
      const result = await build({
        entryPoints: [args.path],
        bundle: true,
        format: "iife",
        minify: true,
        target: ["es2020"],
        legalComments: "none",
        write: false,
      });
      return { contents: `export default ${JSON.stringify(result.outputFiles[0].text)};`, loader: "js" };
    });
  },
};

const stale = [];
for (const { name, entry } of entries) {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    format: "esm",
    minify: true,
    target: ["es2020"],
    legalComments: "none",
    write: false,
    outfile: join(out, `${name}.js`),
    plugins: [workerSource],
  });
  const text = result.outputFiles[0].text;
  const target = join(out, `${name}.js`);
  if (check) {
    const old = existsSync(target) ? readFileSync(target, "utf8") : "";
    if (old !== text) stale.push(name);
  } else if (sizes) {
    const raw = Buffer.byteLength(text);
    console.log(`${name}.js ${raw} bytes, ${gzipSync(text, { level: 9 }).length} gzipped`);
  } else {
    writeFileSync(target, text);
    console.log(`${name}.js ${text.length} bytes`);
  }
}
if (stale.length) {
  console.error(`stale bundles: ${stale.join(", ")} (run: cd js && npm run build)`);
  process.exit(1);
}
