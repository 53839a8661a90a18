import type { App, AssociationDocument, AuditEntry, CanOpenTable, Decision, DocumentKind, Domain, LintFinding, MatrixRow, Page, PageParams, Platform, Release, ReleaseEventResult, ReleaseState, RevisionInfo, Role, Route, RuleDiff, Token, Version } from "./types.js";
declare type Empty = Record<string, never>;
declare type ReleaseKey = {
    app: string;
    platform: Platform;
    version: Version;
};
/** `Associations.Get`'s result. */
export interface AssociationResult {
    host: string;
    kind?: DocumentKind;
    revision: number;
    etag: string;
    cause?: string;
    createTime?: string;
    document: AssociationDocument;
}
/** `Associations.Watch`'s result: `document` is present when `notModified` is false. */
export interface WatchResult {
    host?: string;
    kind?: DocumentKind;
    revision?: number;
    etag: string;
    notModified: boolean;
    document?: AssociationDocument;
}
/**
 * Every method of the registry's JSON-RPC API with its params and result, in the order of
 * Schema/registry.openrpc.json. The client is generated from this table (one camelCase method per entry)
 * and a test checks its names against the OpenRPC document.
 */
export interface RegistryApi {
    "Apps.Create": {
        params: {
            app: App;
        };
        result: App;
    };
    "Apps.Get": {
        params: {
            app: string;
        };
        result: App;
    };
    "Apps.List": {
        params: PageParams;
        result: {
            apps: App[];
        } & Page;
    };
    "Apps.Update": {
        params: {
            app: App;
            etag?: string;
        };
        result: App;
    };
    "Apps.Delete": {
        params: {
            app: string;
            etag?: string;
        };
        result: Empty;
    };
    "Domains.Create": {
        params: {
            domain: Domain;
        };
        result: Domain;
    };
    "Domains.Get": {
        params: {
            host: string;
        };
        result: Domain;
    };
    "Domains.List": {
        params: {
            app?: string;
        } & PageParams;
        result: {
            domains: Domain[];
        } & Page;
    };
    "Domains.Delete": {
        params: {
            host: string;
            etag?: string;
        };
        result: Empty;
    };
    "Routes.Create": {
        params: {
            app: string;
            route: Route;
            before?: string;
        };
        result: Route;
    };
    "Routes.BatchCreate": {
        params: {
            app: string;
            routes: Route[];
            before?: string;
        };
        result: {
            routes: Route[];
        };
    };
    "Routes.Get": {
        params: {
            app: string;
            route: string;
        };
        result: Route;
    };
    "Routes.List": {
        params: {
            app: string;
        } & PageParams;
        result: {
            routes: Route[];
        } & Page;
    };
    "Routes.Update": {
        params: {
            app: string;
            route: Route;
            etag?: string;
        };
        result: Route;
    };
    "Routes.Delete": {
        params: {
            app: string;
            route: string;
            etag?: string;
        };
        result: Empty;
    };
    "Routes.Reorder": {
        params: {
            app: string;
            order: string[];
        };
        result: {
            routes: Route[];
        };
    };
    "Routes.SwitchOff": {
        params: {
            app: string;
            route: string;
            platform: Platform;
            versions: Version[];
            reason?: string;
        };
        result: Route;
    };
    "Routes.SwitchOn": {
        params: {
            app: string;
            route: string;
            platform: Platform;
            versions: Version[];
        };
        result: Route;
    };
    "Releases.Create": {
        params: ReleaseKey;
        result: Release;
    };
    "Releases.Publish": {
        params: ReleaseKey;
        result: ReleaseEventResult;
    };
    "Releases.Retire": {
        params: ReleaseKey;
        result: ReleaseEventResult;
    };
    "Releases.Get": {
        params: ReleaseKey;
        result: Release;
    };
    "Releases.List": {
        params: {
            app: string;
            platform?: Platform;
            state?: ReleaseState;
        } & PageParams;
        result: {
            releases: Release[];
        } & Page;
    };
    "Associations.Get": {
        params: {
            host: string;
            kind?: DocumentKind;
            revision?: number;
        };
        result: AssociationResult;
    };
    "Associations.ListRevisions": {
        params: {
            host: string;
            kind?: DocumentKind;
        } & PageParams;
        result: {
            revisions: RevisionInfo[];
        } & Page;
    };
    "Associations.Diff": {
        params: {
            host: string;
            kind?: DocumentKind;
            fromRevision: number;
            toRevision: number;
        };
        result: RuleDiff;
    };
    "Associations.Preview": {
        params: ReleaseKey & {
            action: "publish" | "retire";
        };
        result: {
            documents: {
                host: string;
                kind?: DocumentKind;
                etag: string;
                changed: boolean;
                document: AssociationDocument;
                diff?: RuleDiff;
            }[];
            lint: LintFinding[];
        };
    };
    "Associations.Watch": {
        params: {
            host: string;
            kind?: DocumentKind;
            ifNoneMatch?: string;
            timeoutMs?: number;
        };
        result: WatchResult;
    };
    "CanOpen.GetTable": {
        params: ReleaseKey & {
            ifNoneMatch?: string;
        };
        result: {
            etag: string;
            notModified: boolean;
            table?: CanOpenTable;
        };
    };
    "CanOpen.Check": {
        params: ReleaseKey & {
            url: string;
        };
        result: Decision;
    };
    "Matrix.Get": {
        params: {
            app: string;
            platform: Platform;
        };
        result: {
            app?: string;
            platform?: Platform;
            versions: Version[];
            routes: MatrixRow[];
        };
    };
    "Tokens.Create": {
        params: {
            token: {
                displayName: string;
                role: Role;
            };
        };
        result: {
            token: Token;
            secret: string;
        };
    };
    "Tokens.List": {
        params: PageParams;
        result: {
            tokens: Token[];
        } & Page;
    };
    "Tokens.Revoke": {
        params: {
            id: string;
        };
        result: Token;
    };
    "Audit.List": {
        params: {
            resource?: string;
        } & PageParams;
        result: {
            entries: AuditEntry[];
        } & Page;
    };
    "rpc.discover": {
        params: Empty;
        result: {
            openrpc: string;
            info: Record<string, unknown>;
            methods: unknown[];
        };
    };
}
/** A wire method name (`Service.Method`). */
export declare type MethodName = keyof RegistryApi;
/** The client method name for a wire name: `Routes.SwitchOff` → `routesSwitchOff`, `rpc.discover` → `rpcDiscover`. */
export declare type ClientMethodName<M extends string> = M extends `${infer S}.${infer N}` ? `${Uncapitalize<S>}${Capitalize<N>}` : never;
/** Every wire method name, in the OpenRPC document's order; kept in step with `RegistryApi` by the compiler. */
export declare const METHOD_NAMES: readonly ["Apps.Create", "Apps.Get", "Apps.List", "Apps.Update", "Apps.Delete", "Domains.Create", "Domains.Get", "Domains.List", "Domains.Delete", "Routes.Create", "Routes.BatchCreate", "Routes.Get", "Routes.List", "Routes.Update", "Routes.Delete", "Routes.Reorder", "Routes.SwitchOff", "Routes.SwitchOn", "Releases.Create", "Releases.Publish", "Releases.Retire", "Releases.Get", "Releases.List", "Associations.Get", "Associations.ListRevisions", "Associations.Diff", "Associations.Preview", "Associations.Watch", "CanOpen.GetTable", "CanOpen.Check", "Matrix.Get", "Tokens.Create", "Tokens.List", "Tokens.Revoke", "Audit.List", "rpc.discover"];
/** The camelCase client name of a wire method name. */
export declare function clientMethodName(method: string): string;
export {};
