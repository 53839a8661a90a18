import { METHOD_INFO, METHOD_NAMES, clientMethodName } from "./api.js";
import type { ClientMethodName, MethodInfo, MethodName, PagedMethodName, RegistryApi } from "./api.js";
import { ProtocolError, RegistryError, STATUS_NAMES, Status } from "./errors.js";
import type { ErrorDetail } from "./errors.js";
import { resolveSettings } from "./settings.js";
import { createLinkWith, landingData } from "./links.js";
import type { CreateLinkOptions, LandingData } from "./links.js";
import type { Platform, ShortLink, ShortLinkOutput } from "./generated/api.js";

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
  /** A deadline for every call, in milliseconds, retries included, unless the call sets its own (none by default). */
  timeoutMs?: number;
  /**
   * How many times a call is repeated after UNAVAILABLE (default 2), with exponential backoff. Only when it is
   * safe: a read; a write that takes an idempotency `requestId` (one random id per call, the same on every
   * attempt, so the server applies it once); or any call whose connection was refused (nothing was sent).
   */
  retries?: number;
  /** First retry delay in ms (default 100); doubles per attempt, with jitter. */
  minBackoffMs?: number;
  /** Longest retry delay in ms (default 2000). */
  maxBackoffMs?: number;
}

/** The environment `fromEnv` reads (Node's `process.env` by default). */
export type Environment = Record<string, string | undefined>;

/** Per-call options. */
export interface CallOptions {
  /** Aborts the call; it then fails with CANCELLED. */
  signal?: AbortSignalLike;
  /** Deadline in milliseconds: sent as `X-Request-Timeout-Ms` and enforced locally (DEADLINE_EXCEEDED). */
  timeoutMs?: number;
}

