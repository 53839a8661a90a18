// End to end against the real registry: ROUTEREG_BIN (the routereg executable) is started with
// `serve --listen 127.0.0.1:0`, ARCHITECTURE.md "The reference scenario" is driven through the TypeScript client, and
// aasaHandler serves the AASA that the scenario produced, follows its revisions, and keeps serving it
// after the registry is stopped. The server uses DATABASE_URL when set, else an embedded cluster in a
// temporary directory. `npm test` runs this file only when ROUTEREG_BIN is set.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import http from "node:http";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { RegistryError, RouteRegistryClient, aasaHandler, evaluate } from "../dist/esm/index.js";
import { eventually, request } from "./support/rpcServer.mjs";
import { packageDir } from "./support/paths.mjs";

const BIN = process.env.ROUTEREG_BIN;
if (!BIN) throw new Error("test/server.test.mjs needs ROUTEREG_BIN (the routereg executable); `npm test` leaves it out otherwise");

const APP_ID = "ABCDE12345.com.badoo.Badoo";
const AASA_PATH = "/.well-known/apple-app-site-association";

/** Starts the registry and resolves once it prints `listening on http://HOST:PORT`. */
async function startRegistry() {
  const adminToken = process.env.ROUTEREG_ADMIN_TOKEN ?? `ts-admin-${randomBytes(12).toString("hex")}`;
  const args = ["serve", "--listen", "127.0.0.1:0", "--no-delivery-watch"];
  let dataDir;
  if (!process.env.DATABASE_URL) {
    dataDir = mkdtempSync(path.join(tmpdir(), "routereg-ts-"));
    // As root the embedded cluster runs as `postgres`, which must reach the data directory (mkdtemp makes 0700).
    chmodSync(dataDir, 0o711);
    args.push("--data-dir", dataDir);
  }
  const child = spawn(BIN, args, {
    env: { ...process.env, ROUTEREG_ADMIN_TOKEN: adminToken },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  const listening = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`routereg did not say where it listens within 120 s:\n${output}`)), 120000);
    const scan = (chunk) => {
      output += chunk.toString("utf8");
      const found = /listening on (http:\/\/[^\s/]+)/.exec(output);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    };
    child.stdout.on("data", scan);
    child.stderr.on("data", (chunk) => (output += chunk.toString("utf8")));
    exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`routereg exited (${code ?? signal}) before listening:\n${output}`));
    });
  });
  let url;
  try {
    url = await listening;
  } catch (error) {
    child.kill("SIGTERM");
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 30000);
    await exited;
    clearTimeout(timer);
  };
  const cleanup = async () => {
    await stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  };
  return { url, adminToken, stop, cleanup, output: () => output };
}

/** GETs `path` from the registry's own HTTP endpoint for `host`. */
function registryGet(url, path, host) {
  const { port } = new URL(url);
  return request(Number(port), path, { headers: { host } });
}

async function serveHandler(handler) {
  const server = http.createServer((req, res) => handler(req, res));
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: server.address().port,
    close: () => new Promise((resolve) => { server.close(() => resolve()); server.closeAllConnections(); }),
  };
}

/** The README's examples (server.mjs, release.mjs), as written, in a project that has the package installed (linked). */
function readmeExamples() {
  const readme = readFileSync(path.join(packageDir, "README.md"), "utf8");
  const dir = mkdtempSync(path.join(tmpdir(), "routereg-readme-"));
  mkdirSync(path.join(dir, "node_modules", "@routeregistry"), { recursive: true });
  symlinkSync(packageDir, path.join(dir, "node_modules", "@routeregistry", "client"), "dir");
  const names = [];
  for (const found of readme.matchAll(/<!-- example: ([\w.]+) -->\s*```js\n([\s\S]*?)```/g)) {
    writeFileSync(path.join(dir, found[1]), found[2]);
    names.push(found[1]);
  }
  assert.deepEqual(names.sort(), ["release.mjs", "server.mjs"], "README.md has the server and the release script examples");
  return dir;
}

