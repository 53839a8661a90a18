"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.aasaHandler = exports.canonicalJSON = void 0;
const aasaResponse_js_1 = require("./aasaResponse.js");
Object.defineProperty(exports, "canonicalJSON", { enumerable: true, get: function () { return aasaResponse_js_1.canonicalJSON; } });
const client_js_1 = require("./client.js");
const errors_js_1 = require("./errors.js");
const fastifyPlugin_js_1 = require("./fastifyPlugin.js");
const linkUrl_js_1 = require("./linkUrl.js");
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
function aasaHandler(options) {
    const client = options.client ?? defaultClient(options);
    const kinds = options.kinds ?? ["aasa", "assetlinks"];
    const cacheControl = options.cacheControl ?? "public, max-age=300";
    const refresh = options.refresh === false ? undefined : options.refresh ?? {};
    const minBackoff = refresh?.minBackoffMs ?? 250;
    const maxBackoff = refresh?.maxBackoffMs ?? 30000;
    const watchTimeout = refresh?.watchTimeoutMs ?? 30000;
    const watchDeadline = watchTimeout + (refresh?.deadlineGraceMs ?? 2000);
    const getDeadline = refresh?.requestTimeoutMs ?? 10000;
    const entries = new Map();
    const key = (host, kind) => `${kind} ${host}`;
    const hosts = [...new Set(options.hosts.map(linkUrl_js_1.normalizeHost))];
    for (const host of hosts)
        for (const kind of kinds)
            entries.set(key(host, kind), { served: { state: "pending" }, confirmed: false });
    for (const startup of options.startup ?? []) {
        const entry = entries.get(key((0, linkUrl_js_1.normalizeHost)(startup.host), startup.kind ?? "aasa"));
        if (entry === undefined)
            continue;
        const body = (0, aasaResponse_js_1.canonicalJSON)(startup.document);
        entry.served = { state: "ready", ...served(body, startup.etag === undefined ? (0, aasaResponse_js_1.weakEtag)(body) : (0, aasaResponse_js_1.quoteEtag)(startup.etag)) };
        if (startup.etag !== undefined)
            entry.rawEtag = startup.etag;
    }
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
    const readyWaiters = new Set();
    const confirm = (host, kind, state, rawEtag) => {
        const entry = entries.get(key(host, kind));
        if (entry === undefined)
            return;
        entry.served = state;
        if (rawEtag !== undefined)
            entry.rawEtag = rawEtag;
        else
            delete entry.rawEtag;
        delete entry.lastError;
        if (!entry.confirmed) {
            entry.confirmed = true;
            pending -= 1;
            if (pending === 0)
                for (const waiter of [...readyWaiters])
                    waiter.resolve();
        }
    };
    /**
     * Serves a document unless it is older than the one served: behind a load balancer, a server that has not
     * caught up yet may answer with an earlier revision, and the handler must not go back to it. False when
     * the document was refused.
     */
    const publish = (host, kind, etag, document, revision) => {
        const entry = entries.get(key(host, kind));
        if (entry?.confirmed && entry.revision !== undefined && revision !== undefined && revision < entry.revision)
            return false;
        confirm(host, kind, { state: "ready", ...served((0, aasaResponse_js_1.canonicalJSON)(document), (0, aasaResponse_js_1.quoteEtag)(etag)) }, etag);
        if (entry !== undefined) {
            if (revision === undefined)
                delete entry.revision;
            else
                entry.revision = revision;
        }
        options.onUpdate?.({ host, kind, revision, etag, document });
        return true;
    };
    const follow = async (host, kind) => {
        let backoff = minBackoff;
        let failing = false;
        const signal = controller.signal;
        while (!closed) {
            const entry = entries.get(key(host, kind));
            let watching = false;
            try {
                if (entry === undefined)
                    return;
                if (!entry.confirmed || entry.served.state !== "ready" || entry.rawEtag === undefined) {
                    const result = await client.associationsGet({ host, kind }, { signal, timeoutMs: getDeadline });
                    publish(host, kind, result.etag, result.document, result.revision);
                }
                else if (refresh === undefined) {
                    return;
                }
                else {
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
                        }
                        else {
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
            }
            catch (error) {
                if (closed)
                    return;
                if (entry !== undefined)
                    entry.lastError = error;
                if (error instanceof errors_js_1.RegistryError && error.code === errors_js_1.Status.NOT_FOUND)
                    confirm(host, kind, { state: "absent" });
                if (options.onError)
                    options.onError(error, { host, kind });
                else if (!failing)
                    console.warn(`aasaHandler: ${kind} for ${host}: ${String(error)}; retrying`);
                failing = true;
                // A long poll past its deadline means a dead connection, not a failing registry: reconnect at once.
                if (watching && error instanceof errors_js_1.RegistryError && error.code === errors_js_1.Status.DEADLINE_EXCEEDED)
                    continue;
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
    const lookup = (host, kind) => entries.get(key(host, kind))?.served;
    const respond = (method, path, headers) => {
        const hostHeader = headers.host;
        const host = (0, linkUrl_js_1.normalizeHost)(Array.isArray(hostHeader) ? hostHeader[0] ?? "" : hostHeader ?? "");
        return (0, aasaResponse_js_1.answer)(method, path, host, headers["if-none-match"], lookup, kinds, cacheControl);
    };
    const handler = ((req, res, next) => {
        const result = respond(req.method, (0, aasaResponse_js_1.pathOf)(req.originalUrl ?? req.url), req.headers);
        if (result === undefined) {
            if (next)
                next();
            else
                write(res, { status: 404, headers: [["Content-Type", "text/plain; charset=utf-8"]], body: "not found\n" });
            return;
        }
        write(res, result);
    });
    handler.fastify = (0, fastifyPlugin_js_1.fastifyPlugin)(kinds, (method, path, headers) => respond(method, path, headers));
    handler.ready = ({ timeoutMs } = {}) => {
        if (pending === 0)
            return Promise.resolve();
        if (closed)
            return Promise.reject(new errors_js_1.RegistryError(errors_js_1.Status.CANCELLED, "aasaHandler: closed before it was ready"));
        return new Promise((resolve, reject) => {
            let timer;
            const waiter = {
                resolve: () => { clearTimeout(timer); readyWaiters.delete(waiter); resolve(); },
                reject: (error) => { clearTimeout(timer); readyWaiters.delete(waiter); reject(error); },
            };
            readyWaiters.add(waiter);
            if (timeoutMs !== undefined)
                timer = setTimeout(() => waiter.reject(notReady(entries, timeoutMs)), timeoutMs);
        });
    };
    handler.close = () => {
        if (closed)
            return;
        closed = true;
        controller.abort();
        for (const wake of [...sleepers])
            wake();
        for (const waiter of [...readyWaiters])
            waiter.reject(new errors_js_1.RegistryError(errors_js_1.Status.CANCELLED, "aasaHandler: closed before it was ready"));
    };
    return handler;
}
exports.aasaHandler = aasaHandler;
function served(body, etag) {
    return { body, length: String(new TextEncoder().encode(body).byteLength), etag };
}
function notReady(entries, timeoutMs) {
    const missing = [...entries].filter(([, entry]) => !entry.confirmed);
    const reasons = missing.map(([name, entry]) => (entry.lastError === undefined ? name : `${name} (${String(entry.lastError)})`));
    const cause = missing.find(([, entry]) => entry.lastError !== undefined)?.[1].lastError;
    return new errors_js_1.RegistryError(errors_js_1.Status.DEADLINE_EXCEEDED, `aasaHandler: not ready after ${timeoutMs} ms: no answer yet for ${reasons.join(", ")}`, cause === undefined ? {} : { cause });
}
function defaultClient(options) {
    if (options.server === undefined)
        throw new TypeError("aasaHandler needs `server` or `client`");
    const clientOptions = { server: options.server, retries: 0 };
    if (options.token !== undefined)
        clientOptions.token = options.token;
    if (options.fetch !== undefined)
        clientOptions.fetch = options.fetch;
    return new client_js_1.RouteRegistryClient(clientOptions);
}
function write(res, result) {
    res.statusCode = result.status;
    for (const [name, value] of result.headers)
        res.setHeader(name, value);
    res.end(result.body);
}