type Params<M extends MethodName> = RegistryApi[M]["params"];
type Result<M extends MethodName> = RegistryApi[M]["result"];
/** The item type of a paged list method's result (its one array). */
export type PageItem<M extends PagedMethodName> = {
  [K in keyof Result<M>]-?: NonNullable<Result<M>[K]> extends readonly (infer T)[] ? T : never;
}[keyof Result<M>];

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
  private readonly retries: number;
  private readonly minBackoffMs: number;
  private readonly maxBackoffMs: number;
  private nextId = 1;

  /**
   * A client configured as the `routereg` CLI is: `ROUTEREG_SERVER` / `ROUTEREG_TOKEN`, else the CLI's config
   * file (`$ROUTEREG_CONFIG`, else `$XDG_CONFIG_HOME/routereg/config.json`, else `~/.config/routereg/config.json`,
   * holding `{"server": ..., "token": ...}`), else `http://127.0.0.1:8080` without a token; `overrides` win over
   * all of them. `env` is Node's `process.env` by default. Throws an Error naming the file when it is malformed.
   */
  static fromEnv(overrides: Partial<ClientOptions> = {}, env?: Environment): RouteRegistryClient {
    const variables = env ?? (globalThis as { process?: { env?: Environment } }).process?.env ?? {};
    return new RouteRegistryClient({ ...resolveSettings(variables), ...overrides });
  }

  constructor(options: ClientOptions) {
    const base = options.server.replace(/\/+$/, "");
    this.endpoint = base.endsWith("/rpc") ? base : `${base}/rpc`;
    if (options.token !== undefined) this.token = options.token;
    if (options.timeoutMs !== undefined) this.timeoutMs = options.timeoutMs;
    this.retries = Math.max(0, options.retries ?? 2);
    this.minBackoffMs = options.minBackoffMs ?? 100;
    this.maxBackoffMs = options.maxBackoffMs ?? 2000;
    const fetchImpl = options.fetch ?? (typeof fetch === "function" ? (fetch as unknown as FetchFunction) : undefined);
    if (fetchImpl === undefined) throw new TypeError("no fetch available: pass options.fetch (Node 18+ has one)");
    this.fetchImpl = fetchImpl;
  }

  /** Calls `method` by its wire name; the typed methods are shorthands for this. */
  async call<M extends MethodName>(method: M, params?: Params<M>, options: CallOptions = {}): Promise<Result<M>> {
    const info = (METHOD_INFO as Partial<Record<string, MethodInfo>>)[method];
    let wire: unknown = params;
    if (info?.requestId && (params === undefined || !("requestId" in (params as object)))) {
      wire = { ...(params as object | undefined), requestId: randomRequestId() };
    }
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    const deadline = timeoutMs === undefined ? undefined : Date.now() + timeoutMs;
    for (let attempt = 0; ; attempt++) {
      const remaining = deadline === undefined ? undefined : Math.max(1, deadline - Date.now());
      try {
        return (await this.send(method, wire, options.signal, remaining, timeoutMs)) as Result<M>;
      } catch (error) {
        if (attempt >= this.retries || !mayRetry(error, info)) throw error;
        const delay = Math.min(this.maxBackoffMs, this.minBackoffMs * 2 ** attempt) * (0.5 + Math.random() / 2);
        if ((deadline !== undefined && Date.now() + delay >= deadline) || options.signal?.aborted) throw error;
        await new Promise((resolve) => setTimeout(() => resolve(undefined), delay));
      }
    }
  }

  /**
   * Creates a short link (`Links.Create`), or many (`Links.BatchCreate`, all or none per 1000), for a campaign
   * pipeline: one `requestId` for the whole call (yours, e.g. the campaign's ID, or a random one), the same on
   * every attempt, and a call whose outcome is unknown (UNAVAILABLE, DEADLINE_EXCEEDED, ABORTED) is retried, so
   * no link is ever created twice; a rerun with the same `requestId` and links returns the first links (other
   * links with it are refused, INVALID_ARGUMENT on `requestId`).
   */
  createLink(app: string, link: ShortLink, options?: CreateLinkOptions): Promise<ShortLinkOutput>;
  createLink(app: string, links: readonly ShortLink[], options?: CreateLinkOptions): Promise<ShortLinkOutput[]>;
  createLink(app: string, linkOrLinks: ShortLink | readonly ShortLink[], options: CreateLinkOptions = {}): Promise<ShortLinkOutput | ShortLinkOutput[]> {
    return Array.isArray(linkOrLinks)
      ? createLinkWith(this, app, linkOrLinks as readonly ShortLink[], options)
      : createLinkWith(this, app, linkOrLinks as ShortLink, options);
  }

  /**
   * The landing page's data for `https://{domain}/{code}` as a phone of `platform` would see it (`landingData`):
   * the link (`Links.Get`) and its app (`Apps.Get`), both needing a reader token, and, with `version`, the
   * registry's resolution for that app version (`Links.Resolve`: its minimum version, why, and the decision).
   */
  async linkLanding(domain: string, code: string, visitor: { platform?: Platform; version?: string } = {}, options: CallOptions = {}): Promise<LandingData> {
    const link = await this.call("Links.Get", { domain, code }, options);
    const app = await this.call("Apps.Get", { app: link.app }, options);
    const { platform, version } = visitor;
    const resolution = platform && version
      ? await this.call("Links.Resolve", { url: link.shortUrl, platform, version }, options)
      : undefined;
    return landingData({ link, app, ...(platform ? { platform } : {}), ...(resolution ? { resolution } : {}) });
  }

  /** Every page of a paged list method (`"Routes.List"`, ...), following `nextPageToken`. */
  async *pages<M extends PagedMethodName>(method: M, params?: Params<M>, options: CallOptions = {}): AsyncGenerator<Result<M>> {
    const seen = new Set<string>();
    let pageToken: string | undefined;
    for (;;) {
      const page = (await this.call(method, { ...(params as object | undefined), ...(pageToken ? { pageToken } : {}) } as Params<M>, options)) as Result<M> & { nextPageToken?: string };
      yield page;
      pageToken = page.nextPageToken || undefined;
      if (pageToken === undefined) return;
      if (seen.has(pageToken)) throw new ProtocolError(-32603, `${method} returned the page token ${pageToken} twice`, { method });
      seen.add(pageToken);
    }
  }

  /** Every item of a paged list method, fetching pages as needed: `for await (const r of client.items("Routes.List", { app }))`. */
  async *items<M extends PagedMethodName>(method: M, params?: Params<M>, options: CallOptions = {}): AsyncGenerator<PageItem<M>> {
    const key = METHOD_INFO[method].pageItems as string;
    for await (const page of this.pages(method, params, options)) {
      for (const item of ((page as Record<string, unknown>)[key] as PageItem<M>[] | undefined) ?? []) yield item;
    }
  }

  private async send(method: string, params: unknown, signal: AbortSignalLike | undefined, timeoutMs: number | undefined, budgetMs: number | undefined): Promise<unknown> {
    const request: Record<string, unknown> = { jsonrpc: "2.0", id: this.nextId++, method };
    if (params !== undefined) request.params = params;
    else if (method !== "rpc.discover") request.params = {};
    const headers: Record<string, string> = { "Content-Type": "application/json", Accept: "application/json" };
    if (this.token !== undefined) headers.Authorization = `Bearer ${this.token}`;
    if (timeoutMs !== undefined) headers["X-Request-Timeout-Ms"] = String(Math.max(1, Math.round(timeoutMs)));

    const controller = new AbortController();
    let timedOut = false;
    const timer = timeoutMs === undefined ? undefined : setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onAbort = (): void => controller.abort();
    signal?.addEventListener("abort", onAbort, { once: true });
    if (signal?.aborted) controller.abort();

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
      if (timedOut) throw new RegistryError(Status.DEADLINE_EXCEEDED, `${method}: deadline of ${budgetMs} ms exceeded`, { method, cause: error });
      if (signal?.aborted) throw new RegistryError(Status.CANCELLED, `${method}: cancelled`, { method, cause: error });
      const reason = error instanceof Error ? error.message : String(error);
      const unreachable = new RegistryError(Status.UNAVAILABLE, `${method}: registry unreachable (${reason})`, { method, cause: error });
      if (connectionRefused(error)) notSent.add(unreachable);
      throw unreachable;
    } finally {
      if (timer !== undefined) clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    }
    return decodeResponse(method, status, statusText, text);
  }
}

/** Errors of calls that certainly never reached the server (their connection was refused). */
const notSent = new WeakSet<object>();

/** Only UNAVAILABLE is retried, and only when repeating cannot apply a write twice. */
function mayRetry(error: unknown, info: MethodInfo | undefined): boolean {
  if (!(error instanceof RegistryError) || error.code !== Status.UNAVAILABLE) return false;
  return notSent.has(error) || info?.readOnly === true || info?.requestId === true;
}

function connectionRefused(error: unknown): boolean {
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause;
  return typeof cause?.code === "string" && ["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN"].includes(cause.code);
}

/** A random idempotency key: the global Web Crypto's UUID where there is one (Node 19+), else 128 random bits. */
function randomRequestId(): string {
  const webCrypto = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  if (typeof webCrypto?.randomUUID === "function") return webCrypto.randomUUID();
  let id = "";
  for (let i = 0; i < 4; i++) id += Math.floor(Math.random() * 0x100000000).toString(16).padStart(8, "0");
  return id;
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
  const data = (typeof error.data === "object" && error.data !== null ? error.data : {}) as { status?: unknown; details?: unknown };
  const details = Array.isArray(data.details) ? (data.details.filter((d) => typeof d === "object" && d !== null) as ErrorDetail[]) : [];
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
