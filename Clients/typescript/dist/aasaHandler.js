import { RouteRegistryClient } from "./client.js";
import { RegistryError, Status } from "./errors.js";
import { normalizeHost } from "./linkUrl.js";
const PATHS = {
    "/.well-known/apple-app-site-association": "aasa",
    "/apple-app-site-association": "aasa",
    "/.well-known/assetlinks.json": "assetlinks",
};
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
export function aasaHandler(options) {
    const client = options.client ?? defaultClient(options);
    const kinds = options.kinds ?? ["aasa", "assetlinks"];
    const cacheControl = options.cacheControl ?? "public, max-age=300";
    const refresh = options.refresh === false ? undefined : options.refresh ?? {};
    const minBackoff = refresh?.minBackoffMs ?? 250;
    const maxBackoff = refresh?.maxBackoffMs ?? 30000;
    const entries = new Map();
    const key = (host, kind) => `${kind} ${host}`;
    const hosts = [...new Set(options.hosts.map(normalizeHost))];
    for (const host of hosts)
        for (const kind of kinds)
            entries.set(key(host, kind), { state: "pending" });
    const controller = new AbortController();
    let closed = false;
    const sleepers = new Set();
    const sleep = (ms) => new Promise((resolve) => {
        const wake = () => {
            sleepers.delete(wake);
            clearTimeout(timer);
            resolve();
        };
        const timer = setTimeout(wake, ms);
        sleepers.add(wake);
    });
    let pending = entries.size;
    const readyWaiters = [];
    const settle = (host, kind, entry) => {
        const previous = entries.get(key(host, kind));
        entries.set(key(host, kind), entry);
        if (previous?.state === "pending" && entry.state !== "pending") {
            pending -= 1;
            if (pending === 0)
                readyWaiters.splice(0).forEach((resolve) => resolve());
        }
    };
    const publish = (host, kind, etag, document, revision) => {
        const body = canonicalJSON(document);
        const entry = {
            state: "ready", body, length: String(new TextEncoder().encode(body).byteLength), etag: quoteEtag(etag), rawEtag: etag,
        };
        if (revision !== undefined)
            entry.revision = revision;
        settle(host, kind, entry);
        options.onUpdate?.({ host, kind, revision, etag });
    };
    const follow = async (host, kind) => {
        let backoff = minBackoff;
        let failing = false;
        const signal = controller.signal;
        while (!closed) {
            const current = entries.get(key(host, kind));
            try {
                if (current?.state !== "ready") {
                    const result = await client.associationsGet({ host, kind }, { signal });
                    publish(host, kind, result.etag, result.document, result.revision);
                }
                else if (refresh === undefined) {
                    return;
                }
                else {
                    const started = Date.now();
                    const params = { host, kind, ifNoneMatch: current.rawEtag, timeoutMs: refresh.watchTimeoutMs ?? 30000 };
                    const result = await client.associationsWatch(params, { signal });
                    if (!result.notModified && result.etag !== current.rawEtag) {
                        if (result.document !== undefined) {
                            publish(host, kind, result.etag, result.document, result.revision);
                        }
                        else {
                            const latest = await client.associationsGet({ host, kind }, { signal });
                            publish(host, kind, latest.etag, latest.document, latest.revision);
                        }
                    }
                    else if (Date.now() - started < 50) {
                        // A server answering "not modified" at once (ignoring the long poll) must not make us spin.
                        await sleep(minBackoff);
                    }
                }
                backoff = minBackoff;
                failing = false;
            }
            catch (error) {
                if (closed)
                    return;
                if (error instanceof RegistryError && error.code === Status.NOT_FOUND)
                    settle(host, kind, { state: "absent" });
                if (options.onError)
                    options.onError(error, { host, kind });
                else if (!failing)
                    console.warn(`aasaHandler: ${kind} for ${host}: ${String(error)}; retrying`);
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
    const handler = ((req, res, next) => {
        const path = (req.url ?? "/").split("?")[0];
        const kind = Object.prototype.hasOwnProperty.call(PATHS, path) ? PATHS[path] : undefined;
        if (kind === undefined || !kinds.includes(kind)) {
            if (next)
                next();
            else
                reply(res, 404, "not found\n");
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
    });
    handler.ready = () => (pending === 0 ? Promise.resolve() : new Promise((resolve) => readyWaiters.push(resolve)));
    handler.close = () => {
        if (closed)
            return;
        closed = true;
        controller.abort();
        for (const wake of [...sleepers])
            wake();
    };
    return handler;
}
/**
 * Compact JSON with object keys sorted, as the registry writes its documents: the bytes served then match
 * the registry's own, so its ETag (a hash of those bytes) stays a truthful validator.
 */
export function canonicalJSON(value) {
    return JSON.stringify(value, (_key, item) => {
        if (typeof item !== "object" || item === null || Array.isArray(item))
            return item;
        const sorted = {};
        for (const key of Object.keys(item).sort())
            sorted[key] = item[key];
        return sorted;
    });
}
function defaultClient(options) {
    if (options.server === undefined)
        throw new TypeError("aasaHandler needs `server` or `client`");
    const clientOptions = { server: options.server };
    if (options.token !== undefined)
        clientOptions.token = options.token;
    if (options.fetch !== undefined)
        clientOptions.fetch = options.fetch;
    return new RouteRegistryClient(clientOptions);
}
function reply(res, status, text) {
    res.statusCode = status;
    res.setHeader("Content-Type", "text/plain; charset=utf-8");
    res.setHeader("Cache-Control", "no-store");
    res.end(text);
}
/** The registry's ETag is opaque; HTTP wants it quoted. */
function quoteEtag(etag) {
    return /^(W\/)?".*"$/.test(etag) ? etag : `"${etag.replace(/"/g, "")}"`;
}
/** `If-None-Match` uses weak comparison: `W/` prefixes are ignored, `*` matches any current document. */
function etagMatches(header, etag) {
    if (header === undefined)
        return false;
    const strip = (tag) => tag.trim().replace(/^W\//, "");
    const wanted = strip(etag);
    const values = Array.isArray(header) ? header.join(",") : header;
    return values.split(",").some((tag) => tag.trim() === "*" || strip(tag) === wanted);
}
