import { RouteRegistryClient } from "./client.js";
import type { FetchFunction } from "./client.js";
import { RegistryError, Status } from "./errors.js";
import { normalizeHost } from "./linkUrl.js";
import type { AssociationDocument, DocumentKind } from "./types.js";

/** The part of Node's `http.IncomingMessage` (or Express's `req`) the handler reads. */
export interface RequestLike {
  method?: string;
  url?: string;
  headers: Record<string, string | string[] | undefined>;
}

/** The part of Node's `http.ServerResponse` (or Express's `res`) the handler writes. */
export interface ResponseLike {
  statusCode: number;
  setHeader(name: string, value: string): unknown;
  end(body?: string): unknown;
}

/** How documents are kept fresh after the first fetch. */
export interface RefreshOptions {
  /** How long one `Associations.Watch` long poll may wait, in ms (default 30000; the server caps it at 60000). */
  watchTimeoutMs?: number;
  /** First retry delay after an error, in ms (default 250); doubles per failure. */
  minBackoffMs?: number;
  /** Longest retry delay, in ms (default 30000). */
  maxBackoffMs?: number;
}

/** Options of `aasaHandler`. */
export interface AASAHandlerOptions {
  /** The registry's base URL; not needed when `client` is given. */
  server?: string;
  /** The hosts to serve; requests for any other Host get 404. */
  hosts: readonly string[];
  /** `false`: fetch once, never refresh. Otherwise long-poll `Associations.Watch` (the default). */
  refresh?: false | RefreshOptions;
  /** The `Cache-Control` of served documents (default `public, max-age=300`). */
  cacheControl?: string;
  /** The documents to serve (default both): a site without an Android app may serve only "aasa". */
  kinds?: readonly DocumentKind[];
  /** A ready client; by default one is made from `server`, `token` and `fetch`. */
  client?: Pick<RouteRegistryClient, "associationsGet" | "associationsWatch">;
  /** Bearer token for the default client (the association methods are public, so usually none). */
  token?: string;
  /** `fetch` for the default client. */
  fetch?: FetchFunction;
  /** Called with each new document served. */
  onUpdate?: (update: { host: string; kind: DocumentKind; revision: number | undefined; etag: string }) => void;
  /** Called on every failed registry call (default: a console warning when a document starts failing). */
  onError?: (error: unknown, context: { host: string; kind: DocumentKind }) => void;
}

/** A Node / Express / Connect request handler that serves association documents from memory. */
export interface AASAHandler {
  (req: RequestLike, res: ResponseLike, next?: (error?: unknown) => void): void;
  /** Resolves once every (host, kind) has had its first answer: a document, or "none" (NOT_FOUND). */
  ready(): Promise<void>;
  /** Stops the watchers; documents already fetched are still served. */
  close(): void;
}

const PATHS: Readonly<Record<string, DocumentKind>> = {
  "/.well-known/apple-app-site-association": "aasa",
  "/apple-app-site-association": "aasa",
  "/.well-known/assetlinks.json": "assetlinks",
};

type Entry =
  | { state: "pending" }
  | { state: "absent" }
  | { state: "ready"; body: string; length: string; etag: string; rawEtag: string; revision?: number };

/**
 * Serves `/.well-known/apple-app-site-association`, `/apple-app-site-association` (never a redirect) and
 * `/.well-known/assetlinks.json` for the request's Host from memory, with `ETag` / `If-None-Match` → 304.
 * Documents come from `Associations.Get` at start and are kept fresh by `Associations.Watch` long polls;
 * while the registry is unreachable the last good document keeps being served, and the watchers retry with
 * exponential backoff.
 *
 * Responses: 200 with the document; 404 for a host not in `hosts`, or when the registry has no such document
 * (NOT_FOUND, e.g. assetlinks.json of a domain without an Android app); 503 with `Retry-After` while a known
 * host's first document has not arrived yet (a temporary state crawlers should retry, not a missing file);
 * 405 for methods other than GET and HEAD. Other paths go to `next()` when given, else 404.
 */
