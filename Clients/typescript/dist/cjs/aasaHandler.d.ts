import { canonicalJSON } from "./aasaResponse.js";
import { RouteRegistryClient } from "./client.js";
import type { FetchFunction } from "./client.js";
import type { FastifyPluginLike } from "./fastifyPlugin.js";
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
    onError?: (error: unknown, context: {
        host: string;
        kind: DocumentKind;
    }) => void;
}
/** A Node / Express / Connect request handler that serves association documents from memory. */
export interface AASAHandler {
    (req: RequestLike, res: ResponseLike, next?: (error?: unknown) => void): void;
    /**
     * Resolves once every (host, kind) has had its first answer from the registry: a document, or "none"
     * (NOT_FOUND). With `timeoutMs`, rejects with a DEADLINE_EXCEEDED `RegistryError` naming what is still
     * missing and why; rejects with CANCELLED when the handler is closed first.
     */
    ready(options?: {
        timeoutMs?: number;
    }): Promise<void>;
    /** Stops the watchers; documents already fetched are still served. */
    close(): void;
    /** The same handler as a Fastify plugin: `fastify.register(aasa.fastify)`. */
    fastify: FastifyPluginLike;
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
export declare function aasaHandler(options: AASAHandlerOptions): AASAHandler;
