/** A dotted numeric version ("5.12.0"), or an Android versionCode as a string ("51200"). */
export declare type Version = string;
/** A platform a release runs on. */
export declare type Platform = "ios" | "android";
/** Which generated document of a domain. */
export declare type DocumentKind = "aasa" | "assetlinks";
/** A token's role: admin > releaser > reader. */
export declare type Role = "admin" | "releaser" | "reader";
/** A release's life cycle. */
export declare type ReleaseState = "draft" | "live" | "retired";
/** Matching options for a rule, or defaults for an app or domain. */
export interface MatchDefaults {
    caseSensitive?: boolean | null;
    percentEncoded?: boolean | null;
}
/** Fields the server adds to every stored resource. */
export interface ResourceMeta {
    name?: string;
    etag?: string;
    createTime?: string;
    updateTime?: string | null;
}
/** One product with its iOS app IDs, Android package, custom schemes and fallback policy. */
export interface App extends ResourceMeta {
    id: string;
    displayName?: string | null;
    ios?: {
        appIds: string[];
        webcredentials?: boolean | null;
        appClips?: string[] | null;
    } | null;
    android?: {
        packageName: string;
        sha256CertFingerprints: string[];
    } | null;
    schemes?: string[];
    fallback?: {
        queryItem?: string;
        value?: string;
    };
    defaults?: MatchDefaults | null;
}
/** A host one or more apps answer for. */
export interface Domain extends ResourceMeta {
    host: string;
    apps: string[];
    aliasOf?: string | null;
    defaults?: MatchDefaults | null;
    substitutionVariables?: Record<string, string[]> | null;
    legacyPaths?: boolean | null;
}
/** A `?` pattern: the whole query as one string, or named items. */
export declare type QueryPattern = string | Record<string, string>;
/** A route's URL pattern, in AASA component syntax. */
export interface URLPattern extends MatchDefaults {
    scheme?: string | null;
    path?: string | null;
    query?: QueryPattern | null;
    fragment?: string | null;
}
/** The versions of a platform that handle a route: `since` inclusive, `until` exclusive. */
export interface VersionRange {
    since: Version;
    until?: Version | null;
}
/** A version a route is switched off for (kill switch). */
export interface SwitchedOff {
    version: Version;
    reason?: string | null;
}
/** An ordered rule of an app. */
export interface Route extends ResourceMeta {
    id: string;
    pattern: URLPattern;
    action?: "open" | "exclude";
    platforms?: {
        ios?: VersionRange | null;
        android?: VersionRange | null;
    };
    switchedOff?: {
        ios?: SwitchedOff[];
        android?: SwitchedOff[];
    };
    domains?: string[];
    webFallback?: string | null;
    comment?: string | null;
    /** Output only: the app's id. */
    app?: string;
    /** Output only: 0-based position in evaluation order. */
    position?: number;
}
/** An app version on a platform. */
export interface Release {
    name: string;
    app: string;
    platform: Platform;
    version: Version;
    state: ReleaseState;
    createTime?: string;
    publishTime?: string | null;
    retireTime?: string | null;
}
/** A finding of the AASA linter. */
export interface LintFinding {
    severity: "warning" | "error";
    code: string;
    message: string;
    route?: string | null;
}
/** A generated document revision touched by a release event. */
export interface RevisionRef {
    host: string;
    kind?: DocumentKind;
    revision: number;
    etag: string;
    changed: boolean;
}
/** What `Releases.Publish` and `Releases.Retire` return. */
export interface ReleaseEventResult {
    release: Release;
    revisions: RevisionRef[];
    lint: LintFinding[];
}
/** Whether an app version opens a URL, and why. */
export interface Decision {
    decision: "open_in_app" | "open_in_browser" | "not_associated";
    reason?: "route" | "excluded" | "unsupported_version" | "switched_off" | "fallback_marker" | "no_route";
    route?: string | null;
    fallbackUrl?: string | null;
    supportedSince?: Version | null;
}
/** The rules one app version evaluates locally, each marked open or fallback. */
export interface CanOpenTable {
    rules?: Record<string, unknown>[];
    fallback?: Record<string, unknown>;
    [key: string]: unknown;
}
/** A generated `apple-app-site-association` or `assetlinks.json` document. */
export declare type AssociationDocument = Record<string, unknown> | unknown[];
/** One AASA rule as it appears in a document (used by diffs). */
export declare type AASARule = Record<string, unknown>;
/** Rules added, removed and changed between two revisions. */
export interface RuleDiff {
    added: AASARule[];
    removed: AASARule[];
    changed: {
        before: AASARule;
        after: AASARule;
    }[];
}
/** A stored revision of a domain's document. */
export interface RevisionInfo {
    revision: number;
    etag: string;
    cause?: string;
    createTime?: string;
}
/** An API credential; its secret is returned only by `Tokens.Create`. */
export interface Token {
    name: string;
    id: string;
    displayName?: string;
    role: Role;
    createTime?: string;
    revokeTime?: string | null;
}
/** Who changed what, when. */
export interface AuditEntry {
    id?: string | number;
    at: string;
    actor: string;
    method: string;
    resource: string;
    before?: unknown;
    after?: unknown;
    requestId?: string | null;
}
/** One route's row in the version matrix. */
export interface MatrixRow {
    route: string;
    pattern?: URLPattern;
    action?: "open" | "exclude";
    supportedSince?: Version | null;
    cells: {
        version: Version;
        state: "open" | "fallback" | "switched_off" | "excluded";
    }[];
}
/** Paging params of list methods. */
export interface PageParams {
    pageSize?: number;
    pageToken?: string;
}
/** Paging result of list methods: "" or absent when there are no more pages. */
export interface Page {
    nextPageToken?: string;
}
