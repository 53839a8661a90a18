// The RPC client's fromEnv, retries (only when repeating cannot apply a write twice, with one requestId per
// logical call) and pagination helpers.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { METHOD_INFO, RegistryError, RouteRegistryClient, Status } from "../dist/esm/index.js";
import { sendJSON, startServer } from "./support/rpcServer.mjs";

/** A server answering request n (1-based) with `reply(body, n)`: a JSON-RPC result/error object, or "drop". */
async function scripted(reply) {
  const seen = [];
  const server = await startServer((req, body, res) => {
    const request = JSON.parse(body);
    seen.push({ headers: req.headers, body: request });
    const answer = reply(request, seen.length);
    if (answer === "drop") return req.socket.destroy();
    sendJSON(res, { jsonrpc: "2.0", id: request.id, ...answer });
  });
  return { ...server, seen };
}

const unavailable = { error: { code: 14, message: "database unreachable", data: { status: "UNAVAILABLE" } } };
const fast = { minBackoffMs: 1, maxBackoffMs: 5 };

test("fromEnv reads ROUTEREG_SERVER and ROUTEREG_TOKEN; overrides win", async () => {
  const server = await scripted(() => ({ result: { apps: [] } }));
  try {
    const client = RouteRegistryClient.fromEnv({}, { ROUTEREG_SERVER: server.url, ROUTEREG_TOKEN: "from-env" });
    await client.appsList();
    assert.equal(server.seen[0].headers.authorization, "Bearer from-env");
    await RouteRegistryClient.fromEnv({ token: "override" }, { ROUTEREG_SERVER: server.url, ROUTEREG_TOKEN: "from-env" }).appsList();
    assert.equal(server.seen[1].headers.authorization, "Bearer override");
    process.env.ROUTEREG_SERVER = server.url;
    try {
      await RouteRegistryClient.fromEnv().appsList();
      assert.equal(server.seen.length, 3, "process.env is the default environment");
    } finally {
      delete process.env.ROUTEREG_SERVER;
    }
  } finally {
    await server.close();
  }
});

/** Writes `content` (JSON, or text as given) as `<dir>/routereg/config.json`, where the CLI looks under XDG_CONFIG_HOME. */
function writeConfig(dir, content) {
  const file = path.join(dir, "routereg", "config.json");
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content));
  return file;
}

test("fromEnv reads the routereg CLI's config file as the CLI does: the environment first, then the file", async () => {
  const server = await scripted(() => ({ result: { apps: [] } }));
  const dir = mkdtempSync(path.join(tmpdir(), "routereg-config-"));
  const tokens = async (env, overrides = {}) => {
    await RouteRegistryClient.fromEnv(overrides, env).appsList();
    return server.seen.at(-1).headers.authorization;
  };
  try {
    const file = writeConfig(path.join(dir, "xdg"), { server: server.url, token: "from-xdg" });
    assert.equal(await tokens({ XDG_CONFIG_HOME: path.join(dir, "xdg"), HOME: "/nonexistent" }), "Bearer from-xdg");
    writeConfig(path.join(dir, "home", ".config"), { server: server.url, token: "from-home" });
    assert.equal(await tokens({ HOME: path.join(dir, "home") }), "Bearer from-home", "~/.config/routereg/config.json");
    assert.equal(await tokens({ ROUTEREG_CONFIG: file, XDG_CONFIG_HOME: path.join(dir, "home", ".config") }), "Bearer from-xdg",
      "ROUTEREG_CONFIG names the file");
    assert.equal(await tokens({ ROUTEREG_CONFIG: file, ROUTEREG_TOKEN: "from-env" }), "Bearer from-env", "ROUTEREG_TOKEN wins over the file");
    assert.equal(await tokens({ ROUTEREG_CONFIG: file }, { token: "override" }), "Bearer override", "overrides win over both");

    // ROUTEREG_SERVER wins over the file's server: the file names a server nobody listens on.
    const elsewhere = writeConfig(path.join(dir, "elsewhere"), { server: "http://127.0.0.1:1", token: "t" });
    assert.equal(await tokens({ ROUTEREG_CONFIG: elsewhere, ROUTEREG_SERVER: server.url }), "Bearer t");
    const before = server.seen.length;
    await assert.rejects(RouteRegistryClient.fromEnv({ retries: 0 }, { ROUTEREG_CONFIG: elsewhere }).appsList(),
      (error) => error instanceof RegistryError && error.code === Status.UNAVAILABLE);
    assert.equal(server.seen.length, before, "without ROUTEREG_SERVER the call goes to the file's server");

    // Empty values count as unset, and no file at all is the default server without a token.
    const empty = writeConfig(path.join(dir, "empty"), { server: "", token: "" });
    assert.equal(await tokens({ ROUTEREG_CONFIG: empty, ROUTEREG_SERVER: server.url }), undefined);
    assert.equal(await tokens({ ROUTEREG_SERVER: server.url, HOME: path.join(dir, "nobody") }), undefined);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await server.close();
  }
});

