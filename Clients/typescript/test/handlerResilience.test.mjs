// The handler under failures a web server meets in production: a connection to the registry that silently
// stops passing bytes, a registry that is down at boot (ready() with a deadline, startup documents).
import { test } from "node:test";
import assert from "node:assert/strict";
import net from "node:net";
import { RegistryError, Status, aasaHandler } from "../dist/esm/index.js";
import { eventually, startFakeRegistry } from "./support/rpcServer.mjs";
import { startStallingProxy } from "./support/stallingProxy.mjs";

const aasaFor = (path) => ({ applinks: { details: [{ appIDs: ["ABCDE12345.com.badoo.Badoo"], components: [{ "/": path }] }] } });

/** Calls the handler with a hand-made Node-style request and response; resolves with what it wrote. */
function get(handler, host, path = "/.well-known/apple-app-site-association") {
  const headers = {};
  return new Promise((resolve) => {
    const res = {
      statusCode: 0,
      setHeader: (name, value) => { headers[name.toLowerCase()] = value; },
      end: (body) => resolve({ status: res.statusCode, headers, body }),
    };
    handler({ method: "GET", url: path, headers: { host } }, res);
  });
}

async function closedPort() {
  // Bound but never listening: connections are refused, and no other test can get the port meanwhile.
  const socket = net.createServer();
  await new Promise((resolve) => socket.listen(0, "127.0.0.1", resolve));
  const { port } = socket.address();
  await new Promise((resolve) => socket.close(resolve));
  return port;
}

test("a Watch connection that silently stops forwarding is replaced: the handler catches up within watchTimeoutMs + 5 s", async (t) => {
  const registry = await startFakeRegistry();
  registry.setDocument("m.badoo.com", "aasa", aasaFor("/u/*"));
  const proxy = await startStallingProxy(new URL(registry.url).port);
  const watchTimeoutMs = 1500;
  const handler = aasaHandler({
    server: proxy.url, hosts: ["m.badoo.com"], kinds: ["aasa"],
    refresh: { watchTimeoutMs, minBackoffMs: 10, maxBackoffMs: 100 }, onError: () => {},
  });
  try {
    await handler.ready({ timeoutMs: 5000 });
    await eventually(() => registry.openWatches === 1, "the long poll to be open");
    proxy.stall();
    const changed = registry.setDocument("m.badoo.com", "aasa", aasaFor("/l/a/*"));
    const started = Date.now();
    await eventually(async () => (await get(handler, "m.badoo.com")).headers.etag === `"${changed}"`,
      "the handler to serve the new revision", watchTimeoutMs + 5000);
    const elapsed = Date.now() - started;
    assert.ok(elapsed <= watchTimeoutMs + 5000, `caught up after ${elapsed} ms`);
    t.diagnostic(`caught up ${elapsed} ms after the change (watchTimeoutMs ${watchTimeoutMs})`);
    assert.ok(proxy.connections >= 2, "the handler opened a new connection past the stalled one");
  } finally {
    handler.close();
    await proxy.close();
    await registry.close();
  }
});

test("ready({ timeoutMs }) rejects with DEADLINE_EXCEEDED naming what is missing and why", async () => {
  const port = await closedPort();
  const handler = aasaHandler({ server: `http://127.0.0.1:${port}`, hosts: ["m.badoo.com"], kinds: ["aasa"], onError: () => {} });
  try {
    const started = Date.now();
    await assert.rejects(handler.ready({ timeoutMs: 300 }), (error) => {
      assert.ok(error instanceof RegistryError);
      assert.equal(error.code, Status.DEADLINE_EXCEEDED);
      assert.match(error.message, /aasa m\.badoo\.com/);
      assert.match(error.message, /unreachable|UNAVAILABLE/i);
      return true;
    });
    assert.ok(Date.now() - started < 5000); // without the timeout it would never settle
  } finally {
    handler.close();
  }
});

test("ready() rejects with CANCELLED when the handler is closed first", async () => {
  const port = await closedPort();
  const handler = aasaHandler({ server: `http://127.0.0.1:${port}`, hosts: ["m.badoo.com"], onError: () => {} });
  const ready = handler.ready();
  handler.close();
  await assert.rejects(ready, (error) => error instanceof RegistryError && error.code === Status.CANCELLED);
  await assert.rejects(handler.ready(), (error) => error.code === Status.CANCELLED);
});

test("a startup document is served while the registry is down, then replaced by the registry's", async () => {
  const port = await closedPort();
  const lastKnown = aasaFor("/u/*");
  const down = aasaHandler({
    server: `http://127.0.0.1:${port}`, hosts: ["m.badoo.com"], kinds: ["aasa"], onError: () => {},
    startup: [{ host: "M.badoo.com", document: lastKnown }],
  });
  try {
    const first = await get(down, "m.badoo.com");
    assert.equal(first.status, 200);
    assert.deepEqual(JSON.parse(first.body), lastKnown);
    assert.match(first.headers.etag, /^W\/"startup-/);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal((await get(down, "m.badoo.com")).status, 200, "still served while the registry stays down");
  } finally {
    down.close();
  }

  const registry = await startFakeRegistry();
  const current = aasaFor("/l/a/*");
  const etag = registry.setDocument("m.badoo.com", "aasa", current);
  const updates = [];
  const up = aasaHandler({
    server: registry.url, hosts: ["m.badoo.com"], kinds: ["aasa"], onUpdate: (u) => updates.push(u),
    startup: [{ host: "m.badoo.com", document: lastKnown, etag: "old-etag" }],
  });
  try {
    assert.equal((await get(up, "m.badoo.com")).headers.etag, `"old-etag"`);
    await up.ready({ timeoutMs: 5000 });
    const now = await get(up, "m.badoo.com");
    assert.equal(now.headers.etag, `"${etag}"`);
    assert.deepEqual(JSON.parse(now.body), current);
    assert.deepEqual(updates[0].document, current, "onUpdate hands over the document to save for the next start");
  } finally {
    up.close();
    await registry.close();
  }
});

test("an older revision (a lagging server behind a load balancer) never replaces the one served", async () => {
  const newer = { etag: "e5", revision: 5, document: aasaFor("/new/*") };
  const older = { etag: "e4", revision: 4, document: aasaFor("/old/*") };
  let watches = 0;
  const client = {
    associationsGet: async () => ({ host: "m.badoo.com", ...newer }),
    associationsWatch: async (params) => {
      watches += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return params.ifNoneMatch === "e5" && watches < 20 ? { ...older, notModified: false } : { etag: params.ifNoneMatch, notModified: true };
    },
  };
  const updates = [];
  const handler = aasaHandler({ client, hosts: ["m.badoo.com"], kinds: ["aasa"], refresh: { minBackoffMs: 5 }, onUpdate: (u) => updates.push(u.revision) });
  try {
    await handler.ready({ timeoutMs: 2000 });
    await eventually(() => watches >= 5, "the handler to be offered the older revision a few times");
    const served = await get(handler, "m.badoo.com");
    assert.equal(served.headers.etag, '"e5"');
    assert.deepEqual(JSON.parse(served.body), newer.document);
    assert.deepEqual(updates, [5]);
  } finally {
    handler.close();
  }
});
