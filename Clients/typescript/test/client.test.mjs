import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { ProtocolError, RegistryError, RouteRegistryClient, Status, clientMethodName } from "../dist/esm/index.js";
import { openRPCFile } from "./support/paths.mjs";
import { sendJSON, startServer } from "./support/rpcServer.mjs";

test("the client's methods are exactly those of Schema/registry.openrpc.json", () => {
  assert.ok(existsSync(openRPCFile), `${openRPCFile} exists`);
  const documented = JSON.parse(readFileSync(openRPCFile, "utf8")).methods.map((m) => m.name);
  assert.deepEqual([...RouteRegistryClient.methods].sort(), [...documented].sort());
  const client = new RouteRegistryClient({ server: "http://127.0.0.1:1" });
  for (const name of documented) {
    assert.equal(typeof client[clientMethodName(name)], "function", `${name} has a client method`);
  }
});

test("client method names are the wire names in camelCase", () => {
  assert.equal(clientMethodName("Apps.Create"), "appsCreate");
  assert.equal(clientMethodName("Routes.SwitchOff"), "routesSwitchOff");
  assert.equal(clientMethodName("CanOpen.Check"), "canOpenCheck");
  assert.equal(clientMethodName("Associations.ListRevisions"), "associationsListRevisions");
  assert.equal(clientMethodName("rpc.discover"), "rpcDiscover");
});

/** A server that records each request and answers with `reply(request)` (an object sent as JSON). */
async function scripted(reply) {
  const seen = [];
  const server = await startServer((req, body, res) => {
    const request = { headers: req.headers, url: req.url, httpMethod: req.method, body: JSON.parse(body) };
    seen.push(request);
    const answer = reply(request);
    if (answer === undefined) return; // never answer
    if (typeof answer === "string") {
      res.writeHead(503, { "Content-Type": "text/html" });
      return res.end(answer);
    }
    sendJSON(res, { jsonrpc: "2.0", id: request.body.id, ...answer });
  });
  return { ...server, seen };
}

test("a call posts a JSON-RPC 2.0 request to /rpc with the bearer token and returns the result", async () => {
  const server = await scripted(({ body }) => ({ result: { decision: "open_in_app", reason: "route", route: body.params.url } }));
  try {
    const client = new RouteRegistryClient({ server: server.url + "/", token: "s3cret" });
    const params = { app: "badoo", platform: "ios", version: "5.12.0", url: "https://m.badoo.com/l/a/42" };
    const decision = await client.canOpenCheck(params);
    assert.deepEqual(decision, { decision: "open_in_app", reason: "route", route: params.url });
    const [request] = server.seen;
    assert.equal(request.httpMethod, "POST");
    assert.equal(request.url, "/rpc");
    assert.equal(request.headers.authorization, "Bearer s3cret");
    assert.match(request.headers["content-type"], /^application\/json/);
    assert.equal(request.body.jsonrpc, "2.0");
    assert.equal(request.body.method, "CanOpen.Check");
    assert.deepEqual(request.body.params, params);
    assert.ok(request.body.id !== undefined && request.body.id !== null);
  } finally {
    await server.close();
  }
});

test("no token means no Authorization header; rpc.discover sends no params; list calls send {}", async () => {
  const server = await scripted(() => ({ result: { openrpc: "1.3.2", info: {}, methods: [] } }));
  try {
    const client = new RouteRegistryClient({ server: server.url });
    await client.rpcDiscover();
    await client.appsList();
    assert.equal(server.seen[0].headers.authorization, undefined);
    assert.equal("params" in server.seen[0].body, false);
    assert.deepEqual(server.seen[1].body.params, {});
  } finally {
    await server.close();
  }
});

test("an application error rejects with RegistryError carrying code, status and details", async () => {
  const server = await scripted(() => ({
    error: {
      code: 3,
      message: "route.pattern.path: must start with /",
      data: { status: "INVALID_ARGUMENT", details: [{ field: "route.pattern.path", description: "must start with /" }] },
    },
  }));
  try {
    const client = new RouteRegistryClient({ server: server.url, token: "t" });
    const error = await client.routesCreate({ app: "badoo", route: { id: "x", pattern: { path: "x" } } }).then(
      () => assert.fail("expected a rejection"),
      (e) => e,
    );
    assert.ok(error instanceof RegistryError);
    assert.ok(error instanceof Error);
    assert.equal(error.name, "RegistryError");
    assert.equal(error.code, Status.INVALID_ARGUMENT);
    assert.equal(error.status, "INVALID_ARGUMENT");
    assert.equal(error.message, "route.pattern.path: must start with /");
    assert.deepEqual(error.details, [{ field: "route.pattern.path", description: "must start with /" }]);
    assert.equal(error.method, "Routes.Create");
  } finally {
    await server.close();
  }
});

