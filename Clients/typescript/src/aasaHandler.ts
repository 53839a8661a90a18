import { answer, canonicalJSON, pathOf, quoteEtag, weakEtag } from "./aasaResponse.js";
import type { Answer, DocumentState } from "./aasaResponse.js";
import { RouteRegistryClient } from "./client.js";
import type { FetchFunction } from "./client.js";
import { RegistryError, Status } from "./errors.js";
import { fastifyPlugin } from "./fastifyPlugin.js";
import type { FastifyPluginLike } from "./fastifyPlugin.js";
import { normalizeHost } from "./linkUrl.js";
import type { DocumentKind } from "./types.js";

export { canonicalJSON };

/** The part of Node's `http.IncomingMessage` (or Express's `req`) the handler reads. */
export interface RequestLike {
  method?: string;
  url?: string;
  /** Express keeps the full path here when a mount path (`app.use('/.well-known', ...)`) trimmed `url`. */
  originalUrl?: string;
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
  /**
   * How much longer than `watchTimeoutMs` the client waits for the long poll's answer before it gives up on
   * the connection and opens a new one (default 2000). A NAT or proxy that drops a connection without closing
   * it would otherwise leave the handler serving an old document for as long as the socket lives.
   */
  deadlineGraceMs?: number;
  /** The deadline of each `Associations.Get`, in ms (default 10000). */
  requestTimeoutMs?: number;
  /** First retry delay after an error, in ms (default 250); doubles per failure. */
  minBackoffMs?: number;
  /** Longest retry delay, in ms (default 30000). */
  maxBackoffMs?: number;
}

/** A last-known document to serve until the registry answers (e.g. what `onUpdate` saved before a restart). */
export interface StartupDocument {
  host: string;
  /** "aasa" (default) or "assetlinks". */
  kind?: DocumentKind;
  document: unknown;
  /** The registry's ETag of the document, when known; otherwise a weak one is derived from its bytes. */
  etag?: string;
}

/** What `onUpdate` is told of each new document served. */
export interface DocumentUpdate {
  host: string;
  kind: DocumentKind;
  revision: number | undefined;
  etag: string;
  /** The document itself, e.g. to save it and pass it back as a `startup` document at the next start. */
  document: unknown;
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
  /** The documents to serve (default both). */
  kinds?: readonly DocumentKind[];
  /** Documents served from the start, until the registry answers: a registry down at boot then costs no 503s. */
  startup?: readonly StartupDocument[];
  /** A ready client; by default one is made from `server`, `token` and `fetch`. */
  client?: Pick<RouteRegistryClient, "associationsGet" | "associationsWatch">;
  /** Bearer token for the default client (the association methods are public, so usually none). */
  token?: string;
  /** `fetch` for the default client. */
  fetch?: FetchFunction;
  /** Called with each new document served. */
  onUpdate?: (update: DocumentUpdate) => void;
  /** Called on every failed registry call (default: a console warning when a document starts failing). */
  onError?: (error: unknown, context: { host: string; kind: DocumentKind }) => void;
}

/** A Node / Express / Connect request handler that serves association documents from memory. */
export interface AASAHandler {
  (req: RequestLike, res: ResponseLike, next?: (error?: unknown) => void): void;
  /**
   * Resolves once every (host, kind) has had its first answer from the registry: a document, or "none"
   * (NOT_FOUND). With `timeoutMs`, rejects with a DEADLINE_EXCEEDED `RegistryError` naming what is still
   * missing and why; rejects with CANCELLED when the handler is closed first.
   */
  ready(options?: { timeoutMs?: number }): Promise<void>;
  /** Stops the watchers; documents already fetched are still served. */
  close(): void;
  /** The same handler as a Fastify plugin: `fastify.register(aasa.fastify)`. */
  fastify: FastifyPluginLike;
}

interface Entry {
  served: DocumentState;
  /** The registry's own ETag of the served document (a startup document's may be unknown). */
  rawEtag?: string;
  /** The registry has answered for this document at least once. */
  confirmed: boolean;
  /** The served document's revision, when the registry said. */
  revision?: number;
  lastError?: unknown;
}

