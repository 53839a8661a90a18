// The handler inside Express and Fastify, driven with hand-made request/response objects that have those
// frameworks' real shapes (no framework is installed here): Express trims a mount path from `req.url` and
// keeps the full one in `req.originalUrl`; Fastify routes get `(request, reply)` with `reply.code/header/send`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { aasaHandler } from "../dist/esm/index.js";
import { startFakeRegistry } from "./support/rpcServer.mjs";

const AASA = { applinks: { details: [{ appIDs: ["ABCDE12345.com.badoo.Badoo"], components: [{ "/": "/u/*" }] }] } };
const ASSETLINKS = [{ relation: ["delegate_permission/common.handle_all_urls"], target: { namespace: "android_app", package_name: "com.badoo.mobile", sha256_cert_fingerprints: ["AA:BB"] } }];

async function setup() {
  const registry = await startFakeRegistry();
  const etag = registry.setDocument("m.badoo.com", "assetlinks", ASSETLINKS);
  registry.setDocument("m.badoo.com", "aasa", AASA);
  const handler = aasaHandler({ server: registry.url, hosts: ["m.badoo.com"], refresh: false });
  await handler.ready({ timeoutMs: 5000 });
  return { registry, handler, etag, close: async () => { handler.close(); await registry.close(); } };
}

/** What Express does for `app.use(mount, middleware)`: strip the mount path from req.url, keep originalUrl. */
function expressUse(mount, middleware) {
  return (req, res, next) => {
    if (!req.url.startsWith(mount)) return next();
    req.originalUrl = req.originalUrl ?? req.url;
    req.baseUrl = mount;
    req.url = req.url.slice(mount.length) || "/";
    middleware(req, res, next);
  };
}

function expressResponse() {
  const res = { statusCode: 200, headers: {}, body: undefined, finished: false };
  res.setHeader = (name, value) => { res.headers[name.toLowerCase()] = value; return res; };
  res.end = (body) => { res.body = body; res.finished = true; return res; };
  return res;
}

test("Express: app.use('/.well-known', aasa) serves assetlinks.json and the AASA instead of falling through", async () => {
  const t = await setup();
  try {
    const app = expressUse("/.well-known", t.handler);
    for (const [path, expected] of [["/.well-known/assetlinks.json", ASSETLINKS], ["/.well-known/apple-app-site-association", AASA]]) {
      const res = expressResponse();
      let fellThrough = false;
      app({ method: "GET", url: path, headers: { host: "m.badoo.com" } }, res, () => { fellThrough = true; });
      assert.equal(fellThrough, false, `${path} fell through to next()`);
      assert.equal(res.statusCode, 200);
      assert.deepEqual(JSON.parse(res.body), expected);
    }
    const other = expressResponse();
    let next = false;
    app({ method: "GET", url: "/.well-known/security.txt", headers: { host: "m.badoo.com" } }, other, () => { next = true; });
    assert.equal(next, true, "other well-known files go on to the next middleware");
  } finally {
    await t.close();
  }
});

/** A Fastify instance that records `all(path, handler)` routes, and a reply with Fastify's chainable API. */
function fastifyInstance() {
  const routes = new Map();
  return { routes, all: (path, handler) => { routes.set(path, handler); } };
}

function fastifyReply() {
  const reply = { statusCode: 200, headers: {}, payload: undefined, sent: false };
  reply.code = (status) => { reply.statusCode = status; return reply; };
  reply.header = (name, value) => { reply.headers[name.toLowerCase()] = value; return reply; };
  reply.send = (payload) => { reply.payload = payload; reply.sent = true; return reply; };
  return reply;
}

test("Fastify: fastify.register(aasa.fastify) routes the three paths through the reply API", async () => {
  const t = await setup();
  try {
    const fastify = fastifyInstance();
    let done = false;
    t.handler.fastify(fastify, {}, (error) => { assert.equal(error, undefined); done = true; });
    assert.ok(done, "the plugin calls done()");
    assert.deepEqual([...fastify.routes.keys()].sort(), ["/.well-known/apple-app-site-association", "/.well-known/assetlinks.json", "/apple-app-site-association"]);

    const route = fastify.routes.get("/.well-known/assetlinks.json");
    const request = { method: "GET", url: "/.well-known/assetlinks.json?x=1", headers: { host: "m.badoo.com" } };
    const ok = fastifyReply();
    assert.equal(route(request, ok), ok, "the handler returns the reply, as Fastify expects of a sync handler that sent");
    assert.equal(ok.statusCode, 200);
    assert.equal(ok.headers["content-type"], "application/json");
    assert.equal(ok.headers.etag, `"${t.etag}"`);
    assert.deepEqual(JSON.parse(ok.payload), ASSETLINKS);

    const cached = fastifyReply();
    route({ ...request, headers: { host: "m.badoo.com", "if-none-match": `"${t.etag}"` } }, cached);
    assert.equal(cached.statusCode, 304);
    assert.equal(cached.payload, "");

    const head = fastifyReply();
    route({ ...request, method: "HEAD" }, head);
    assert.equal(head.statusCode, 200);
    assert.equal(head.payload, "");
    assert.equal(head.headers["content-length"], String(Buffer.byteLength(ok.payload)));

    const post = fastifyReply();
    route({ ...request, method: "POST" }, post);
    assert.equal(post.statusCode, 405);
    assert.equal(post.headers.allow, "GET, HEAD");

    const stranger = fastifyReply();
    route({ ...request, headers: { host: "evil.example" } }, stranger);
    assert.equal(stranger.statusCode, 404);
  } finally {
    await t.close();
  }
});

test("Fastify: only the kinds served get routes", async () => {
  const registry = await startFakeRegistry();
  registry.setDocument("m.badoo.com", "aasa", AASA);
  const handler = aasaHandler({ server: registry.url, hosts: ["m.badoo.com"], kinds: ["aasa"], refresh: false });
  try {
    const fastify = fastifyInstance();
    handler.fastify(fastify, {}, () => {});
    assert.equal(fastify.routes.has("/.well-known/assetlinks.json"), false);
    assert.equal(fastify.routes.size, 2);
  } finally {
    handler.close();
    await registry.close();
  }
});