test("fromEnv refuses a malformed config file, naming it", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "routereg-config-"));
  try {
    for (const content of ["{not json", "[]", JSON.stringify({ server: 8080 }), JSON.stringify({ token: ["x"] })]) {
      const file = writeConfig(dir, content);
      assert.throws(() => RouteRegistryClient.fromEnv({}, { ROUTEREG_CONFIG: file }),
        (error) => error instanceof Error && error.message.includes(file) && error.message.includes('{"server"'),
        `refuses ${content}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("reads are retried on UNAVAILABLE with backoff, up to `retries`", async () => {
  const server = await scripted((body, n) => (n < 3 ? unavailable : { result: { id: "badoo" } }));
  try {
    const client = new RouteRegistryClient({ server: server.url, retries: 2, ...fast });
    assert.deepEqual(await client.appsGet({ app: "badoo" }), { id: "badoo" });
    assert.equal(server.seen.length, 3);
    const never = await scripted(() => unavailable);
    try {
      await assert.rejects(new RouteRegistryClient({ server: never.url, retries: 2, ...fast }).appsGet({ app: "x" }),
        (e) => e instanceof RegistryError && e.code === Status.UNAVAILABLE);
      assert.equal(never.seen.length, 3);
    } finally {
      await never.close();
    }
  } finally {
    await server.close();
  }
});

test("a write without requestId is sent once; other statuses are never retried", async () => {
  const info = METHOD_INFO["Releases.Publish"];
  const saved = info.requestId;
  info.requestId = false;
  const server = await scripted(() => unavailable);
  try {
    const client = new RouteRegistryClient({ server: server.url, retries: 3, ...fast });
    await assert.rejects(client.releasesPublish({ app: "badoo", platform: "ios", version: "5.12.0" }), (e) => e.code === Status.UNAVAILABLE);
    assert.equal(server.seen.length, 1);
    assert.equal(server.seen[0].body.params.requestId, undefined);
  } finally {
    info.requestId = saved;
    await server.close();
  }
  const notFound = await scripted(() => ({ error: { code: 5, message: "no", data: { status: "NOT_FOUND" } } }));
  try {
    await assert.rejects(new RouteRegistryClient({ server: notFound.url, retries: 3, ...fast }).appsGet({ app: "x" }), (e) => e.code === Status.NOT_FOUND);
    assert.equal(notFound.seen.length, 1);
  } finally {
    await notFound.close();
  }
});

test("a write that takes requestId is retried, even after a dropped connection, with the same id; the next call gets a new one", async () => {
  // Every write gains a requestId param as the server learns it; the table says which already have one.
  const info = METHOD_INFO["Releases.Publish"];
  const saved = info.requestId;
  info.requestId = true;
  const server = await scripted((body, n) => (n === 1 ? unavailable : n === 2 ? "drop" : { result: { release: { state: "live" } } }));
  try {
    const client = new RouteRegistryClient({ server: server.url, retries: 3, ...fast });
    await client.releasesPublish({ app: "badoo", platform: "ios", version: "5.12.0" });
    await client.releasesPublish({ app: "badoo", platform: "ios", version: "5.13.0" });
    const ids = server.seen.map((r) => r.body.params.requestId);
    assert.equal(ids.length, 4);
    assert.ok(typeof ids[0] === "string" && ids[0].length >= 16);
    assert.equal(new Set(ids.slice(0, 3)).size, 1, "every attempt of one call carries the same id");
    assert.notEqual(ids[3], ids[0], "another call, another id");
  } finally {
    info.requestId = saved;
    await server.close();
  }
});

test("a write whose connection is refused is retried (nothing was sent)", async () => {
  const gone = await scripted(() => ({ result: {} }));
  await gone.close();
  const attempts = [];
  const fetchSpy = (url, init) => { attempts.push(init.body); return fetch(url, init); };
  const client = new RouteRegistryClient({ server: gone.url, retries: 2, fetch: fetchSpy, ...fast });
  await assert.rejects(client.appsCreate({ app: { id: "x" } }), (e) => e.code === Status.UNAVAILABLE);
  assert.equal(attempts.length, 3);
});

test("the call's deadline bounds its retries", async () => {
  const server = await scripted(() => unavailable);
  try {
    const client = new RouteRegistryClient({ server: server.url, retries: 1000, minBackoffMs: 20, maxBackoffMs: 20 });
    const started = Date.now();
    // The last attempt's error, or the deadline itself when it ran out during an attempt (a loaded machine).
    await assert.rejects(client.appsGet({ app: "x" }, { timeoutMs: 300 }), (e) => [Status.UNAVAILABLE, Status.DEADLINE_EXCEEDED].includes(e.code));
    assert.ok(Date.now() - started < 3000); // 1000 retries 20 ms apart would take 20 s
    assert.ok(server.seen.length >= 1 && server.seen.length < 100);
  } finally {
    await server.close();
  }
});

test("pages() and items() follow nextPageToken; a repeated token is an error", async () => {
  const pages = { "": [["a", "b"], "t1"], t1: [["c"], "t2"], t2: [["d"], ""] };
  const server = await scripted((body) => {
    const [ids, next] = pages[body.params.pageToken ?? ""];
    return { result: { routes: ids.map((id) => ({ id })), nextPageToken: next } };
  });
  try {
    const client = new RouteRegistryClient({ server: server.url });
    const ids = [];
    for await (const route of client.items("Routes.List", { app: "badoo", pageSize: 2 })) ids.push(route.id);
    assert.deepEqual(ids, ["a", "b", "c", "d"]);
    assert.deepEqual(server.seen.map((r) => r.body.params), [
      { app: "badoo", pageSize: 2 }, { app: "badoo", pageSize: 2, pageToken: "t1" }, { app: "badoo", pageSize: 2, pageToken: "t2" },
    ]);
    let count = 0;
    for await (const page of client.pages("Routes.List", { app: "badoo" })) count += page.routes.length;
    assert.equal(count, 4);
  } finally {
    await server.close();
  }
  const loop = await scripted(() => ({ result: { entries: [{}], nextPageToken: "same" } }));
  try {
    const client = new RouteRegistryClient({ server: loop.url });
    await assert.rejects(async () => { for await (const _ of client.items("Audit.List")) void _; }, /twice/);
  } finally {
    await loop.close();
  }
});