export function aasaHandler(options: AASAHandlerOptions): AASAHandler {
  const client = options.client ?? defaultClient(options);
  const kinds = options.kinds ?? (["aasa", "assetlinks"] as const);
  const cacheControl = options.cacheControl ?? "public, max-age=300";
  const refresh = options.refresh === false ? undefined : options.refresh ?? {};
  const minBackoff = refresh?.minBackoffMs ?? 250;
  const maxBackoff = refresh?.maxBackoffMs ?? 30000;

  const entries = new Map<string, Entry>();
  const key = (host: string, kind: DocumentKind): string => `${kind} ${host}`;
  const hosts = [...new Set(options.hosts.map(normalizeHost))];
  for (const host of hosts) for (const kind of kinds) entries.set(key(host, kind), { state: "pending" });

  const controller = new AbortController();
  let closed = false;
  const sleepers = new Set<() => void>();
  const sleep = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const wake = (): void => {
        sleepers.delete(wake);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      sleepers.add(wake);
    });

  let pending = entries.size;
  const readyWaiters: (() => void)[] = [];
  const settle = (host: string, kind: DocumentKind, entry: Entry): void => {
    const previous = entries.get(key(host, kind));
    entries.set(key(host, kind), entry);
    if (previous?.state === "pending" && entry.state !== "pending") {
      pending -= 1;
      if (pending === 0) readyWaiters.splice(0).forEach((resolve) => resolve());
    }
  };

  const publish = (host: string, kind: DocumentKind, etag: string, document: AssociationDocument, revision?: number): void => {
    const body = canonicalJSON(document);
    const entry: Entry = {
      state: "ready", body, length: String(new TextEncoder().encode(body).byteLength), etag: quoteEtag(etag), rawEtag: etag,
    };
    if (revision !== undefined) entry.revision = revision;
    settle(host, kind, entry);
    options.onUpdate?.({ host, kind, revision, etag });
  };

  const follow = async (host: string, kind: DocumentKind): Promise<void> => {
    let backoff = minBackoff;
    let failing = false;
    const signal = controller.signal;
    while (!closed) {
      const current = entries.get(key(host, kind));
      try {
        if (current?.state !== "ready") {
          const result = await client.associationsGet({ host, kind }, { signal });
          publish(host, kind, result.etag, result.document, result.revision);
        } else if (refresh === undefined) {
          return;
        } else {
          const started = Date.now();
          const params = { host, kind, ifNoneMatch: current.rawEtag, timeoutMs: refresh.watchTimeoutMs ?? 30000 };
          const result = await client.associationsWatch(params, { signal });
          if (!result.notModified && result.etag !== current.rawEtag) {
            if (result.document !== undefined) {
              publish(host, kind, result.etag, result.document, result.revision);
            } else {
              const latest = await client.associationsGet({ host, kind }, { signal });
              publish(host, kind, latest.etag, latest.document, latest.revision);
            }
          } else if (Date.now() - started < 50) {
            // A server answering "not modified" at once (ignoring the long poll) must not make us spin.
            await sleep(minBackoff);
          }
        }
        backoff = minBackoff;
        failing = false;
      } catch (error) {
        if (closed) return;
        if (error instanceof RegistryError && error.code === Status.NOT_FOUND) settle(host, kind, { state: "absent" });
        if (options.onError) options.onError(error, { host, kind });
        else if (!failing) console.warn(`aasaHandler: ${kind} for ${host}: ${String(error)}; retrying`);
        failing = true;
        await sleep(backoff);
        backoff = Math.min(backoff * 2, maxBackoff);
      }
    }
  };

  for (const host of hosts) {
    for (const kind of kinds) {
      follow(host, kind).catch((error) => options.onError?.(error, { host, kind }));
    }
  }

  const handler = ((req: RequestLike, res: ResponseLike, next?: (error?: unknown) => void): void => {
    const path = (req.url ?? "/").split("?")[0];
    const kind = Object.prototype.hasOwnProperty.call(PATHS, path) ? PATHS[path] : undefined;
    if (kind === undefined || !kinds.includes(kind)) {
      if (next) next();
      else reply(res, 404, "not found\n");
      return;
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.setHeader("Allow", "GET, HEAD");
      reply(res, 405, "method not allowed\n");
      return;
    }
    const hostHeader = req.headers.host;
    const host = normalizeHost(Array.isArray(hostHeader) ? hostHeader[0] ?? "" : hostHeader ?? "");
    const entry = entries.get(key(host, kind));
    if (entry === undefined || entry.state === "absent") {
      reply(res, 404, "not found\n");
      return;
    }
    if (entry.state === "pending") {
      res.setHeader("Retry-After", "5");
      reply(res, 503, "the association document has not been loaded yet\n");
      return;
    }
    res.setHeader("ETag", entry.etag);
    res.setHeader("Cache-Control", cacheControl);
    if (etagMatches(req.headers["if-none-match"], entry.etag)) {
      res.statusCode = 304;
      res.end();
      return;
    }
    res.statusCode = 200;
    res.setHeader("Content-Type", "application/json");
    res.setHeader("Content-Length", entry.length);
    res.end(req.method === "HEAD" ? undefined : entry.body);
  }) as AASAHandler;

  handler.ready = () => (pending === 0 ? Promise.resolve() : new Promise<void>((resolve) => readyWaiters.push(resolve)));
  handler.close = () => {
    if (closed) return;
    closed = true;
    controller.abort();
    for (const wake of [...sleepers]) wake();
  };
  return handler;
}

/**
 * Compact JSON with object keys sorted, as the registry writes its documents: the bytes served then match
 * the registry's own, so its ETag (a hash of those bytes) stays a truthful validator.
 */
export function canonicalJSON(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => {
    if (typeof item !== "object" || item === null || Array.isArray(item)) return item;
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(item).sort()) sorted[key] = (item as Record<string, unknown>)[key];
    return sorted;
  });
}

function defaultClient(options: AASAHandlerOptions): RouteRegistryClient {
  if (options.server === undefined) throw new TypeError("aasaHandler needs `server` or `client`");
  const clientOptions: ConstructorParameters<typeof RouteRegistryClient>[0] = { server: options.server };
  if (options.token !== undefined) clientOptions.token = options.token;
  if (options.fetch !== undefined) clientOptions.fetch = options.fetch;
  return new RouteRegistryClient(clientOptions);
}

function reply(res: ResponseLike, status: number, text: string): void {
  res.statusCode = status;
  res.setHeader("Content-Type", "text/plain; charset=utf-8");
  res.setHeader("Cache-Control", "no-store");
  res.end(text);
}

/** The registry's ETag is opaque; HTTP wants it quoted. */
function quoteEtag(etag: string): string {
  return /^(W\/)?".*"$/.test(etag) ? etag : `"${etag.replace(/"/g, "")}"`;
}

/** `If-None-Match` uses weak comparison: `W/` prefixes are ignored, `*` matches any current document. */
function etagMatches(header: string | string[] | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const strip = (tag: string): string => tag.trim().replace(/^W\//, "");
  const wanted = strip(etag);
  const values = Array.isArray(header) ? header.join(",") : header;
  return values.split(",").some((tag) => tag.trim() === "*" || strip(tag) === wanted);
}