/**
 * Serves `/.well-known/apple-app-site-association`, `/apple-app-site-association` (never a redirect) and
 * `/.well-known/assetlinks.json` for the request's Host from memory, with `ETag` / `If-None-Match` → 304.
 * Documents come from `Associations.Get` at start and are kept fresh by `Associations.Watch` long polls, each
 * with a client-side deadline so a silently dropped connection is replaced; while the registry is
 * unreachable the last good document keeps being served, and the watchers retry with exponential backoff.
 *
 * Responses: 200 with the document (for a domain whose apps have no Android side, the registry's assetlinks
 * document is the empty list, served as `200 []`, as the registry itself does); 404 for a host not in
 * `hosts`, or when the registry has no such document (NOT_FOUND: a host it does not know); 503 with
 * `Retry-After` while a known host's first document has not arrived yet and no startup document stands in;
 * 405 for methods other than GET and HEAD. Other paths go to `next()` when given, else 404.
 */
export function aasaHandler(options: AASAHandlerOptions): AASAHandler {
  const client = options.client ?? defaultClient(options);
  const kinds = options.kinds ?? (["aasa", "assetlinks"] as const);
  const cacheControl = options.cacheControl ?? "public, max-age=300";
  const refresh = options.refresh === false ? undefined : options.refresh ?? {};
  const minBackoff = refresh?.minBackoffMs ?? 250;
  const maxBackoff = refresh?.maxBackoffMs ?? 30000;
  const watchTimeout = refresh?.watchTimeoutMs ?? 30000;
  const watchDeadline = watchTimeout + (refresh?.deadlineGraceMs ?? 2000);
  const getDeadline = refresh?.requestTimeoutMs ?? 10000;

  const entries = new Map<string, Entry>();
  const key = (host: string, kind: DocumentKind): string => `${kind} ${host}`;
  const hosts = [...new Set(options.hosts.map(normalizeHost))];
  for (const host of hosts) for (const kind of kinds) entries.set(key(host, kind), { served: { state: "pending" }, confirmed: false });
  for (const startup of options.startup ?? []) {
    const entry = entries.get(key(normalizeHost(startup.host), startup.kind ?? "aasa"));
    if (entry === undefined) continue;
    const body = canonicalJSON(startup.document);
    entry.served = { state: "ready", ...served(body, startup.etag === undefined ? weakEtag(body) : quoteEtag(startup.etag)) };
    if (startup.etag !== undefined) entry.rawEtag = startup.etag;
  }

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
  const readyWaiters = new Set<{ resolve: () => void; reject: (error: unknown) => void }>();
  const confirm = (host: string, kind: DocumentKind, state: DocumentState, rawEtag?: string): void => {
    const entry = entries.get(key(host, kind));
    if (entry === undefined) return;
    entry.served = state;
    if (rawEtag !== undefined) entry.rawEtag = rawEtag;
    else delete entry.rawEtag;
    delete entry.lastError;
    if (!entry.confirmed) {
      entry.confirmed = true;
      pending -= 1;
      if (pending === 0) for (const waiter of [...readyWaiters]) waiter.resolve();
    }
  };

  /**
   * Serves a document unless it is older than the one served: behind a load balancer, a server that has not
   * caught up yet may answer with an earlier revision, and the handler must not go back to it. False when
   * the document was refused.
   */
  const publish = (host: string, kind: DocumentKind, etag: string, document: unknown, revision?: number): boolean => {
    const entry = entries.get(key(host, kind));
    if (entry?.confirmed && entry.revision !== undefined && revision !== undefined && revision < entry.revision) return false;
    confirm(host, kind, { state: "ready", ...served(canonicalJSON(document), quoteEtag(etag)) }, etag);
    if (entry !== undefined) {
      if (revision === undefined) delete entry.revision;
      else entry.revision = revision;
    }
    options.onUpdate?.({ host, kind, revision, etag, document });
    return true;
  };

  const follow = async (host: string, kind: DocumentKind): Promise<void> => {
    let backoff = minBackoff;
    let failing = false;
    const signal = controller.signal;
    while (!closed) {
      const entry = entries.get(key(host, kind));
      let watching = false;
      try {
        if (entry === undefined) return;
        if (!entry.confirmed || entry.served.state !== "ready" || entry.rawEtag === undefined) {
          const result = await client.associationsGet({ host, kind }, { signal, timeoutMs: getDeadline });
          publish(host, kind, result.etag, result.document, result.revision);
        } else if (refresh === undefined) {
          return;
        } else {
          watching = true;
          const started = Date.now();
          const current = entry.rawEtag;
          const params = { host, kind, ifNoneMatch: current, timeoutMs: watchTimeout };
          const result = await client.associationsWatch(params, { signal, timeoutMs: watchDeadline });
          const changed = !result.notModified && result.etag !== current;
          let taken = true;
          if (changed) {
            if (result.document !== undefined) {
              taken = publish(host, kind, result.etag, result.document, result.revision);
            } else {
              const latest = await client.associationsGet({ host, kind }, { signal, timeoutMs: getDeadline });
              taken = publish(host, kind, latest.etag, latest.document, latest.revision);
            }
          }
          if (!taken || (!changed && Date.now() - started < 50)) {
            // A server answering "not modified" at once (ignoring the long poll), or with an older revision than
            // the one served, must not make us spin.
            await sleep(minBackoff);
          }
        }
        backoff = minBackoff;
        failing = false;
      } catch (error) {
        if (closed) return;
        if (entry !== undefined) entry.lastError = error;
        if (error instanceof RegistryError && error.code === Status.NOT_FOUND) confirm(host, kind, { state: "absent" });
        if (options.onError) options.onError(error, { host, kind });
        else if (!failing) console.warn(`aasaHandler: ${kind} for ${host}: ${String(error)}; retrying`);
        failing = true;
        // A long poll past its deadline means a dead connection, not a failing registry: reconnect at once.
        if (watching && error instanceof RegistryError && error.code === Status.DEADLINE_EXCEEDED) continue;
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

  const lookup = (host: string, kind: DocumentKind): DocumentState | undefined => entries.get(key(host, kind))?.served;
  const respond = (method: string | undefined, path: string, headers: RequestLike["headers"]): Answer | undefined => {
    const hostHeader = headers.host;
    const host = normalizeHost(Array.isArray(hostHeader) ? hostHeader[0] ?? "" : hostHeader ?? "");
    return answer(method, path, host, headers["if-none-match"], lookup, kinds, cacheControl);
  };

  const handler = ((req: RequestLike, res: ResponseLike, next?: (error?: unknown) => void): void => {
    const result = respond(req.method, pathOf(req.originalUrl ?? req.url), req.headers);
    if (result === undefined) {
      if (next) next();
      else write(res, { status: 404, headers: [["Content-Type", "text/plain; charset=utf-8"]], body: "not found\n" });
      return;
    }
    write(res, result);
  }) as AASAHandler;

  handler.fastify = fastifyPlugin(kinds, (method, path, headers) => respond(method, path, headers) as Answer);
  handler.ready = ({ timeoutMs }: { timeoutMs?: number } = {}) => {
    if (pending === 0) return Promise.resolve();
    if (closed) return Promise.reject(new RegistryError(Status.CANCELLED, "aasaHandler: closed before it was ready"));
    return new Promise<void>((resolve, reject) => {
      let timer: unknown;
      const waiter = {
        resolve: () => { clearTimeout(timer); readyWaiters.delete(waiter); resolve(); },
        reject: (error: unknown) => { clearTimeout(timer); readyWaiters.delete(waiter); reject(error); },
      };
      readyWaiters.add(waiter);
      if (timeoutMs !== undefined) timer = setTimeout(() => waiter.reject(notReady(entries, timeoutMs)), timeoutMs);
    });
  };
  handler.close = () => {
    if (closed) return;
    closed = true;
    controller.abort();
    for (const wake of [...sleepers]) wake();
    for (const waiter of [...readyWaiters]) waiter.reject(new RegistryError(Status.CANCELLED, "aasaHandler: closed before it was ready"));
  };
  return handler;
}

function served(body: string, etag: string): { body: string; length: string; etag: string } {
  return { body, length: String(new TextEncoder().encode(body).byteLength), etag };
}

function notReady(entries: Map<string, Entry>, timeoutMs: number): RegistryError {
  const missing = [...entries].filter(([, entry]) => !entry.confirmed);
  const reasons = missing.map(([name, entry]) => (entry.lastError === undefined ? name : `${name} (${String(entry.lastError)})`));
  const cause = missing.find(([, entry]) => entry.lastError !== undefined)?.[1].lastError;
  return new RegistryError(Status.DEADLINE_EXCEEDED, `aasaHandler: not ready after ${timeoutMs} ms: no answer yet for ${reasons.join(", ")}`, cause === undefined ? {} : { cause });
}

function defaultClient(options: AASAHandlerOptions): RouteRegistryClient {
  if (options.server === undefined) throw new TypeError("aasaHandler needs `server` or `client`");
  const clientOptions: ConstructorParameters<typeof RouteRegistryClient>[0] = { server: options.server, retries: 0 };
  if (options.token !== undefined) clientOptions.token = options.token;
  if (options.fetch !== undefined) clientOptions.fetch = options.fetch;
  return new RouteRegistryClient(clientOptions);
}

function write(res: ResponseLike, result: Answer): void {
  res.statusCode = result.status;
  for (const [name, value] of result.headers) res.setHeader(name, value);
  res.end(result.body);
}
