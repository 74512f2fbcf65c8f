// `import SOURCE from "./x.worker.js?worker-source"`: the bundled text of a worker module
// (build.mjs bundles it on its own and inlines it as a string).
declare module "*?worker-source" {
  const source: string;
  export default source;
}
