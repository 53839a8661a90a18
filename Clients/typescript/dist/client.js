import { METHOD_NAMES, clientMethodName } from "./api.js";
import { ProtocolError, RegistryError, STATUS_NAMES, Status } from "./errors.js";
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
        const fetchImpl = options.fetch ?? (typeof fetch === "function" ? fetch : undefined);
        if (fetchImpl === undefined)
            throw new TypeError("no fetch available: pass options.fetch (Node 18+ has one)");
        this.fetchImpl = fetchImpl;
    }
    /** Calls `method` by its wire name; the typed methods are shorthands for this. */
    async call(method, params, options = {}) {
        const request = { jsonrpc: "2.0", id: this.nextId++, method };
        if (params !== undefined)
            request.params = params;
        else if (method !== "rpc.discover")
            request.params = {};
        const headers = { "Content-Type": "application/json", Accept: "application/json" };
        if (this.token !== undefined)
            headers.Authorization = `Bearer ${this.token}`;
        const timeoutMs = options.timeoutMs ?? this.timeoutMs;
        if (timeoutMs !== undefined)
            headers["X-Request-Timeout-Ms"] = String(Math.max(1, Math.round(timeoutMs)));
        const controller = new AbortController();
        let timedOut = false;
        const timer = timeoutMs === undefined ? undefined : setTimeout(() => {
            timedOut = true;
            controller.abort();
        }, timeoutMs);
        const onAbort = () => controller.abort();
        options.signal?.addEventListener("abort", onAbort, { once: true });
        if (options.signal?.aborted)
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
                throw new RegistryError(Status.DEADLINE_EXCEEDED, `${method}: deadline of ${timeoutMs} ms exceeded`, { method, cause: error });
            if (options.signal?.aborted)
                throw new RegistryError(Status.CANCELLED, `${method}: cancelled`, { method, cause: error });
            const reason = error instanceof Error ? error.message : String(error);
            throw new RegistryError(Status.UNAVAILABLE, `${method}: registry unreachable (${reason})`, { method, cause: error });
        }
        finally {
            if (timer !== undefined)
                clearTimeout(timer);
            options.signal?.removeEventListener("abort", onAbort);
        }
        return decodeResponse(method, status, statusText, text);
    }
}
/** Every wire method name the client speaks, in the OpenRPC document's order. */
RouteRegistryClient.methods = METHOD_NAMES;
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
    if (code <= -32000 && code >= -32768)
        return new ProtocolError(code, message, { data: error.data, method });
    const data = (typeof error.data === "object" && error.data !== null ? error.data : {});
    const statusName = typeof data.status === "string" ? data.status : STATUS_NAMES[code] ?? "UNKNOWN";
    const details = Array.isArray(data.details) ? data.details.filter((d) => typeof d === "object" && d !== null) : [];
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
