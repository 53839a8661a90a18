import { RouteRegistryClient } from "./client.js";
import type { FetchFunction } from "./client.js";
import type { DocumentKind } from "./types.js";
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
    onUpdate?: (update: {
        host: string;
        kind: DocumentKind;
        revision: number | undefined;
        etag: string;
    }) => void;
    /** Called on every failed registry call (default: a console warning when a document starts failing). */
    onError?: (error: unknown, context: {
        host: string;
        kind: DocumentKind;
    }) => void;
}
/** A Node / Express / Connect request handler that serves association documents from memory. */
export interface AASAHandler {
    (req: RequestLike, res: ResponseLike, next?: (error?: unknown) => void): void;
    /** Resolves once every (host, kind) has had its first answer: a document, or "none" (NOT_FOUND). */
    ready(): Promise<void>;
    /** Stops the watchers; documents already fetched are still served. */
    close(): void;
}
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
export declare function aasaHandler(options: AASAHandlerOptions): AASAHandler;
/**
 * Compact JSON with object keys sorted, as the registry writes its documents: the bytes served then match
 * the registry's own, so its ETag (a hash of those bytes) stays a truthful validator.
 */
export declare function canonicalJSON(value: unknown): string;