test("the status name comes from the code when the server sends no data; unknown codes stay numbers", async () => {
  const codes = [10, 42];
  const server = await scripted(() => ({ error: { code: codes.shift(), message: "m" } }));
  try {
    const client = new RouteRegistryClient({ server: server.url });
    await assert.rejects(client.appsGet({ app: "a" }), (e) => e instanceof RegistryError && e.code === 10 && e.status === "ABORTED" && e.details.length === 0);
    await assert.rejects(client.appsGet({ app: "a" }), (e) => e instanceof RegistryError && e.code === 42 && e.status === "UNKNOWN");
  } finally {
    await server.close();
  }
});

test("protocol errors reject with ProtocolError, not RegistryError", async () => {
  const server = await scripted(() => ({ error: { code: -32601, message: "Method not found", data: { method: "Nope" } } }));
  try {
    const client = new RouteRegistryClient({ server: server.url });
    const error = await client.call("Apps.Get", { app: "a" }).catch((e) => e);
    assert.ok(error instanceof ProtocolError);
    assert.ok(!(error instanceof RegistryError));
    assert.equal(error.code, -32601);
    assert.deepEqual(error.data, { method: "Nope" });
    assert.equal(error.name, "ProtocolError");
  } finally {
    await server.close();
  }
});

test("undecodable params (-32602 naming INVALID_ARGUMENT) reject with RegistryError like any other bad input", async () => {
  // What the registry answers for Releases.Publish with version "five": caught by the same `instanceof
  // RegistryError` and `Status.INVALID_ARGUMENT` as a bad route id, with the field at fault in details.
  const violation = [{ field: "version", description: "must be 1 to 4 dot-separated numbers" }];
  const server = await scripted(() => ({
    error: { code: -32602, message: "Invalid params: version: must be 1 to 4 dot-separated numbers", data: { status: "INVALID_ARGUMENT", details: violation } },
  }));
  try {
    const client = new RouteRegistryClient({ server: server.url });
    const error = await client.releasesPublish({ app: "badoo", platform: "ios", version: "five" }).catch((e) => e);
    assert.ok(error instanceof RegistryError, `${error}`);
    assert.deepEqual([error.code, error.status, error.jsonrpcCode, error.details, error.method],
      [Status.INVALID_ARGUMENT, "INVALID_ARGUMENT", -32602, violation, "Releases.Publish"]);
    assert.match(error.message, /version/);
  } finally {
    await server.close();
  }
});

test("an unreachable registry is UNAVAILABLE; a non-JSON 503 too", async () => {
  const gone = await scripted(() => ({ result: {} }));
  await gone.close();
  const client = new RouteRegistryClient({ server: gone.url });
  await assert.rejects(client.appsList(), (e) => e instanceof RegistryError && e.code === Status.UNAVAILABLE && e.status === "UNAVAILABLE");

  const proxy = await scripted(() => "<html>bad gateway</html>");
  try {
    const viaProxy = new RouteRegistryClient({ server: proxy.url });
    await assert.rejects(viaProxy.appsList(), (e) => e instanceof RegistryError && e.code === Status.UNAVAILABLE);
  } finally {
    await proxy.close();
  }
});

test("a deadline is sent as X-Request-Timeout-Ms and enforced locally as DEADLINE_EXCEEDED", async () => {
  const server = await scripted(() => undefined);
  try {
    const client = new RouteRegistryClient({ server: server.url });
    await assert.rejects(client.appsList({}, { timeoutMs: 50 }), (e) => e instanceof RegistryError && e.code === Status.DEADLINE_EXCEEDED);
    assert.equal(server.seen[0].headers["x-request-timeout-ms"], "50");
  } finally {
    await server.close();
  }
});

test("aborting the signal cancels the call with CANCELLED", async () => {
  const server = await scripted(() => undefined);
  try {
    const client = new RouteRegistryClient({ server: server.url });
    const controller = new AbortController();
    const call = client.associationsWatch({ host: "m.badoo.com", ifNoneMatch: "x" }, { signal: controller.signal });
    controller.abort();
    await assert.rejects(call, (e) => e instanceof RegistryError && e.code === Status.CANCELLED);
  } finally {
    await server.close();
  }
});

test("a custom fetch is used instead of the global one", async () => {
  const requests = [];
  const fakeFetch = async (url, init) => {
    requests.push({ url, init });
    return { ok: true, status: 200, statusText: "OK", text: async () => JSON.stringify({ jsonrpc: "2.0", id: 1, result: { tokens: [] } }) };
  };
  const client = new RouteRegistryClient({ server: "http://registry.invalid:8080/rpc", fetch: fakeFetch });
  assert.deepEqual(await client.tokensList({ pageSize: 5 }), { tokens: [] });
  assert.equal(requests[0].url, "http://registry.invalid:8080/rpc");
  assert.deepEqual(JSON.parse(requests[0].init.body).params, { pageSize: 5 });
});
