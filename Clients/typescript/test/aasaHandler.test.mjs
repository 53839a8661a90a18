import { test } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { createHash } from "node:crypto";
import { aasaHandler, canonicalJSON } from "../dist/esm/index.js";
import { eventually, request, startFakeRegistry, startServer } from "./support/rpcServer.mjs";

const aasaFor = (app, path) => ({ applinks: { details: [{ appIDs: [app], components: [{ "/": path }] }] } });
const ASSETLINKS = [{ relation: ["delegate_permission/common.handle_all_urls"], target: { namespace: "android_app", package_name: "com.badoo.mobile", sha256_cert_fingerprints: ["AA:BB"] } }];

/** Serves `handler` on a loopback port, with a `next` that answers 299 so tests can see it was called. */
async function serve(handler) {
  const server = http.createServer((req, res) =>
    handler(req, res, () => {
      res.statusCode = 299;
      res.end("next");
    }),
  );
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: server.address().port,
    close: () => new Promise((resolve) => { server.close(() => resolve()); server.closeAllConnections(); }),
  };
}

async function setup({ assetlinks = true } = {}) {
  const registry = await startFakeRegistry();
  const etags = {
    main: registry.setDocument("badoo.com", "aasa", aasaFor("ABCDE12345.com.badoo.Badoo", "/u/*")),
    mobile: registry.setDocument("m.badoo.com", "aasa", aasaFor("ABCDE12345.com.badoo.Badoo", "/l/a/*")),
  };
  if (assetlinks) etags.assetlinks = registry.setDocument("m.badoo.com", "assetlinks", ASSETLINKS);
  const updates = [];
  const errors = [];
  const handler = aasaHandler({
    server: registry.url,
    hosts: ["badoo.com", "M.Badoo.com"],
    refresh: { watchTimeoutMs: 5000, minBackoffMs: 10, maxBackoffMs: 50 },
    onUpdate: (u) => updates.push(u),
    onError: (e, context) => errors.push({ e, context }),
  });
  const web = await serve(handler);
  const cleanup = async () => {
    handler.close();
    await web.close();
    await registry.close();
  };
  return { registry, etags, handler, web, updates, errors, cleanup };
}

test("serves each host's AASA from memory, on both paths, with ETag and Content-Type", async () => {
  const t = await setup();
  try {
    await t.handler.ready();
    for (const path of ["/.well-known/apple-app-site-association", "/apple-app-site-association"]) {
      const mobile = await request(t.web.port, path, { headers: { host: "m.badoo.com:8443" } });
      assert.equal(mobile.status, 200);
      assert.equal(mobile.headers["content-type"], "application/json");
      assert.equal(mobile.headers.etag, `"${t.etags.mobile}"`);
      assert.equal(mobile.headers["cache-control"], "public, max-age=300");
      assert.equal(mobile.headers.location, undefined);
      assert.deepEqual(JSON.parse(mobile.body), aasaFor("ABCDE12345.com.badoo.Badoo", "/l/a/*"));
    }
    const main = await request(t.web.port, "/.well-known/apple-app-site-association?x=1", { headers: { host: "BADOO.COM" } });
    assert.equal(main.status, 200);
    assert.deepEqual(JSON.parse(main.body), aasaFor("ABCDE12345.com.badoo.Badoo", "/u/*"));
    assert.equal(Number(main.headers["content-length"]), Buffer.byteLength(main.body));
    // The bytes are the registry's canonical form, so the ETag is their hash, as the registry computes it.
    assert.equal(main.headers.etag, `"${createHash("sha256").update(main.body).digest("hex")}"`);

    const links = await request(t.web.port, "/.well-known/assetlinks.json", { headers: { host: "m.badoo.com" } });
    assert.equal(links.status, 200);
    assert.deepEqual(JSON.parse(links.body), ASSETLINKS);
  } finally {
    await t.cleanup();
  }
});

test("If-None-Match with the current ETag gets 304 without a body; HEAD gets headers only", async () => {
  const t = await setup();
  try {
    await t.handler.ready();
    const path = "/.well-known/apple-app-site-association";
    const cached = await request(t.web.port, path, { headers: { host: "m.badoo.com", "if-none-match": `"other", W/"${t.etags.mobile}"` } });
    assert.equal(cached.status, 304);
    assert.equal(cached.body, "");
    assert.equal(cached.headers.etag, `"${t.etags.mobile}"`);
    const stale = await request(t.web.port, path, { headers: { host: "m.badoo.com", "if-none-match": `"${t.etags.main}"` } });
    assert.equal(stale.status, 200);
    const head = await request(t.web.port, path, { method: "HEAD", headers: { host: "m.badoo.com" } });
    assert.equal(head.status, 200);
    assert.equal(head.body, "");
    assert.equal(head.headers.etag, `"${t.etags.mobile}"`);
  } finally {
    await t.cleanup();
  }
});

test("unknown hosts and missing documents get 404, other paths go to next(), other methods 405", async () => {
  const t = await setup({ assetlinks: false });
  try {
    await t.handler.ready();
    const unknown = await request(t.web.port, "/.well-known/apple-app-site-association", { headers: { host: "evil.test" } });
    assert.equal(unknown.status, 404);
    const noAndroid = await request(t.web.port, "/.well-known/assetlinks.json", { headers: { host: "m.badoo.com" } });
    assert.equal(noAndroid.status, 404);
    const other = await request(t.web.port, "/index.html", { headers: { host: "m.badoo.com" } });
    assert.equal(other.status, 299);
    const post = await request(t.web.port, "/apple-app-site-association", { method: "POST", headers: { host: "m.badoo.com" } });
    assert.equal(post.status, 405);
    assert.equal(post.headers.allow, "GET, HEAD");
  } finally {
    await t.cleanup();
  }
});

