import type { ClientMethodName, MethodName, PagedMethodName, RegistryApi } from "./api.js";
import type { CreateLinkOptions, LandingData } from "./links.js";
import type { Platform, ShortLink, ShortLinkOutput } from "./generated/api.js";
/** The part of an `AbortSignal` the client needs (structural, so any fetch implementation's signal fits). */
export interface AbortSignalLike {
    readonly aborted: boolean;
    addEventListener(type: "abort", listener: () => void, options?: {
        once?: boolean;
    }): void;
    removeEventListener(type: "abort", listener: () => void): void;
}
/** The part of the WHATWG `fetch` the client uses; Node 18+'s global `fetch` fits. */
export declare type FetchFunction = (url: string, init: {
    method: string;
    headers: Record<string, string>;
    body: string;
    signal?: AbortSignalLike;
}) => Promise<{
    ok: boolean;
    status: number;
    statusText: string;
    text(): Promise<string>;
}>;
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
export declare type Environment = Record<string, string | undefined>;
/** Per-call options. */
export interface CallOptions {
    /** Aborts the call; it then fails with CANCELLED. */
    signal?: AbortSignalLike;
    /** Deadline in milliseconds: sent as `X-Request-Timeout-Ms` and enforced locally (DEADLINE_EXCEEDED). */
    timeoutMs?: number;
}
declare type Params<M extends MethodName> = RegistryApi[M]["params"];
declare type Result<M extends MethodName> = RegistryApi[M]["result"];
/** The item type of a paged list method's result (its one array). */
export declare type PageItem<M extends PagedMethodName> = {
    [K in keyof Result<M>]-?: NonNullable<Result<M>[K]> extends readonly (infer T)[] ? T : never;
}[keyof Result<M>];
/** One typed method per API method: `Routes.SwitchOff` is `routesSwitchOff(params, options?)`. */
export declare type RegistryMethods = {
    [M in MethodName as ClientMethodName<M>]: {} extends Params<M> ? (params?: Params<M>, options?: CallOptions) => Promise<Result<M>> : (params: Params<M>, options?: CallOptions) => Promise<Result<M>>;
};
export interface RouteRegistryClient extends RegistryMethods {
}
/**
 * A JSON-RPC 2.0 client for the registry: `appsCreate`, `routesCreate`, `releasesPublish`, `canOpenCheck`,
 * `associationsWatch`, ... Application errors reject with `RegistryError` (gRPC code and status name),
 * protocol errors with `ProtocolError`.
 */
export declare class RouteRegistryClient {
    /** Every wire method name the client speaks, in the OpenRPC document's order. */
    static readonly methods: readonly MethodName[];
    private readonly endpoint;
    private readonly token?;
    private readonly fetchImpl;
    private readonly timeoutMs?;
    private readonly retries;
    private readonly minBackoffMs;
    private readonly maxBackoffMs;
    private nextId;
    /**
     * A client configured as the `routereg` CLI is: `ROUTEREG_SERVER` / `ROUTEREG_TOKEN`, else the CLI's config
     * file (`$ROUTEREG_CONFIG`, else `$XDG_CONFIG_HOME/routereg/config.json`, else `~/.config/routereg/config.json`,
     * holding `{"server": ..., "token": ...}`), else `http://127.0.0.1:8080` without a token; `overrides` win over
     * all of them. `env` is Node's `process.env` by default. Throws an Error naming the file when it is malformed.
     */
    static fromEnv(overrides?: Partial<ClientOptions>, env?: Environment): RouteRegistryClient;
    constructor(options: ClientOptions);
    /** Calls `method` by its wire name; the typed methods are shorthands for this. */
    call<M extends MethodName>(method: M, params?: Params<M>, options?: CallOptions): Promise<Result<M>>;
    /**
     * Creates a short link (`Links.Create`), or many (`Links.BatchCreate`, all or none per 1000), for a campaign
     * pipeline: one `requestId` for the whole call (yours, e.g. the campaign's ID, or a random one), the same on
     * every attempt, and a call whose outcome is unknown (UNAVAILABLE, DEADLINE_EXCEEDED, ABORTED) is retried, so
     * no link is ever created twice; a rerun with the same `requestId` and links returns the first links (other
     * links with it are refused, INVALID_ARGUMENT on `requestId`).
     */
    createLink(app: string, link: ShortLink, options?: CreateLinkOptions): Promise<ShortLinkOutput>;
    createLink(app: string, links: readonly ShortLink[], options?: CreateLinkOptions): Promise<ShortLinkOutput[]>;
    /**
     * The landing page's data for `https://{domain}/{code}` as a phone of `platform` would see it (`landingData`):
     * the link (`Links.Get`) and its app (`Apps.Get`), both needing a reader token, and, with `version`, the
     * registry's resolution for that app version (`Links.Resolve`: its minimum version, why, and the decision).
     */
    linkLanding(domain: string, code: string, visitor?: {
        platform?: Platform;
        version?: string;
    }, options?: CallOptions): Promise<LandingData>;
    /** Every page of a paged list method (`"Routes.List"`, ...), following `nextPageToken`. */
    pages<M extends PagedMethodName>(method: M, params?: Params<M>, options?: CallOptions): AsyncGenerator<Result<M>>;
    /** Every item of a paged list method, fetching pages as needed: `for await (const r of client.items("Routes.List", { app }))`. */
    items<M extends PagedMethodName>(method: M, params?: Params<M>, options?: CallOptions): AsyncGenerator<PageItem<M>>;
    private send;
}
export {};
