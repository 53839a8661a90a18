// Small JSON-RPC servers the tests start on 127.0.0.1:0: a scripted one for the client's tests and a fake
// registry that serves Associations.Get / Associations.Watch from memory for the handler's tests.
import http from "node:http";
import { createHash } from "node:crypto";
import { canonicalJSON } from "../../dist/esm/index.js";

/** Starts an HTTP server on an ephemeral loopback port; `handle(req, body, res)` answers each request. */
export async function startServer(handle) {
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => handle(req, Buffer.concat(chunks).toString("utf8"), res));
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Sends a JSON body. */
export function sendJSON(res, value, status = 200) {
  const body = JSON.stringify(value);
  res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) });
  res.end(body);
}

/**
 * A fake registry holding association documents in memory. `Associations.Watch` long-polls like the real
 * one: it answers at once when `ifNoneMatch` differs from the current ETag, otherwise when the document
 * changes or `timeoutMs` passes.
 */
export async function startFakeRegistry() {
  const documents = new Map();
  const watchers = new Set();
  const calls = [];
  const key = (host, kind) => `${kind ?? "aasa"} ${host}`;

  const current = (host, kind) => documents.get(key(host, kind));
  const describe = (host, kind, doc) => ({ host, kind: kind ?? "aasa", revision: doc.revision, etag: doc.etag });

  const server = await startServer((req, body, res) => {
    const request = JSON.parse(body);
    const { method, params = {}, id } = request;
    calls.push(method);
    const doc = current(params.host, params.kind);
    const notFound = () =>
      sendJSON(res, { jsonrpc: "2.0", id, error: { code: 5, message: "no such document", data: { status: "NOT_FOUND" } } });
    if (method === "Associations.Get") {
      if (!doc) return notFound();
      return sendJSON(res, { jsonrpc: "2.0", id, result: { ...describe(params.host, params.kind, doc), cause: doc.cause, document: doc.document } });
    }
    if (method === "Associations.Watch") {
      if (!doc) return notFound();
      if (params.ifNoneMatch !== doc.etag) {
        return sendJSON(res, { jsonrpc: "2.0", id, result: { ...describe(params.host, params.kind, doc), notModified: false, document: doc.document } });
      }
      const watcher = {
        key: key(params.host, params.kind),
        answer: (changed) => {
          clearTimeout(watcher.timer);
          watchers.delete(watcher);
          const latest = current(params.host, params.kind);
          const result = { ...describe(params.host, params.kind, latest), notModified: !changed };
          if (changed) result.document = latest.document;
          sendJSON(res, { jsonrpc: "2.0", id, result });
        },
      };
      watcher.timer = setTimeout(() => watcher.answer(false), params.timeoutMs ?? 30000);
      watchers.add(watcher);
      req.socket.on("close", () => {
        clearTimeout(watcher.timer);
        watchers.delete(watcher);
      });
      return;
    }
    sendJSON(res, { jsonrpc: "2.0", id, error: { code: -32601, message: "Method not found" } });
  });

  return {
    url: server.url,
    calls,
    /** Long polls currently held open. */
    get openWatches() {
      return watchers.size;
    },
    /** Stores a new revision of a document and answers the long polls waiting on it. */
    setDocument(host, kind, document) {
      const previous = current(host, kind);
      const bytes = canonicalJSON(document);
      const revision = (previous?.revision ?? 0) + 1;
      documents.set(key(host, kind), {
        document, revision, cause: `test revision ${revision}`, etag: createHash("sha256").update(bytes).digest("hex"),
      });
      for (const watcher of [...watchers]) if (watcher.key === key(host, kind)) watcher.answer(true);
      return documents.get(key(host, kind)).etag;
    },
    close: () => {
      for (const watcher of [...watchers]) clearTimeout(watcher.timer);
      watchers.clear();
      return server.close();
    },
  };
}

/** Makes one HTTP request with full control of the Host header (which `fetch` does not allow). */
export function request(port, path, { method = "GET", headers = {} } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, path, method, headers }, (res) => {
      const chunks = [];
      res.on("data", (chunk) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
    });
    req.on("error", reject);
    req.end();
  });
}

/** Waits until `condition()` holds, checking every few milliseconds; fails after `limitMs`. */
export async function eventually(condition, what, limitMs = 10000) {
  const deadline = Date.now() + limitMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
