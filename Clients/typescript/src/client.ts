import { METHOD_NAMES, clientMethodName } from "./api.js";
import type { ClientMethodName, MethodName, RegistryApi } from "./api.js";
import { ProtocolError, RegistryError, STATUS_NAMES, Status } from "./errors.js";
import type { ErrorDetail } from "./errors.js";

/** The part of an `AbortSignal` the client needs (structural, so any fetch implementation's signal fits). */
export interface AbortSignalLike {
  readonly aborted: boolean;
  addEventListener(type: "abort", listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: "abort", listener: () => void): void;
}

/** The part of the WHATWG `fetch` the client uses; Node 18+'s global `fetch` fits. */
export type FetchFunction = (
  url: string,
  init: { method: string; headers: Record<string, string>; body: string; signal?: AbortSignalLike },
) => Promise<{ ok: boolean; status: number; statusText: string; text(): Promise<string> }>;

/** How to reach the registry. */
export interface ClientOptions {
  /** The server's base URL (`http://127.0.0.1:8080`); `/rpc` is appended unless already there. */
  server: string;
  /** A bearer token; needed for every method that is not public. */
  token?: string;
  /** A `fetch` implementation; the global one by default. */
  fetch?: FetchFunction;
  /** A deadline for every call, in milliseconds, unless the call sets its own (none by default). */
  timeoutMs?: number;
}

/** Per-call options. */
export interface CallOptions {
  /** Aborts the call; it then fails with CANCELLED. */
  signal?: AbortSignalLike;
  /** Deadline in milliseconds: sent as `X-Request-Timeout-Ms` and enforced locally (DEADLINE_EXCEEDED). */
  timeoutMs?: number;
}

type Params<M extends MethodName> = RegistryApi[M]["params"];
type Result<M extends MethodName> = RegistryApi[M]["result"];

/** One typed method per API method: `Routes.SwitchOff` is `routesSwitchOff(params, options?)`. */
export type RegistryMethods = {
  [M in MethodName as ClientMethodName<M>]: {} extends Params<M>
    ? (params?: Params<M>, options?: CallOptions) => Promise<Result<M>>
    : (params: Params<M>, options?: CallOptions) => Promise<Result<M>>;
};

// The class gets its typed methods from this merged interface; they are defined on the prototype below,
// from METHOD_NAMES, so the API is described once.
export interface RouteRegistryClient extends RegistryMethods {}

/**
 * A JSON-RPC 2.0 client for the registry: `appsCreate`, `routesCreate`, `releasesPublish`, `canOpenCheck`,
 * `associationsWatch`, ... Application errors reject with `RegistryError` (gRPC code and status name),
 * protocol errors with `ProtocolError`.
 */
export class RouteRegistryClient {
  /** Every wire method name the client speaks, in the OpenRPC document's order. */
  static readonly methods: readonly MethodName[] = METHOD_NAMES;

  private readonly endpoint: string;
  private readonly token?: string;
  private readonly fetchImpl: FetchFunction;
  private readonly timeoutMs?: number;
  private nextId = 1;

  constructor(options: ClientOptions) {
    const base = options.server.replace(/\/+$/, "");
    this.endpoint = base.endsWith("/rpc") ? base : `${base}/rpc`;
    if (options.token !== undefined) this.token = options.token;
    if (options.timeoutMs !== undefined) this.timeoutMs = options.timeoutMs;
    const fetchImpl = options.fetch ?? (typeof fetch === "function" ? (fetch as unknown as FetchFunction) : undefined);
    if (fetchImpl === undefined) throw new TypeError("no fetch available: pass options.fetch (Node 18+ has one)");
    this.fetchImpl = fetchImpl;
  }

  /** Calls `method` by its wire name; the typed methods are shorthands for this. */
  async call<M extends MethodName>(method: M, params?: Params<M>, options: CallOptions = {}): Promise<Result<M>> {
    const request: Record<string, unknown> = { jsonrpc: "2.0", id: this.nextId++, method };
    if (params !== undefined) request.params = params;
    else if (method !== "rpc.discover") request.params = {};
    const headers: Record<string, string> = { "Content-Type": "application/json", Accept: "application/json" };
    if (this.token !== undefined) headers.Authorization = `Bearer ${this.token}`;
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    if (timeoutMs !== undefined) headers["X-Request-Timeout-Ms"] = String(Math.max(1, Math.round(timeoutMs)));

    const controller = new AbortController();
    let timedOut = false;
    const timer = timeoutMs === undefined ? undefined : setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onAbort = (): void => controller.abort();
    options.signal?.addEventListener("abort", onAbort, { once: true });
    if (options.signal?.aborted) controller.abort();

    let status: number;
    let statusText: string;
    let text: string;
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
    } catch (error) {
      if (timedOut) throw new RegistryError(Status.DEADLINE_EXCEEDED, `${method}: deadline of ${timeoutMs} ms exceeded`, { method, cause: error });
      if (options.signal?.aborted) throw new RegistryError(Status.CANCELLED, `${method}: cancelled`, { method, cause: error });
      const reason = error instanceof Error ? error.message : String(error);
      throw new RegistryError(Status.UNAVAILABLE, `${method}: registry unreachable (${reason})`, { method, cause: error });
    } finally {
      if (timer !== undefined) clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
    }
    return decodeResponse(method, status, statusText, text) as Result<M>;
  }
}

for (const method of METHOD_NAMES) {
  Object.defineProperty(RouteRegistryClient.prototype, clientMethodName(method), {
    value: function (this: RouteRegistryClient, params?: unknown, options?: CallOptions) {
      return this.call(method, params as never, options);
    },
    writable: true,
    configurable: true,
  });
}

function decodeResponse(method: string, status: number, statusText: string, text: string): unknown {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new RegistryError(codeForHTTPStatus(status), `${method}: HTTP ${status} ${statusText} without a JSON-RPC body`, { method });
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new ProtocolError(-32603, `${method}: the response is not a JSON-RPC response object`, { method });
  }
  const envelope = body as { result?: unknown; error?: unknown };
  if (envelope.error !== undefined) throw errorFrom(method, envelope.error);
  if (!("result" in envelope)) {
    throw new ProtocolError(-32603, `${method}: the response has neither result nor error`, { method });
  }
  return envelope.result;
}

function errorFrom(method: string, raw: unknown): Error {
  const error = (typeof raw === "object" && raw !== null ? raw : {}) as { code?: unknown; message?: unknown; data?: unknown };
  const code = typeof error.code === "number" ? error.code : Status.UNKNOWN;
  const message = typeof error.message === "string" ? error.message : "unknown error";
  if (code <= -32000 && code >= -32768) return new ProtocolError(code, message, { data: error.data, method });
  const data = (typeof error.data === "object" && error.data !== null ? error.data : {}) as { status?: unknown; details?: unknown };
  const statusName = typeof data.status === "string" ? data.status : STATUS_NAMES[code] ?? "UNKNOWN";
  const details = Array.isArray(data.details) ? (data.details.filter((d) => typeof d === "object" && d !== null) as ErrorDetail[]) : [];
  return new RegistryError(code, message, { status: statusName, details, method });
}

/** A reply that is not JSON-RPC (a proxy's error page, say) still gets the closest gRPC status. */
function codeForHTTPStatus(status: number): number {
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
