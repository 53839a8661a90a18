import { METHOD_INFO, METHOD_NAMES, clientMethodName } from "./api.js";
import { ProtocolError, RegistryError, STATUS_NAMES, Status } from "./errors.js";
import { resolveSettings } from "./settings.js";
import { createLinkWith, landingData } from "./links.js";
/**
 * A JSON-RPC 2.0 client for the registry: `appsCreate`, `routesCreate`, `releasesPublish`, `canOpenCheck`,
 * `associationsWatch`, ... Application errors reject with `RegistryError` (gRPC code and status name),
 * protocol errors with `ProtocolError`.
 */
export class RouteRegistryClient {
    constructor(options) {
        this.nextId = 1;
        const base = options.server.replace(/\/+$/, "");
        this.endpoint = base.endsWith("/rpc") ? base : `${base}/rpc`;
        if (options.token !== undefined)
            this.token = options.token;
        if (options.timeoutMs !== undefined)
            this.timeoutMs = options.timeoutMs;
        this.retries = Math.max(0, options.retries ?? 2);
        this.minBackoffMs = options.minBackoffMs ?? 100;
        this.maxBackoffMs = options.maxBackoffMs ?? 2000;
        const fetchImpl = options.fetch ?? (typeof fetch === "function" ? fetch : undefined);
        if (fetchImpl === undefined)
            throw new TypeError("no fetch available: pass options.fetch (Node 18+ has one)");
        this.fetchImpl = fetchImpl;
    }
    /**
     * A client configured as the `routereg` CLI is: `ROUTEREG_SERVER` / `ROUTEREG_TOKEN`, else the CLI's config
     * file (`$ROUTEREG_CONFIG`, else `$XDG_CONFIG_HOME/routereg/config.json`, else `~/.config/routereg/config.json`,
     * holding `{"server": ..., "token": ...}`), else `http://127.0.0.1:8080` without a token; `overrides` win over
     * all of them. `env` is Node's `process.env` by default. Throws an Error naming the file when it is malformed.
     */
    static fromEnv(overrides = {}, env) {
        const variables = env ?? globalThis.process?.env ?? {};
        return new RouteRegistryClient({ ...resolveSettings(variables), ...overrides });
    }
    /** Calls `method` by its wire name; the typed methods are shorthands for this. */
    async call(method, params, options = {}) {
        const info = METHOD_INFO[method];
        let wire = params;
        if (info?.requestId && (params === undefined || !("requestId" in params))) {
            wire = { ...params, requestId: randomRequestId() };
        }
        const timeoutMs = options.timeoutMs ?? this.timeoutMs;
        const deadline = timeoutMs === undefined ? undefined : Date.now() + timeoutMs;
        for (let attempt = 0;; attempt++) {
            const remaining = deadline === undefined ? undefined : Math.max(1, deadline - Date.now());
            try {
                return (await this.send(method, wire, options.signal, remaining, timeoutMs));
            }
            catch (error) {
                if (attempt >= this.retries || !mayRetry(error, info))
                    throw error;
                const delay = Math.min(this.maxBackoffMs, this.minBackoffMs * 2 ** attempt) * (0.5 + Math.random() / 2);
                if ((deadline !== undefined && Date.now() + delay >= deadline) || options.signal?.aborted)
                    throw error;
                await new Promise((resolve) => setTimeout(() => resolve(undefined), delay));
            }
        }
    }
    createLink(app, linkOrLinks, options = {}) {
        return Array.isArray(linkOrLinks)
            ? createLinkWith(this, app, linkOrLinks, options)
            : createLinkWith(this, app, linkOrLinks, options);
    }
    /**
     * The landing page's data for `https://{domain}/{code}` as a phone of `platform` would see it (`landingData`):
     * the link (`Links.Get`) and its app (`Apps.Get`), both needing a reader token, and, with `version`, the
     * registry's resolution for that app version (`Links.Resolve`: its minimum version, why, and the decision).
     */
    async linkLanding(domain, code, visitor = {}, options = {}) {
        const link = await this.call("Links.Get", { domain, code }, options);
        const app = await this.call("Apps.Get", { app: link.app }, options);
        const { platform, version } = visitor;
        const resolution = platform && version
            ? await this.call("Links.Resolve", { url: link.shortUrl, platform, version }, options)
            : undefined;
        return landingData({ link, app, ...(platform ? { platform } : {}), ...(resolution ? { resolution } : {}) });
    }
    /** Every page of a paged list method (`"Routes.List"`, ...), following `nextPageToken`. */
    async *pages(method, params, options = {}) {
        const seen = new Set();
        let pageToken;
        for (;;) {
            const page = (await this.call(method, { ...params, ...(pageToken ? { pageToken } : {}) }, options));
            yield page;
            pageToken = page.nextPageToken || undefined;
            if (pageToken === undefined)
                return;
            if (seen.has(pageToken))
                throw new ProtocolError(-32603, `${method} returned the page token ${pageToken} twice`, { method });
            seen.add(pageToken);
        }
    }
    /** Every item of a paged list method, fetching pages as needed: `for await (const r of client.items("Routes.List", { app }))`. */
    async *items(method, params, options = {}) {
        const key = METHOD_INFO[method].pageItems;
        for await (const page of this.pages(method, params, options)) {
            for (const item of page[key] ?? [])
                yield item;
        }
    }
    async send(method, params, signal, timeoutMs, budgetMs) {
        const request = { jsonrpc: "2.0", id: this.nextId++, method };
        if (params !== undefined)
            request.params = params;
        else if (method !== "rpc.discover")
            request.params = {};
        const headers = { "Content-Type": "application/json", Accept: "application/json" };
        if (this.token !== undefined)
            headers.Authorization = `Bearer ${this.token}`;
        if (timeoutMs !== undefined)
            headers["X-Request-Timeout-Ms"] = String(Math.max(1, Math.round(timeoutMs)));
        const controller = new AbortController();
        let timedOut = false;
        const timer = timeoutMs === undefined ? undefined : setTimeout(() => {
            timedOut = true;
            controller.abort();
        }, timeoutMs);
        const onAbort = () => controller.abort();
        signal?.addEventListener("abort", onAbort, { once: true });
        if (signal?.aborted)
            controller.abort();
        let status;
        let statusText;
        let text;
        try {
            const response = await this.fetchImpl(this.endpoint, {
                method: "POST",
                headers,
                body: JSON.stringify(request),
                signal: controller.signal,
            });
            status = response.status;
            statusText = response.statusText;
            text = await response.text();
        }
        catch (error) {
            if (timedOut)
                throw new RegistryError(Status.DEADLINE_EXCEEDED, `${method}: deadline of ${budgetMs} ms exceeded`, { method, cause: error });
            if (signal?.aborted)
                throw new RegistryError(Status.CANCELLED, `${method}: cancelled`, { method, cause: error });
            const reason = error instanceof Error ? error.message : String(error);
            const unreachable = new RegistryError(Status.UNAVAILABLE, `${method}: registry unreachable (${reason})`, { method, cause: error });
            if (connectionRefused(error))
                notSent.add(unreachable);
            throw unreachable;
        }
        finally {
            if (timer !== undefined)
                clearTimeout(timer);
            signal?.removeEventListener("abort", onAbort);
        }
        return decodeResponse(method, status, statusText, text);
    }
}
/** Every wire method name the client speaks, in the OpenRPC document's order. */
RouteRegistryClient.methods = METHOD_NAMES;
/** Errors of calls that certainly never reached the server (their connection was refused). */
const notSent = new WeakSet();
/** Only UNAVAILABLE is retried, and only when repeating cannot apply a write twice. */
function mayRetry(error, info) {
    if (!(error instanceof RegistryError) || error.code !== Status.UNAVAILABLE)
        return false;
    return notSent.has(error) || info?.readOnly === true || info?.requestId === true;
}
function connectionRefused(error) {
    const cause = error?.cause;
    return typeof cause?.code === "string" && ["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN"].includes(cause.code);
}
/** A random idempotency key: the global Web Crypto's UUID where there is one (Node 19+), else 128 random bits. */
function randomRequestId() {
    const webCrypto = globalThis.crypto;
    if (typeof webCrypto?.randomUUID === "function")
        return webCrypto.randomUUID();
    let id = "";
    for (let i = 0; i < 4; i++)
        id += Math.floor(Math.random() * 0x100000000).toString(16).padStart(8, "0");
    return id;
}
for (const method of METHOD_NAMES) {
    Object.defineProperty(RouteRegistryClient.prototype, clientMethodName(method), {
        value: function (params, options) {
            return this.call(method, params, options);
        },
        writable: true,
        configurable: true,
    });
}
function decodeResponse(method, status, statusText, text) {
    let body;
    try {
        body = JSON.parse(text);
    }
    catch {
        throw new RegistryError(codeForHTTPStatus(status), `${method}: HTTP ${status} ${statusText} without a JSON-RPC body`, { method });
    }
    if (typeof body !== "object" || body === null || Array.isArray(body)) {
        throw new ProtocolError(-32603, `${method}: the response is not a JSON-RPC response object`, { method });
    }
    const envelope = body;
    if (envelope.error !== undefined)
        throw errorFrom(method, envelope.error);
    if (!("result" in envelope)) {
        throw new ProtocolError(-32603, `${method}: the response has neither result nor error`, { method });
    }
    return envelope.result;
}
function errorFrom(method, raw) {
    const error = (typeof raw === "object" && raw !== null ? raw : {});
    const code = typeof error.code === "number" ? error.code : Status.UNKNOWN;
    const message = typeof error.message === "string" ? error.message : "unknown error";
    const data = (typeof error.data === "object" && error.data !== null ? error.data : {});
    const details = Array.isArray(data.details) ? data.details.filter((d) => typeof d === "object" && d !== null) : [];
    if (code <= -32000 && code >= -32768) {
        // Params the server could not decode at all (-32602 naming INVALID_ARGUMENT) are bad input like any other:
        // one family for callers, as in the Python client.
        if (code === -32602 && data.status === "INVALID_ARGUMENT") {
            return new RegistryError(Status.INVALID_ARGUMENT, message, { status: data.status, details, method, jsonrpcCode: code });
        }
        return new ProtocolError(code, message, { data: error.data, method });
    }
    const statusName = typeof data.status === "string" ? data.status : STATUS_NAMES[code] ?? "UNKNOWN";
    return new RegistryError(code, message, { status: statusName, details, method });
}
/** A reply that is not JSON-RPC (a proxy's error page, say) still gets the closest gRPC status. */
function codeForHTTPStatus(status) {
    switch (status) {
        case 400: return Status.INVALID_ARGUMENT;
        case 401: return Status.UNAUTHENTICATED;
        case 403: return Status.PERMISSION_DENIED;
        case 404: return Status.UNIMPLEMENTED;
        case 429: return Status.RESOURCE_EXHAUSTED;
        case 502:
        case 503:
        case 504: return Status.UNAVAILABLE;
        default: return status >= 500 ? Status.INTERNAL : Status.UNKNOWN;
    }
}
