import assert from "node:assert/strict";
import { test } from "node:test";
import { pack } from "../src/core/codecs.js";
import { NoKernelError, pendingRequests, RequestError, request, resentRequests } from "../src/core/request.js";

/** A model that records what is sent and lets the test answer like Python would. */
function fakeModel() {
  const handlers = new Map();
  const sent = [];
  return {
    sent,
    handlers,
    get: () => undefined,
    set() {},
    save_changes() {},
    on(event, fn) {
      if (!handlers.has(event)) handlers.set(event, new Set());
      handlers.get(event).add(fn);
    },
    off(event, fn) {
      handlers.get(event)?.delete(fn);
    },
    send(content, _callbacks, buffers) {
      sent.push({ content, buffers });
    },
    /** Answer like TbnbWidget._dispatch: pack the reply, deliver it as msg:custom. */
    reply(tree) {
      const [content, buffers] = pack(tree);
      for (const fn of [...(handlers.get("msg:custom") || [])]) fn(content, buffers);
    },
    listeners() {
      return handlers.get("msg:custom")?.size ?? 0;
    },
  };
}

test("a reply with the request's id resolves it, arrays decoded; others are ignored", async () => {
  const model = fakeModel();
  const first = request(model, "range", { lo: 1, runs: ["a"], mask: Uint8Array.from([1, 0]) });
  const second = request(model, "range", { lo: 2 });
  assert.equal(model.sent.length, 2);
  const [a, b] = model.sent.map((s) => s.content);
  assert.equal(a.type, "range");
  assert.notEqual(a.id, b.id);
  assert.deepEqual(a.mask, { buffer: 0, dtype: "uint8", shape: [2] });
  assert.equal(model.sent[0].buffers.length, 1);
  assert.equal(model.listeners(), 1); // one listener per model, however many requests
  model.reply({ type: "append", series: [] }); // a push from Python: not a reply
  model.reply({ type: "range", id: "someone-else", lo: 0 });
  model.reply({ type: "range", id: b.id, y: Float64Array.from([2.5]) }); // out of order
  model.reply({ type: "range", id: a.id, y: Float64Array.from([1.5]) });
  const [r1, r2] = await Promise.all([first, second]);
  assert.equal(r1.content.y[0], 1.5);
  assert.ok(r2.content.y instanceof Float64Array);
  assert.equal(r2.content.y[0], 2.5);
  assert.equal(model.listeners(), 0); // removed once nothing is pending
  assert.equal(pendingRequests(model), 0);
});

test("an {error} reply rejects with the kernel's message", async () => {
  const model = fakeModel();
  const pending = request(model, "range", {});
  model.reply({ type: "range", id: model.sent[0].content.id, error: "ValueError: unknown chart 'x'" });
  await assert.rejects(pending, (err) => err instanceof RequestError && /unknown chart/.test(err.message));
  assert.equal(model.listeners(), 0);
});

test("no answer in time makes a request slow, never failed: a late answer resolves it", async () => {
  const model = fakeModel();
  const events = [];
  const pending = request(
    model,
    "series",
    { keys: [] },
    {
      slowAfter: 20,
      onSlow: () => events.push("slow"),
      onSettle: () => events.push("settled"),
    },
  );
  await new Promise((r) => setTimeout(r, 60)); // a busy kernel (a cell running)
  assert.deepEqual(events, ["slow"]);
  // the request, and pings asking for a sign of life (one per slowAfter at most)
  const [asked, ...pings] = model.sent.map((s) => s.content);
  assert.ok(pings.length >= 1 && pings.every((p) => p.type === "ping"));
  assert.equal(pendingRequests(model), 1 + pings.length);
  // the cell ends: the kernel answers in the order it was asked
  model.reply({ type: "series", id: asked.id, items: [1] });
  for (const ping of pings) model.reply({ type: "ping", id: ping.id });
  const reply = await pending;
  assert.deepEqual(reply.content.items, [1]);
  assert.deepEqual(events, ["slow", "settled"]);
  assert.equal(resentRequests(model), 0); // nothing was lost: nothing asked twice
  assert.equal(pendingRequests(model), 0);
  assert.equal(model.listeners(), 0);
});

test("a request whose answer was lost is sent again when a later one is answered", async () => {
  const model = fakeModel();
  const pending = request(model, "series", { keys: [["a", "w"]] }, { slowAfter: 20 });
  await new Promise((r) => setTimeout(r, 40));
  const [asked, ping] = model.sent.map((s) => s.content);
  model.reply({ type: "ping", id: ping.id }); // answered after the lost one: it was lost
  assert.equal(resentRequests(model), 1);
  assert.equal(model.sent.length, 3);
  assert.deepEqual(model.sent[2].content, asked); // the same request, the same id
  model.reply({ type: "series", id: asked.id, items: [2] });
  assert.deepEqual((await pending).content.items, [2]);
  model.reply({ type: "series", id: asked.id, items: [3] }); // a duplicate answer is ignored
  assert.equal(pendingRequests(model), 0);
});

test("abort rejects at once; a send that throws (no kernel) rejects at once", async () => {
  const model = fakeModel();
  const controller = new AbortController();
  const pending = request(model, "range", {}, { signal: controller.signal });
  controller.abort();
  await assert.rejects(pending, /aborted/);
  assert.equal(model.listeners(), 0);
  const offline = fakeModel();
  offline.send = () => {
    throw new Error("no kernel in an exported page");
  };
  await assert.rejects(
    request(offline, "range", {}),
    (err) => err instanceof NoKernelError && /no kernel/.test(err.message),
  );
  assert.equal(offline.listeners(), 0);
  await assert.rejects(request(model, "range", {}, { signal: controller.signal }), /aborted/);
});