/** Runs a README script to its end (killed after 60 s); resolves with its exit code and output. */
function runScript(dir, file, args, env) {
  const child = spawn(process.execPath, [file, ...args], { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const timer = setTimeout(() => child.kill("SIGKILL"), 60000);
  return new Promise((resolve) => child.once("close", (code, signal) => {
    clearTimeout(timer);
    resolve({ code: code ?? signal, stdout, stderr });
  }));
}

/** Runs the example with `env`; resolves with its port once it says where it listens. */
async function startExample(dir, env) {
  const child = spawn(process.execPath, ["server.mjs"], { cwd: dir, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const started = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the README example did not start:\n${output}`)), 30000);
    child.stdout.on("data", (chunk) => {
      output += chunk;
      const found = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
      if (found) { clearTimeout(timer); resolve(Number(found[1])); }
    });
    child.stderr.on("data", (chunk) => (output += chunk));
    exited.then(() => { clearTimeout(timer); reject(new Error(`the README example exited:\n${output}`)); });
  });
  let port;
  try {
    port = await started;
  } catch (error) {
    child.kill("SIGKILL");
    throw error;
  }
  return {
    port,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

test("aasaHandler serves the AASA of the §6 scenario and keeps serving it with the registry stopped", async (t) => {
  const registry = await startRegistry();
  const updates = [];
  let handler;
  let web;
  let example;
  const exampleDir = readmeExamples();
  t.after(async () => {
    handler?.close();
    await web?.close();
    await example?.stop();
    rmSync(exampleDir, { recursive: true, force: true });
    await registry.cleanup();
  });

  const admin = new RouteRegistryClient({ server: registry.url, token: registry.adminToken, timeoutMs: 30000 });
  const anonymous = new RouteRegistryClient({ server: registry.url });
  const served = async (host) => {
    const response = await request(web.port, AASA_PATH, { headers: { host } });
    assert.equal(response.status, 200, `the handler serves ${host}`);
    return { etag: response.headers.etag, document: JSON.parse(response.body) };
  };
  const decide = (document, url) => evaluate(document, APP_ID, url, "m.badoo.com");

  // 1-2. The app, its domains, /u/* since 5.0 and /help/* excluded ahead of it; iOS 5.11.0 goes live.
  await admin.appsCreate({
    app: {
      id: "badoo",
      displayName: "Badoo",
      ios: { appIds: [APP_ID] },
      schemes: ["badoo"],
      fallback: { queryItem: "ul_fallback" },
    },
  });
  await admin.domainsCreate({ domain: { host: "badoo.com", apps: ["badoo"] } });
  await admin.domainsCreate({ domain: { host: "m.badoo.com", apps: ["badoo"] } });
  await admin.routesCreate({
    app: "badoo",
    route: { id: "profile", pattern: { path: "/u/*" }, action: "open", platforms: { ios: { since: "5.0" } } },
  });
  // The exclusion goes before the rule it carves out of (first match wins; a trailing exclusion is left out).
  await admin.routesCreate({ app: "badoo", route: { id: "help", pattern: { path: "/help/*" }, action: "exclude" }, before: "profile" });
  const first = await admin.releasesPublish({ app: "badoo", platform: "ios", version: "5.11.0" });
  assert.equal(first.release.state, "live");
  // A version the server cannot decode is bad input like a bad route id: a RegistryError naming the field.
  await assert.rejects(admin.releasesPublish({ app: "badoo", platform: "ios", version: "five" }),
    (e) => e instanceof RegistryError && e.status === "INVALID_ARGUMENT" && e.details.some((d) => d.field === "version"));

  // 3. The AASA: marker exclusion, /help/* excluded, /u/*, and not /l/a/*.
  const initial = await anonymous.associationsGet({ host: "m.badoo.com" });
  assert.equal(decide(initial.document, "https://m.badoo.com/u/1"), "match");
  assert.equal(decide(initial.document, "https://m.badoo.com/u/1?ul_fallback=1"), "exclude");
  assert.equal(decide(initial.document, "https://m.badoo.com/help/faq"), "exclude");
  assert.equal(decide(initial.document, "https://m.badoo.com/l/a/42"), "no_match");

  // 4. A route no live version handles leaves the AASA alone.
  await admin.routesCreate({
    app: "badoo",
    route: { id: "lookalikes", pattern: { path: "/l/a/*" }, action: "open", platforms: { ios: { since: "5.12.0" } } },
  });
  assert.equal((await anonymous.associationsGet({ host: "m.badoo.com" })).etag, initial.etag);

  // The handler starts from the registry's current documents: the same JSON the registry serves itself.
  handler = aasaHandler({
    server: registry.url,
    hosts: ["badoo.com", "m.badoo.com"],
    refresh: { watchTimeoutMs: 10000, minBackoffMs: 50, maxBackoffMs: 500 },
    onUpdate: (update) => updates.push(update),
    onError: () => {},
  });
  web = await serveHandler(handler);
  await handler.ready();
  for (const host of ["badoo.com", "m.badoo.com"]) {
    const direct = await registryGet(registry.url, AASA_PATH, host);
    assert.equal(direct.status, 200, `the registry serves ${host}`);
    assert.deepEqual((await served(host)).document, JSON.parse(direct.body));
    const raw = await request(web.port, AASA_PATH, { headers: { host } });
    assert.equal(raw.body, direct.body, `the handler serves the registry's exact bytes for ${host}`);
    assert.equal(raw.headers.etag, direct.headers.etag, `the handler's ETag for ${host} is the registry's`);
  }
  const before = await served("m.badoo.com");
  assert.ok(before.etag.includes(initial.etag), "the handler's ETag is the registry's");
  const notModified = await request(web.port, AASA_PATH, { headers: { host: "m.badoo.com", "if-none-match": before.etag } });
  assert.equal(notModified.status, 304);
  // badoo has no Android side: the registry serves its domains an empty statement list, and so does the handler
  // (the README says so; it once said 404).
  const directLinks = await registryGet(registry.url, "/.well-known/assetlinks.json", "m.badoo.com");
  assert.deepEqual([directLinks.status, directLinks.body], [200, "[]"]);
  const handlerLinks = await request(web.port, "/.well-known/assetlinks.json", { headers: { host: "m.badoo.com" } });
  assert.deepEqual([handlerLinks.status, handlerLinks.body, handlerLinks.headers.etag], [200, "[]", directLinks.headers.etag]);
  const stranger = await request(web.port, "/.well-known/assetlinks.json", { headers: { host: "unknown.example" } });
  assert.equal(stranger.status, 404);

  // The README's server example serves the same bytes, and saves them for its next start.
  const cacheFile = path.join(exampleDir, "cache.json");
  example = await startExample(exampleDir, { ROUTEREG_SERVER: registry.url, HOSTS: "m.badoo.com", PORT: "0", AASA_CACHE: cacheFile });
  const fromExample = await request(example.port, AASA_PATH, { headers: { host: "m.badoo.com" } });
  const fromRegistry = await registryGet(registry.url, AASA_PATH, "m.badoo.com");
  assert.deepEqual([fromExample.status, fromExample.body, fromExample.headers.etag], [200, fromRegistry.body, fromRegistry.headers.etag]);
  assert.equal((await request(example.port, "/other", { headers: { host: "m.badoo.com" } })).status, 404);
  await eventually(() => existsSync(cacheFile), "the example to save the documents");

  // 5. Publishing 5.12.0 adds /l/a/*; the handler learns of it through Associations.Watch.
  const second = await admin.releasesPublish({ app: "badoo", platform: "ios", version: "5.12.0" });
  const withLookalikes = await anonymous.associationsGet({ host: "m.badoo.com" });
  assert.notEqual(withLookalikes.etag, initial.etag);
  assert.ok(second.revisions.some((r) => r.host === "m.badoo.com" && r.changed));
  await eventually(() => updates.some((u) => u.host === "m.badoo.com" && u.kind === "aasa" && u.etag === withLookalikes.etag), "the handler to serve the 5.12.0 revision", 20000);
  assert.equal(decide((await served("m.badoo.com")).document, "https://m.badoo.com/l/a/42"), "match");
  const old = await anonymous.canOpenCheck({ app: "badoo", platform: "ios", version: "5.11.0", url: "https://m.badoo.com/l/a/42" });
  assert.equal(old.decision, "open_in_browser");
  assert.equal(old.reason, "unsupported_version");
  assert.equal(old.fallbackUrl, "https://m.badoo.com/l/a/42?ul_fallback=1");
  const current = await anonymous.canOpenCheck({ app: "badoo", platform: "ios", version: "5.12.0", url: "https://m.badoo.com/l/a/42" });
  assert.equal(current.decision, "open_in_app");

  // 6. Switching the route off for 5.12.0 drops /l/a/* again, in a new revision the handler follows.
  await admin.routesSwitchOff({ app: "badoo", route: "lookalikes", platform: "ios", versions: ["5.12.0"], reason: "crash in 5.12.0" });
  const switchedOff = await anonymous.associationsGet({ host: "m.badoo.com" });
  assert.ok(switchedOff.revision > withLookalikes.revision);
  // By revision, not ETag: the switched-off AASA has the same bytes (so the same ETag) as the one before 5.12.0,
  // which the handler saw earlier; waiting on the ETag alone passed at once and raced the Watch.
  await eventually(() => updates.some((u) => u.host === "m.badoo.com" && u.kind === "aasa" && u.revision >= switchedOff.revision && u.etag === switchedOff.etag), "the handler to serve the switched-off revision", 20000);
  const last = await served("m.badoo.com");
  const history = updates.filter((u) => u.host === "m.badoo.com").map((u) => `${u.kind} r${u.revision} ${u.etag.slice(0, 8)}`);
  assert.equal(decide(last.document, "https://m.badoo.com/l/a/42"), "no_match",
    `served ${last.etag}; switched off: r${switchedOff.revision} ${switchedOff.etag.slice(0, 8)}; updates: ${history.join(", ")}`);
  assert.equal(decide(last.document, "https://m.badoo.com/u/1"), "match");
  const fallback = await anonymous.canOpenCheck({ app: "badoo", platform: "ios", version: "5.12.0", url: "https://m.badoo.com/l/a/42" });
  assert.equal(fallback.decision, "open_in_browser");
  assert.equal(fallback.reason, "switched_off");
  const diff = await anonymous.associationsDiff({ host: "m.badoo.com", fromRevision: withLookalikes.revision, toRevision: switchedOff.revision });
  assert.equal(diff.added.length, 0);
  assert.equal(diff.removed.length, 1);
  assert.equal(diff.changed.length, 0);
  assert.match(JSON.stringify(diff.removed[0]), /\/l\/a\/\*/);

  // 7. Retire 5.11.0 and import the next version's routes; the audit log has every step.
  const retired = await admin.releasesRetire({ app: "badoo", platform: "ios", version: "5.11.0" });
  assert.equal(retired.release.state, "retired");

  // Routes for a version still in development, imported as one batch ahead of the switched-off lookalikes: no
  // live version opens them or anything after them, so the AASA stays as it was.
  const beforeImport = await anonymous.associationsGet({ host: "m.badoo.com" });
  const later = (id) => ({ id, pattern: { path: `/${id}/*` }, platforms: { ios: { since: "6.0" } } });
  const batch = await admin.routesBatchCreate({ app: "badoo", routes: [later("chat"), later("offer")], before: "lookalikes" });
  assert.deepEqual(batch.routes.map((r) => [r.id, r.position, r.name]), [
    ["chat", 2, "apps/badoo/routes/chat"],
    ["offer", 3, "apps/badoo/routes/offer"],
  ]);
  const order = ["help", "profile", "chat", "offer", "lookalikes"];
  assert.deepEqual((await admin.routesList({ app: "badoo" })).routes.map((r) => r.id), order);
  // All or nothing: a batch refused at its second route leaves its first one out as well.
  await assert.rejects(
    admin.routesBatchCreate({ app: "badoo", routes: [later("event"), later("event")] }),
    (e) => e instanceof RegistryError && e.status === "INVALID_ARGUMENT" && e.details.map((d) => d.field).join() === "routes[1].id",
  );
  await assert.rejects(
    admin.routesBatchCreate({ app: "badoo", routes: [later("event"), later("chat")] }),
    (e) => e instanceof RegistryError && e.status === "ALREADY_EXISTS" && e.details.map((d) => d.field).join() === "routes[1].id",
  );
  await assert.rejects(
    admin.routesBatchCreate({ app: "badoo", routes: [later("event")], before: "ghost" }),
    (e) => e instanceof RegistryError && e.status === "NOT_FOUND" && e.details.map((d) => d.field).join() === "before",
  );
  assert.deepEqual((await admin.routesList({ app: "badoo" })).routes.map((r) => r.id), order);
  assert.equal((await anonymous.associationsGet({ host: "m.badoo.com" })).etag, beforeImport.etag);

  const audit = await admin.auditList({ pageSize: 1000 });
  const methods = audit.entries.map((entry) => entry.method);
  for (const method of ["Apps.Create", "Domains.Create", "Routes.Create", "Routes.BatchCreate", "Releases.Publish", "Routes.SwitchOff", "Releases.Retire"]) {
    assert.ok(methods.includes(method), `the audit log has ${method}`);
  }
  assert.ok(audit.entries.every((entry) => typeof entry.actor === "string" && entry.actor !== ""));

  // The README's release script, as a release job runs it: the server and token only in the routereg CLI's
  // config file. Publishing the live 5.12.0 again changes nothing; a malformed version is reported, not thrown.
  const configFile = path.join(exampleDir, "config.json");
  writeFileSync(configFile, JSON.stringify({ server: registry.url, token: registry.adminToken }));
  const scriptEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("ROUTEREG_")));
  scriptEnv.ROUTEREG_CONFIG = configFile;
  const release = await runScript(exampleDir, "release.mjs", [], scriptEnv);
  assert.equal(release.code, 0, release.stdout + release.stderr);
  assert.deepEqual(release.stdout.trim().split("\n"), [
    "open_in_browser unsupported_version", "help /help/*", "profile /u/*", "chat /chat/*", "offer /offer/*", "lookalikes /l/a/*",
    "apps/badoo/platforms/ios/releases/5.12.0 live",
  ]);
  const refused = await runScript(exampleDir, "release.mjs", ["five"], scriptEnv);
  assert.equal(refused.code, 2, refused.stdout + refused.stderr); // 1 would be a crash: an error it did not catch
  assert.match(refused.stderr, /^INVALID_ARGUMENT .*version/);

  // With the registry stopped the handler keeps serving the last good document, ETag and 304 included.
  const finalDocument = await anonymous.associationsGet({ host: "m.badoo.com" });
  await eventually(async () => (await served("m.badoo.com")).etag.includes(finalDocument.etag), "the handler to have the final revision", 20000);
  const lastServed = await served("m.badoo.com");
  await registry.stop();
  await assert.rejects(anonymous.associationsGet({ host: "m.badoo.com" }), (e) => e.code === 14, "the registry is gone");
  const offline = await served("m.badoo.com");
  assert.deepEqual(offline, lastServed);
  const offline304 = await request(web.port, AASA_PATH, { headers: { host: "m.badoo.com", "if-none-match": offline.etag } });
  assert.equal(offline304.status, 304);
  const otherHost = await served("badoo.com");
  assert.equal(evaluate(otherHost.document, APP_ID, "https://badoo.com/u/1", "badoo.com"), "match");

  // The README example, restarted while the registry is down, serves the documents it saved.
  await eventually(() => JSON.parse(readFileSync(cacheFile, "utf8")).some((d) => d.kind === "aasa" && d.etag === finalDocument.etag),
    "the example to save the final revision", 20000);
  await example.stop();
  example = await startExample(exampleDir, { ROUTEREG_SERVER: registry.url, HOSTS: "m.badoo.com", PORT: "0", AASA_CACHE: cacheFile });
  assert.match(example.output(), /registry not reachable yet, serving 2 saved documents/);
  const restarted = await request(example.port, AASA_PATH, { headers: { host: "m.badoo.com" } });
  assert.equal(restarted.status, 200);
  assert.deepEqual(JSON.parse(restarted.body), offline.document);
});