test("a new revision reaches the handler through Associations.Watch", async () => {
  const t = await setup();
  try {
    await t.handler.ready();
    await eventually(() => t.registry.openWatches >= 3, "the handler to long-poll every document");
    const changed = aasaFor("ABCDE12345.com.badoo.Badoo", "/l/b/*");
    const etag = t.registry.setDocument("m.badoo.com", "aasa", changed);
    await eventually(() => t.updates.some((u) => u.etag === etag), "the new revision to arrive");
    assert.deepEqual(t.updates.find((u) => u.etag === etag), { host: "m.badoo.com", kind: "aasa", revision: 2, etag, document: changed });
    const now = await request(t.web.port, "/.well-known/apple-app-site-association", { headers: { host: "m.badoo.com", "if-none-match": `"${t.etags.mobile}"` } });
    assert.equal(now.status, 200);
    assert.equal(now.headers.etag, `"${etag}"`);
    assert.deepEqual(JSON.parse(now.body), changed);
    assert.ok(t.registry.calls.includes("Associations.Watch"));
    // The other host's document is untouched.
    const main = await request(t.web.port, "/.well-known/apple-app-site-association", { headers: { host: "badoo.com" } });
    assert.equal(main.headers.etag, `"${t.etags.main}"`);
  } finally {
    await t.cleanup();
  }
});

test("keeps serving the last good document after the registry is gone", async () => {
  const t = await setup();
  try {
    await t.handler.ready();
    await t.registry.close();
    const mobileErrors = () => t.errors.filter(({ context }) => context.host === "m.badoo.com").map(({ e }) => e);
    await eventually(() => mobileErrors().length >= 2, "the watchers to notice the registry is gone");
    const mobile = await request(t.web.port, "/.well-known/apple-app-site-association", { headers: { host: "m.badoo.com" } });
    assert.equal(mobile.status, 200);
    assert.equal(mobile.headers.etag, `"${t.etags.mobile}"`);
    assert.deepEqual(JSON.parse(mobile.body), aasaFor("ABCDE12345.com.badoo.Badoo", "/l/a/*"));
    const links = await request(t.web.port, "/.well-known/assetlinks.json", { headers: { host: "m.badoo.com" } });
    assert.equal(links.status, 200);
    assert.deepEqual(mobileErrors().map((e) => e.status), mobileErrors().map(() => "UNAVAILABLE"));
  } finally {
    await t.cleanup();
  }
});

test("before the first document arrives a known host gets 503 with Retry-After", async () => {
  const gone = await startServer(() => {});
  await gone.close();
  const errors = [];
  const handler = aasaHandler({ server: gone.url, hosts: ["m.badoo.com"], kinds: ["aasa"], refresh: { minBackoffMs: 10, maxBackoffMs: 20 }, onError: (e) => errors.push(e) });
  const web = await serve(handler);
  try {
    await eventually(() => errors.length >= 1, "the first fetch to fail");
    const early = await request(web.port, "/.well-known/apple-app-site-association", { headers: { host: "m.badoo.com" } });
    assert.equal(early.status, 503);
    assert.equal(early.headers["retry-after"], "5");
    const assetlinks = await request(web.port, "/.well-known/assetlinks.json", { headers: { host: "m.badoo.com" } });
    assert.equal(assetlinks.status, 299, "a kind that is not served falls through to next()");
  } finally {
    handler.close();
    await web.close();
  }
});

test("close() ends the long polls", async () => {
  const t = await setup();
  try {
    await t.handler.ready();
    await eventually(() => t.registry.openWatches >= 3, "the long polls to start");
    t.handler.close();
    await eventually(() => t.registry.openWatches === 0, "the long polls to be dropped");
    const calls = t.registry.calls.length;
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(t.registry.calls.length, calls, "no calls after close()");
    const still = await request(t.web.port, "/.well-known/apple-app-site-association", { headers: { host: "m.badoo.com" } });
    assert.equal(still.status, 200);
  } finally {
    await t.cleanup();
  }
});

test("refresh: false fetches once and never watches", async () => {
  const registry = await startFakeRegistry();
  registry.setDocument("m.badoo.com", "aasa", aasaFor("A.b", "/x"));
  const handler = aasaHandler({ server: registry.url, hosts: ["m.badoo.com"], kinds: ["aasa"], refresh: false });
  try {
    await handler.ready();
    assert.deepEqual(registry.calls, ["Associations.Get"]);
  } finally {
    handler.close();
    await registry.close();
  }
});

test("canonicalJSON sorts keys at every level and writes compact JSON", () => {
  const value = { b: 1, a: { z: [{ y: 1, x: "/u/*" }], "?": { ul_fallback: "?*" } }, "#": null };
  assert.equal(canonicalJSON(value), '{"#":null,"a":{"?":{"ul_fallback":"?*"},"z":[{"x":"/u/*","y":1}]},"b":1}');
});
