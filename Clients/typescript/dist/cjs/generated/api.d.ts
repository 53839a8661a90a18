/** An app version: 1 to 4 dot-separated decimal numbers, each at most 2147483647 (5, 5.12, 5.12.0, 5.12.0.4411) compared numerically, missing components counting as 0 (5.12 == 5.12.0). An Android versionCode is the one-component case, written as a string ("51200"). */
export declare type Version = string;
export declare type Platform = "ios" | "android";
/** Lower-case identifier of an app or a route, [a-z][a-z0-9-]{0,62}. */
export declare type Identifier = string;
/** A host name without port or trailing dot; compared case-insensitively, stored lower-case. */
export declare type Host = string;
/** TEAMID.bundle.id, the team ID being 10 upper-case letters or digits. */
export declare type IOSAppID = string;
/** At most this many items per page; 50 when absent. */
export declare type PageSize = number;
/** Opaque: the nextPageToken of the previous page. Empty or absent for the first page. */
export declare type PageToken = string;
/** Opaque token for the next page; empty (or absent) on the last page. */
export declare type NextPageToken = string;
/** Opaque version tag. Send it back with Update/Delete: a stale one fails with ABORTED (10). */
export declare type Etag = string;
export declare type ReleaseState = "draft" | "live" | "retired";
/** open: versions that handle the route open it in the app; exclude: always the browser. */
export declare type RouteAction = "open" | "exclude";
export declare type DocumentKind = "aasa" | "assetlinks";
export declare type Role = "admin" | "releaser" | "reader";
/** An empty result ({}). */
export declare type Empty = Record<string, unknown>;
/** Matching defaults (Apple's defaults dictionary); a rule's own setting wins. caseSensitive and percentEncoded both default to true. */
export interface MatchDefaults {
    caseSensitive?: boolean | null;
    percentEncoded?: boolean | null;
}
export interface MatchDefaultsOutput {
    caseSensitive?: boolean | null;
    percentEncoded?: boolean | null;
}
/** A string matched against the whole query, or named items {name: pattern} that must each match (a missing item counts as empty; every occurrence of a repeated name must match). */
export declare type QueryPattern = string | Record<string, string>;
/** A route's URL pattern in the terms of Apple's AASA components: * any run of characters (none and / included), ? exactly one character, $(name) a substitution variable. */
export interface URLPattern {
    /** Custom URL scheme (badoo for badoo://offer/1); absent for web links. */
    scheme?: string | null;
    /** Path pattern (/l/a/*), starting with / (iOS paths start with /) or with a wildcard or variable; absent matches any path. */
    path?: string | null;
    /** Query pattern; absent matches any query. */
    query?: QueryPattern | null;
    /** Fragment pattern; absent matches any fragment. */
    fragment?: string | null;
    caseSensitive?: boolean | null;
    percentEncoded?: boolean | null;
}
export interface URLPatternOutput {
    /** Custom URL scheme (badoo for badoo://offer/1); absent for web links. */
    scheme?: string | null;
    /** Path pattern (/l/a/*); absent matches any path. */
    path?: string | null;
    /** Query pattern; absent matches any query. */
    query?: QueryPattern | null;
    /** Fragment pattern; absent matches any fragment. */
    fragment?: string | null;
    caseSensitive?: boolean | null;
    percentEncoded?: boolean | null;
}
/** Half-open range [since, until); until null or absent: every later version. */
export interface VersionRange {
    since: Version;
    until?: Version | null;
}
export interface VersionRangeOutput {
    since: Version;
    until?: Version | null;
}
export interface SwitchedOff {
    version: Version;
    reason?: string | null;
}
export interface SwitchedOffOutput {
    version: Version;
    reason?: string | null;
}
/** An app as sent to Apps.Create / Apps.Update. Output-only fields are accepted and ignored. */
export interface App {
    id: Identifier;
    displayName?: string | null;
    ios?: ({
        appIds: IOSAppID[];
        webcredentials?: boolean | null;
        appClips?: IOSAppID[] | null;
        /** The numeric App Store id (https://apps.apple.com/app/id{appStoreId}), for the store button of a short link's landing page. */
        appStoreId?: string | null;
        /** The team's App Store Connect provider token (pt, from App Store Connect's campaign link generator). With it, the App Store links of short links carry pt beside the campaign token (ct): App Analytics attributes a campaign only when both are present. */
        appStoreProviderToken?: string | null;
    }) | null;
    android?: {
        packageName: string;
        sha256CertFingerprints: string[];
    } | null;
    /** Custom URL schemes the app answers, lower-case, without :// */
    schemes?: string[];
    fallback?: {
        /** Marker query item name; ul_fallback by default. */
        queryItem?: string;
        /** Marker value; 1 by default; never empty. */
        value?: string;
    };
    defaults?: MatchDefaults | null;
    /** Host patterns a token limited to this app may create domains under. Only an admin token for every app (no apps) may set or change them (else PERMISSION_DENIED); left out on Apps.Update, the app keeps its patterns. A pattern overlapping another app's pattern or domain is ALREADY_EXISTS unless shareNames is sent. */
    hosts?: string[] | null;
    /** Output only; ignored on input (so a resource read with Get can be sent back). */
    name?: string;
    /** Output only; ignored on input (so a resource read with Get can be sent back). */
    etag?: Etag;
    /** Output only; ignored on input (so a resource read with Get can be sent back). */
    createTime?: string;
    /** Output only; ignored on input (so a resource read with Get can be sent back). */
    updateTime?: string | null;
}
/** An app as the server returns it: name apps/{id}. */
export interface AppOutput {
    id: Identifier;
    displayName?: string | null;
    ios?: ({
        appIds: IOSAppID[];
        webcredentials?: boolean | null;
        appClips?: IOSAppID[] | null;
        /** The numeric App Store id (https://apps.apple.com/app/id{appStoreId}), for the store button of a short link's landing page. */
        appStoreId?: string | null;
        /** The team's App Store Connect provider token (pt, from App Store Connect's campaign link generator). With it, the App Store links of short links carry pt beside the campaign token (ct): App Analytics attributes a campaign only when both are present. */
        appStoreProviderToken?: string | null;
    }) | null;
    android?: {
        packageName: string;
        sha256CertFingerprints: string[];
    } | null;
    /** Custom URL schemes the app answers, lower-case, without :// */
    schemes?: string[];
    fallback?: {
        /** Marker query item name; ul_fallback by default. */
        queryItem?: string;
        /** Marker value; 1 by default; never empty. */
        value?: string;
    };
    defaults?: MatchDefaultsOutput | null;
    /** Host patterns a token limited to this app may create domains under (set by an admin for every app). */
    hosts?: string[] | null;
    /** AIP-style resource name; output only. */
    name: string;
    etag: Etag;
    /** RFC 3339 timestamp, UTC. */
    createTime: string;
    /** RFC 3339 timestamp, UTC. */
    updateTime?: string | null;
}
/** A domain as sent to Domains.Create. */
export interface Domain {
    host: Host;
    /** IDs of the apps served on this host, in AASA order. */
    apps: Identifier[];
    aliasOf?: Host | null;
    defaults?: MatchDefaults | null;
    /** User-defined substitution variables ($(food) -> [burrito, pizza]); values may contain wildcards. Matching is bounded: each value is at most 64 characters, and the values the variable tokens of one route pattern offer add up to at most 256 (a value with * or ? counts one per character), and those of one app's routes on one domain to 1,024; a route or domain write beyond that is INVALID_ARGUMENT naming the field and the bound. */
    substitutionVariables?: Record<string, string[]> | null;
    /** Also emit the legacy paths form for iOS 12 and earlier. */
    legacyPaths?: boolean | null;
    /** A link domain: the registry serves short links on it (https://{host}/{code}). Its AASA and assetlinks claim the link paths through a route of the app's like any other. */
    links?: boolean | null;
    /** On a link domain: show the social preview a long link carries (FDL's st, sd, si), marked as supplied by the link, its image only on the app's own domains. Off by default: a stranger's words never appear on the domain. */
    longLinkPreviews?: boolean | null;
    /** Output only; ignored on input (so a resource read with Get can be sent back). */
    aasaBudget?: unknown;
    /** Output only; ignored on input (so a resource read with Get can be sent back). */
    name?: string;
    /** Output only; ignored on input (so a resource read with Get can be sent back). */
    etag?: Etag;
    /** Output only; ignored on input (so a resource read with Get can be sent back). */
    createTime?: string;
    /** Output only; ignored on input (so a resource read with Get can be sent back). */
    updateTime?: string | null;
}
/** A domain as the server returns it: name domains/{host}. */
export interface DomainOutput {
    host: Host;
    /** IDs of the apps served on this host, in AASA order. */
    apps?: Identifier[];
    aliasOf?: Host | null;
    defaults?: MatchDefaultsOutput | null;
    /** User-defined substitution variables ($(food) -> [burrito, pizza]); values may contain wildcards. Matching is bounded: each value is at most 64 characters, and the values the variable tokens of one route pattern offer add up to at most 256 (a value with * or ? counts one per character), and those of one app's routes on one domain to 1,024; a route or domain write beyond that is INVALID_ARGUMENT naming the field and the bound. */
    substitutionVariables?: Record<string, string[]> | null;
    /** Also emit the legacy paths form for iOS 12 and earlier. */
    legacyPaths?: boolean | null;
    /** A link domain: the registry serves short links on it (https://{host}/{code}). Its AASA and assetlinks claim the link paths through a route of the app's like any other. */
    links?: boolean | null;
    /** On a link domain: show the social preview a long link carries (FDL's st, sd, si), marked as supplied by the link, its image only on the app's own domains. Off by default: a stranger's words never appear on the domain. */
    longLinkPreviews?: boolean | null;
    /** Domains.Get only: each iOS app's bytes and share of the served apple-app-site-association (AASAShare). */
    aasaBudget?: AASAShare[] | null;
    /** AIP-style resource name; output only. */
    name: string;
    etag: Etag;
    /** RFC 3339 timestamp, UTC. */
    createTime: string;
    /** RFC 3339 timestamp, UTC. */
    updateTime?: string | null;
}
/** One app's part of a domain's AASA size budget. */
export interface AASAShare {
    app: Identifier;
    /** The bytes of the app's section of the served apple-app-site-association: its details entries and its IDs under webcredentials and appclips. */
    bytes: number;
    /** The bytes the app may use: Apple's limit (131072) less the document's shared part, divided equally among the domain's iOS apps. A write that grows an app's section past it is FAILED_PRECONDITION to that app. */
    share: number;
}
/** A route as sent to Routes.Create / Routes.Update (action defaults to open). Output-only fields are accepted and ignored. */
export interface Route {
    id: Identifier;
    pattern: URLPattern;
    action?: RouteAction;
    /** Versions that handle the route, per platform. Empty for exclude routes. */
    platforms?: {
        ios?: VersionRange;
        android?: VersionRange;
    };
    /** Versions the route is switched off for (kill switch); kept by Routes.Update. */
    switchedOff?: {
        ios?: SwitchedOff[];
        android?: SwitchedOff[];
    };
    /** Hosts the route applies to; empty: every domain of the app. */
    domains?: Host[];
    /** For a custom-scheme route: the web URL to fall back to; {path} and {query} are substituted. */
    webFallback?: string | null;
    comment?: string | null;
    /** Output only; ignored on input (so a resource read with Get can be sent back). */
    name?: string;
    /** Output only; ignored on input (so a resource read with Get can be sent back). */
    etag?: Etag;
    /** Output only; ignored on input (so a resource read with Get can be sent back). */
    createTime?: string;
    /** Output only; ignored on input (so a resource read with Get can be sent back). */
    updateTime?: string | null;
    /** Output only; ignored on input. */
    app?: Identifier;
    /** Output only; ignored on input. */
    position?: number;
    /** Output only; ignored on input. */
    managedBy?: RouteManagement;
}
/** A route as the server returns it: name apps/{app}/routes/{id}. */
export interface RouteOutput {
    id: Identifier;
    pattern: URLPatternOutput;
    action: RouteAction;
    /** Versions that handle the route, per platform. Empty for exclude routes. */
    platforms?: {
        ios?: VersionRangeOutput;
        android?: VersionRangeOutput;
    };
    /** Versions the route is switched off for (kill switch); kept by Routes.Update. */
    switchedOff?: {
        ios?: SwitchedOffOutput[];
        android?: SwitchedOffOutput[];
    };
    /** Hosts the route applies to; empty: every domain of the app. */
    domains?: Host[];
    /** For a custom-scheme route: the web URL to fall back to; {path} and {query} are substituted. */
    webFallback?: string | null;
    comment?: string | null;
    app: Identifier;
    /** 0-based place in the app's evaluation order. */
    position: number;
    /** AIP-style resource name; output only. */
    name: string;
    etag: Etag;
    /** RFC 3339 timestamp, UTC. */
    createTime?: string;
    /** RFC 3339 timestamp, UTC. */
    updateTime?: string | null;
    managedBy?: RouteManagement;
}
/** An app version on a platform: draft -> live -> retired. */
export interface Release {
    /** apps/{app}/platforms/{platform}/releases/{version} */
    name: string;
    app: Identifier;
    platform: Platform;
    version: Version;
    state: ReleaseState;
    /** RFC 3339 timestamp, UTC. */
    createTime?: string;
    /** RFC 3339 timestamp, UTC. */
    publishTime?: string | null;
    /** RFC 3339 timestamp, UTC. */
    retireTime?: string | null;
}
export interface LintFinding {
    severity: "warning" | "error";
    /** Stable machine-readable code, e.g. shadowed_rule. */
    code: string;
    message: string;
    /** The route the finding is about, when there is one. */
    route?: string | null;
}
/** A domain's current generated document after an event. */
export interface RevisionRef {
    host: Host;
    kind?: DocumentKind;
    revision: number;
    etag: string;
    /** True when this event appended a new revision. */
    changed: boolean;
}
export interface ReleaseEventResult {
    release: Release;
    revisions: RevisionRef[];
    lint: LintFinding[];
}
/** What an app version does with a URL. */
export interface Decision {
    /** not_associated: the URL is not the app's to open on this platform: its host is not one of the app's domains, the app has no side on the platform (no iOS app IDs or no Android package, so the well-known file never names it), or its custom scheme is not one of the app's. */
    decision: "open_in_app" | "open_in_browser" | "not_associated";
    reason?: "route" | "excluded" | "unsupported_version" | "switched_off" | "fallback_marker" | "no_route";
    /** ID of the route that decided. */
    route?: string | null;
    /** The URL to open in the browser: the original URL plus the fallback marker. */
    fallbackUrl?: string | null;
    supportedSince?: Version | null;
}
/** One rule of a canOpen table, options resolved, with this version's verdict. Patterns use the AASA syntax (path, query, fragment; absent matches anything). */
export interface CanOpenRule {
    /** The route the rule comes from. */
    route: string;
    path?: string | null;
    query?: QueryPattern | null;
    fragment?: string | null;
    caseSensitive: boolean;
    percentEncoded: boolean;
    action: RouteAction;
    /** What a first match on this rule means for this version: open in the app, exclude (browser), switched_off or unsupported (browser with the fallback URL). */
    verdict: "open" | "exclude" | "switched_off" | "unsupported";
    supportedSince?: Version | null;
    /** Custom-scheme routes: the web URL template to fall back to ({path}, {query}). */
    webFallback?: string | null;
}
export interface CanOpenScope {
    /** The host (m.badoo.com) or custom scheme (badoo), lower-case. */
    name: string;
    /** Indices into the table's rules, in evaluation order. */
    rules: number[];
    substitutionVariables?: Record<string, string[]> | null;
    /** True for a link domain (go.badoo.com): its paths are short links, resolved with Links.Resolve before their target is decided. Absent for other hosts and schemes. */
    links?: boolean;
}
/** Everything one app version needs to decide links offline: for a URL, pick the scope of its host (http/https links) or scheme (custom links, whose host counts as the first path segment: badoo://offer/1 is matched as /offer/1); for a web link, if the URL carries the fallback marker (queryItem with a non-empty value) the decision is open_in_browser/fallback_marker; then the first rule of the scope that matches decides by its verdict (AASA matching semantics); no match: open_in_browser/no_route. Gives the same Decision as CanOpen.Check. */
export interface CanOpenTable {
    app: Identifier;
    platform: Platform;
    version: Version;
    /** Distinct rules; scopes refer to them by index. */
    rules: CanOpenRule[];
    /** The hosts the app answers on, each with its ordered rules. */
    domains: CanOpenScope[];
    /** The app's custom schemes, each with its ordered rules. */
    schemes: CanOpenScope[];
    fallback: {
        queryItem: string;
        value: string;
    };
}
/** One rule of an AASA components array. */
export interface AASAComponent {
    "/"?: string;
    "?"?: QueryPattern;
    "#"?: string;
    exclude?: boolean;
    caseSensitive?: boolean;
    percentEncoded?: boolean;
    comment?: string;
}
/** A rule of a generated document, located. */
export interface DiffRule {
    /** The iOS app ID (aasa) or Android package name (assetlinks) the rule belongs to. */
    app: string;
    /** Its position in that app's rule list. */
    index: number;
    /** The rule as written: an AASA component, or an assetlinks dynamic rule. */
    rule: Record<string, unknown>;
}
/** Rule-by-rule difference between two documents of a host. Rules are compared per app and identified by the route their comment names; a rule with the same identity and different content is changed; moves alone are not reported. */
export interface RuleDiff {
    added: DiffRule[];
    removed: DiffRule[];
    changed: ({
        before: DiffRule;
        after: DiffRule;
    })[];
}
export interface RevisionInfo {
    revision: number;
    etag: string;
    /** The event that produced it, e.g. Releases.Publish ios 5.12.0. */
    cause?: string;
    /** RFC 3339 timestamp, UTC. */
    createTime?: string;
}
/** An API credential, without its secret: its role, the apps it may act on (absent: every app), its expiry and last use. */
export interface Token {
    /** tokens/{id} */
    name: string;
    id: string;
    displayName?: string;
    role: Role;
    /** RFC 3339 timestamp, UTC. */
    createTime?: string;
    /** RFC 3339 timestamp, UTC. */
    revokeTime?: string | null;
    apps?: TokenApps;
    /** When it stops authenticating (RFC 3339, UTC); absent: never. */
    expiresAt?: string | null;
    /** When it last authenticated a call (RFC 3339, UTC), to within a few seconds: uses are recorded in memory and written in batches. Absent: not used since uses were recorded. */
    lastUsedAt?: string | null;
}
export interface AuditEntry {
    id?: string | number;
    /** RFC 3339 timestamp, UTC. */
    at: string;
    /** Who: the token's display name or id. */
    actor: string;
    method: string;
    resource: string;
    /** The resource before the change (any JSON; null for a creation). */
    before?: unknown;
    /** The resource after the change (any JSON; null for a deletion). */
    after?: unknown;
    requestId?: string | null;
}
export interface MatrixCell {
    version: Version;
    state: "open" | "fallback" | "switched_off" | "excluded";
}
export interface MatrixRow {
    route: string;
    pattern?: URLPatternOutput;
    action?: RouteAction;
    supportedSince?: Version | null;
    cells: MatrixCell[];
}
/** error.data of every application error. */
export interface ErrorData {
    /** The gRPC status name, e.g. NOT_FOUND. */
    status: string;
    details?: ({
        field?: string;
        description?: string;
    })[];
}
export interface AASADocument_appList {
    apps: string[];
}
export interface AASADocument_defaults {
    caseSensitive?: boolean;
    percentEncoded?: boolean;
}
export interface AASADocument_component {
    /** Path pattern. */
    "/"?: string;
    /** Query pattern: a string for the whole query, or {name: pattern}. */
    "?"?: string | Record<string, string>;
    /** Fragment pattern. */
    "#"?: string;
    exclude?: boolean;
    caseSensitive?: boolean;
    percentEncoded?: boolean;
    comment?: string;
}
export interface AASADocument_detail {
    appIDs?: string[];
    /** Legacy (iOS 12 and earlier): one app ID. */
    appID?: string;
    components?: AASADocument_component[];
    /** Legacy path patterns; a NOT prefix excludes. */
    paths?: string[];
    defaults?: AASADocument_defaults;
}
/** An apple-app-site-association document as iOS reads it: applinks (universal links: modern appIDs + components, or legacy appID + paths / {appID: {paths}}), defaults, substitutionVariables, webcredentials and appclips. Unknown keys are allowed: Apple adds keys over time. */
export interface AASADocument {
    applinks?: {
        /** Legacy: must be present and empty for iOS 12 and earlier. */
        apps?: unknown[];
        details: AASADocument_detail[] | Record<string, {
            paths: string[];
        }>;
        defaults?: AASADocument_defaults;
        substitutionVariables?: Record<string, string[]>;
    };
    webcredentials?: AASADocument_appList;
    appclips?: AASADocument_appList;
    activitycontinuation?: AASADocument_appList;
}
/** A Digital Asset Links statement list (/.well-known/assetlinks.json) as Android reads it for App Links: statements with relations (delegate_permission/common.handle_all_urls, ...) and an android_app or web target. */
export declare type AssetlinksDocument = ({
    relation: string[];
    target: {
        namespace: "android_app";
        package_name: string;
        sha256_cert_fingerprints: string[];
    } | {
        namespace: "web";
        site: string;
    };
})[];
/** An idempotency key (AIP-155), e.g. a UUID. Scoped to the caller's token and the method, and bound to the params it was first sent with (their SHA-256, requestId left out, key order and spacing ignored): a retry with the same params returns the first outcome, and the same key with different params is refused INVALID_ARGUMENT naming requestId, with nothing written. Use a new key for every new call. Tokens.Create takes none (its secret is never stored). */
export declare type RequestId = string;
/** What chat apps and social networks show (Open Graph and Twitter card tags). */
export interface LinkPreview {
    title?: string | null;
    description?: string | null;
    /** An https image URL. */
    imageUrl?: string | null;
}
export interface LinkPlatformOptions {
    /** The lowest version the link asks for; the effective minimum is the later of this and the target route's since. */
    minVersion?: Version | null;
    /** Where a visitor goes instead of the landing page's web button. An https URL on one of the app's own domains, its store pages, or a host an admin allowed; anything else is INVALID_ARGUMENT naming the field. */
    fallbackUrl?: string | null;
}
/** A short link as sent to Links.Create, Links.BatchCreate and Links.Update. */
export interface ShortLink {
    /** The link domain; absent on create: the app's first link domain. */
    domain?: Host;
    /** The code after the domain; absent on create: a random 7-character code from an alphabet without look-alikes. */
    code?: string;
    /** The deep link it opens: an https URL on one of the app's own (non-link) domains. */
    target: string;
    /** Where desktop browsers go instead of the target. An https URL on one of the app's own domains, its store pages, or a host an admin allowed; anything else is INVALID_ARGUMENT naming the field. */
    desktopUrl?: string | null;
    preview?: LinkPreview | null;
    ios?: LinkPlatformOptions | null;
    android?: LinkPlatformOptions | null;
    /** When it stops working (RFC 3339); it answers 404 after. */
    expiresAt?: string | null;
    /** It stops (404, counted as an expired miss) once people clicked it this many times; bots (link-preview fetchers, search engines, monitors) neither count nor are refused. Exact on one server; a fleet may let through one click-flush interval (2 s) of the other servers' clicks beyond it. */
    maxClicks?: number | null;
    /** Phones go straight to the target, without the landing page (FDL's efr=1). */
    skipLanding?: boolean | null;
    utm?: LinkCampaign | null;
    /** Labels to group links by (Links.List filters by one); a tag given twice is kept once, in the order first given. */
    tags?: string[] | null;
    /** Switched off: the link answers 404 (counted as a `disabled` miss) until switched on again; nothing else about it changes. false is stored as absent. */
    disabled?: boolean | null;
    /** Output only; ignored on input (so a resource read with Get can be sent back). */
    name?: string;
    /** Output only; ignored on input. */
    etag?: Etag;
    /** Output only; ignored on input. */
    createTime?: string;
    /** Output only; ignored on input. */
    updateTime?: string | null;
    /** Output only; ignored on input. */
    app?: string;
    /** Output only; ignored on input. */
    shortUrl?: string;
    /** Output only; ignored on input. */
    createdBy?: string;
}
/** A short link as the API returns it. */
export interface ShortLinkOutput {
    /** The link domain; absent on create: the app's first link domain. */
    domain: Host;
    /** The code after the domain; absent on create: a random 7-character code from an alphabet without look-alikes. */
    code: string;
    /** The deep link it opens: an https URL on one of the app's own (non-link) domains. */
    target: string;
    /** Where desktop browsers go instead of the target. An https URL on one of the app's own domains, its store pages, or a host an admin allowed; anything else is INVALID_ARGUMENT naming the field. */
    desktopUrl?: string | null;
    preview?: LinkPreview | null;
    ios?: LinkPlatformOptions | null;
    android?: LinkPlatformOptions | null;
    /** When it stops working (RFC 3339); it answers 404 after. */
    expiresAt?: string | null;
    /** Phones go straight to the target, without the landing page (FDL's efr=1). */
    skipLanding?: boolean | null;
    app: string;
    /** https://{domain}/{code} */
    shortUrl: string;
    /** The token id that created it. */
    createdBy?: string;
    name: string;
    etag: Etag;
    createTime: string;
    updateTime?: string | null;
}
/** The app IDs a token may act on (1 to 100). Absent: every app. */
export declare type TokenApps = Identifier[];
/** One domain's document as a delivery service serves it, against the registry's current revision. */
export interface DeliveryStatus {
    host: Host;
    kind: DocumentKind;
    /** Apple's AASA CDN for aasa, Google's Digital Asset Links API for assetlinks. */
    service: "apple-cdn" | "google-digital-asset-links";
    /** The registry's newest revision of the document. */
    currentRevision: number;
    /** RFC 3339 timestamp, UTC. */
    currentRevisionTime: string;
    /** revision: one of ours (servedRevision); unpublished: a document the registry never published; none: the service holds no copy (404); unknown: not observed yet, or every observation failed. */
    served: "revision" | "unpublished" | "none" | "unknown";
    /** The revision the service serves, matched by JSON meaning. */
    servedRevision?: number;
    /** Since when the service serves this copy. */
    servingSince?: string;
    /** 0 when the service serves the current revision, N when N newer revisions wait, -1 when it serves none of ours; absent while unknown. */
    revisionsBehind?: number;
    /** Seconds since the oldest revision the service has not shown was created (the current one's when it serves none of ours); 0 when current. */
    secondsBehind?: number;
    lastObservationTime?: string;
    lastOutcome?: "served" | "unchanged" | "not_found" | "http_error" | "timeout" | "too_large" | "invalid_json" | "network_error";
    lastHttpStatus?: number;
    lastError?: string;
    /** AASA only, per app whose iOS app IDs the document names: the routes the served copy claims and those the current revision adds. Absent for assetlinks (Google lists statements, not rules). */
    claimedRoutes?: DeliveryClaims[];
}
/** A link's campaign: added as utm_* query items to every web destination a visitor is sent to (the desktop 302, the landing page's web button, a platform's fallback URL; an item the URL already names is kept as written), to the App Store link as ct and to the Play Store referrer; never to the deep link that opens the app. Values hold no control characters; an empty campaign is stored as none. */
export interface LinkCampaign {
    /** utm_source: who sends the traffic (newsletter, instagram). */
    source?: string | null;
    /** utm_medium: the kind of channel (email, social, qr). */
    medium?: string | null;
    /** utm_campaign: the campaign's name; also the App Store campaign token (ct, cut to 40 bytes), and what Links.List filters by. */
    campaign?: string | null;
    /** utm_term: the paid keyword. */
    term?: string | null;
    /** utm_content: which of several links to the same place. */
    content?: string | null;
}
/** Where an app's link events are POSTed: {"webhook": id, "events": [{"id", "type", "created", "data"}]} in order, up to 100 per POST, signed with the header RouteRegistry-Signature: t={unix seconds},v1={hex HMAC-SHA256(secret, "{t}.{raw body}")}. link.created/updated/deleted carry the link as Links.Get shows it; link.clicked a link's clicks since the last batch ({domain, code, clicks: [{day, platform, outcome, source, count}]}). A receiver answers 2xx within 5 s; anything else is retried after 1 s, 2 s, 4 s … up to 10 minutes, in order. Events are kept 3 days. */
export interface Webhook {
    /** Drawn by the server; ignored on create. */
    id?: string;
    /** The receiver: an https URL on a public host (no IP address, localhost or single-label name; the address it resolves to is checked again on every delivery). Hosts an admin allowed (serve --webhook-private-hosts) may be inside the network and use http. */
    url: string;
    /** The event types sent; every type when absent. */
    events?: ("link.created" | "link.updated" | "link.deleted" | "link.clicked")[];
    description?: string | null;
}
export interface WebhookOutput {
    id: string;
    url: string;
    events: string[];
    description?: string | null;
    app: Identifier;
    /** apps/{app}/webhooks/{id} */
    name: string;
    createdBy: string;
    createTime: string;
    /** The signing secret (whsec_…): in Webhooks.Create's answer only, never again. */
    secret?: string;
    /** Deliveries failed in a row. */
    failures: number;
    /** When the next attempt is due after failures. */
    nextAttemptTime?: string;
}
/** One app's routes in a delivered AASA, read from the registry's own revisions (never from a file it did not publish). */
export interface DeliveryClaims {
    app: Identifier;
    /** Route ids the served copy's opening rules come from, in document order; empty when the service serves none of our revisions, no copy, or is not observed yet. */
    routes: Identifier[];
    /** Route ids the current revision claims and the served copy does not: pending at the service. */
    pending: Identifier[];
}
/** Present when a manifest manages the route (Manifests.Apply created or adopted it): a prune may remove it. Absent on a route managed by hand. */
export interface RouteManagement {
    /** The manifest's commit or origin, as the apply that marked it named it. */
    source?: string | null;
    /** When that apply marked it. */
    applyTime: string;
}
/** An app's routes, domains and link settings: the manifest file. */
export interface Manifest {
    /** Where editors find this schema; ignored. */
    $schema?: string;
    app: App;
    domains?: ManifestDomain[];
    /** In evaluation order: the first match decides. */
    routes?: ManifestRoute[];
}
/** A domain of the app: Domain without its app list, which other apps share. */
export interface ManifestDomain {
    host: Host;
    aliasOf?: Host | null;
    defaults?: MatchDefaults | null;
    /** User-defined substitution variables ($(food) -> [burrito, pizza]); values may contain wildcards. Matching is bounded: each value is at most 64 characters, and the values the variable tokens of one route pattern offer add up to at most 256 (a value with * or ? counts one per character), and those of one app's routes on one domain to 1,024; a route or domain write beyond that is INVALID_ARGUMENT naming the field and the bound. */
    substitutionVariables?: Record<string, string[]> | null;
    /** Also emit the legacy paths form for iOS 12 and earlier. */
    legacyPaths?: boolean | null;
    /** A link domain: the registry serves short links on it (https://{host}/{code}). Its AASA and assetlinks claim the link paths through a route of the app's like any other. */
    links?: boolean | null;
    /** On a link domain: show the social preview a long link carries (FDL's st, sd, si), marked as supplied by the link, its image only on the app's own domains. Off by default: a stranger's words never appear on the domain. */
    longLinkPreviews?: boolean | null;
}
/** A route: Route without its switch-offs, which are decided on release day. */
export interface ManifestRoute {
    id: Identifier;
    pattern: URLPattern;
    action?: RouteAction;
    /** Versions that handle the route, per platform. Empty for exclude routes. */
    platforms?: {
        ios?: VersionRange;
        android?: VersionRange;
    };
    /** Hosts the route applies to; empty: every domain of the app. */
    domains?: Host[];
    /** For a custom-scheme route: the web URL to fall back to; {path} and {query} are substituted. */
    webFallback?: string | null;
    comment?: string | null;
}
/** The output of routereg plan --json (and --out PLAN): changes in apply order. */
export interface ManifestPlan {
    basis: PlanBasis;
    changes: PlanChange[];
    notInManifest: PlanUnmanaged[];
    /** Planned with a prune: managed routes left out are removals. */
    prune?: boolean;
    /** In a saved plan (--out): the manifest planned, applied exactly as reviewed. */
    manifest?: Manifest;
    /** The rules each live version would gain or lose per domain; absent when none would. Derived from the changes: an apply does not check it. */
    liveLinks?: PlanLiveLinks[];
}
/** The registry state the plan was computed from. */
export interface PlanBasis {
    app: Identifier;
    fingerprint: string;
    appExists: boolean;
    domains: number;
    routes: number;
}
export interface PlanChange {
    action: "add" | "change" | "move" | "remove";
    kind: PlanKind;
    id: string;
    fields: PlanFieldChange[];
    /** An added or moved route goes before this one. */
    before?: string | null;
    /** An added route as people read it. */
    summary?: string | null;
}
export interface PlanFieldChange {
    field: string;
    /** Any JSON value. */
    from?: unknown;
    /** Any JSON value. */
    to?: unknown;
}
export declare type PlanKind = "app" | "domain" | "route";
export interface PlanUnmanaged {
    kind: PlanKind;
    id: string;
    /** A route: whether a manifest manages it (a prune removes only those). */
    managed?: boolean;
}
/** What one live version would gain or lose on one domain: its rules as pattern text. */
export interface PlanLiveLinks {
    host: string;
    platform: "ios" | "android";
    version: Version;
    /** Rules it would handle, in order. */
    gained: string[];
    /** Rules it handles today and would not. */
    lost: string[];
}
/** Every method's params and result, in the OpenRPC document's order. */
export interface RegistryApi {
    /** Creates an app. */
    "Apps.Create": {
        params: {
            app: App;
            shareNames?: boolean | null;
            requestId?: RequestId;
        };
        result: AppOutput;
    };
    /** Returns an app. */
    "Apps.Get": {
        params: {
            app: Identifier;
        };
        result: AppOutput;
    };
    /** Lists apps by id. */
    "Apps.List": {
        params: {
            pageSize?: PageSize;
            pageToken?: PageToken;
        };
        result: {
            apps: AppOutput[];
            nextPageToken?: NextPageToken;
        };
    };
    /** Replaces everything of an app but its id. */
    "Apps.Update": {
        params: {
            app: App;
            etag?: Etag;
            shareNames?: boolean | null;
            requestId?: RequestId;
        };
        result: AppOutput;
    };
    /** Deletes an app. */
    "Apps.Delete": {
        params: {
            app: Identifier;
            etag?: Etag;
            requestId?: RequestId;
        };
        result: Empty;
    };
    /** Adds a domain for one or more apps. */
    "Domains.Create": {
        params: {
            domain: Domain;
            requestId?: RequestId;
        };
        result: DomainOutput;
    };
    /** Returns a domain. */
    "Domains.Get": {
        params: {
            host: Host;
        };
        result: DomainOutput;
    };
    /** Lists domains, optionally those of one app. */
    "Domains.List": {
        params: {
            app?: Identifier;
            pageSize?: PageSize;
            pageToken?: PageToken;
        };
        result: {
            domains: DomainOutput[];
            nextPageToken?: NextPageToken;
        };
    };
    /** Removes a domain. */
    "Domains.Delete": {
        params: {
            host: Host;
            etag?: Etag;
            requestId?: RequestId;
        };
        result: Empty;
    };
    /** Adds a route, last unless before names an existing route. */
    "Routes.Create": {
        params: {
            app: Identifier;
            route: Route;
            before?: Identifier;
            requestId?: RequestId;
        };
        result: RouteOutput;
    };
    /** Adds many routes in one transaction: all of them or none. They keep their order and go last, or all before `before`. One regeneration and one audit entry for the batch; the way to import routes. */
    "Routes.BatchCreate": {
        params: {
            app: Identifier;
            routes: Route[];
            before?: Identifier;
            requestId?: RequestId;
        };
        result: {
            /** The created routes, in the order given. */
            routes: RouteOutput[];
        };
    };
    /** Returns a route. */
    "Routes.Get": {
        params: {
            app: Identifier;
            route: Identifier;
        };
        result: RouteOutput;
    };
    /** Lists an app's routes in evaluation order. */
    "Routes.List": {
        params: {
            app: Identifier;
            pageSize?: PageSize;
            pageToken?: PageToken;
        };
        result: {
            routes: RouteOutput[];
            nextPageToken?: NextPageToken;
        };
    };
    /** Replaces a route's pattern, action, platforms, domains, webFallback and comment; switchedOff is kept. */
    "Routes.Update": {
        params: {
            app: Identifier;
            route: Route;
            etag?: Etag;
            requestId?: RequestId;
        };
        result: RouteOutput;
    };
    /** Deletes a route. */
    "Routes.Delete": {
        params: {
            app: Identifier;
            route: Identifier;
            etag?: Etag;
            requestId?: RequestId;
        };
        result: Empty;
    };
    /** Sets the evaluation order; order must be a permutation of all the app's route ids. */
    "Routes.Reorder": {
        params: {
            app: Identifier;
            order: Identifier[];
            requestId?: RequestId;
        };
        result: {
            routes: RouteOutput[];
        };
    };
    /** Switches a route off for versions (kill switch): they fall back to the browser and the AASA is regenerated. */
    "Routes.SwitchOff": {
        params: {
            app: Identifier;
            route: Identifier;
            platform: Platform;
            versions: Version[];
            reason?: string;
            requestId?: RequestId;
        };
        result: RouteOutput;
    };
    /** Switches a route back on for versions. */
    "Routes.SwitchOn": {
        params: {
            app: Identifier;
            route: Identifier;
            platform: Platform;
            versions: Version[];
            requestId?: RequestId;
        };
        result: RouteOutput;
    };
    /** Creates a draft release. */
    "Releases.Create": {
        params: {
            app: Identifier;
            platform: Platform;
            version: Version;
            requestId?: RequestId;
        };
        result: Release;
    };
    /** Makes a release live (creating it if needed) and regenerates the app's domains' documents. */
    "Releases.Publish": {
        params: {
            app: Identifier;
            platform: Platform;
            version: Version;
            requestId?: RequestId;
        };
        result: ReleaseEventResult;
    };
    /** Retires a live release and regenerates the app's domains' documents. */
    "Releases.Retire": {
        params: {
            app: Identifier;
            platform: Platform;
            version: Version;
            requestId?: RequestId;
        };
        result: ReleaseEventResult;
    };
    /** Returns a release. */
    "Releases.Get": {
        params: {
            app: Identifier;
            platform: Platform;
            version: Version;
        };
        result: Release;
    };
    /** Lists an app's releases, newest version first. */
    "Releases.List": {
        params: {
            app: Identifier;
            platform?: Platform;
            state?: ReleaseState;
            pageSize?: PageSize;
            pageToken?: PageToken;
        };
        result: {
            releases: Release[];
            nextPageToken?: NextPageToken;
        };
    };
    /** Returns a domain's generated document, the latest revision or a given one. */
    "Associations.Get": {
        params: {
            host: Host;
            kind?: DocumentKind;
            revision?: number;
        };
        result: {
            host: Host;
            kind?: DocumentKind;
            revision: number;
            etag: string;
            cause?: string;
            /** RFC 3339 timestamp, UTC. */
            createTime?: string;
            document: AASADocument | AssetlinksDocument;
        };
    };
    /** Lists a domain's revisions, newest first. */
    "Associations.ListRevisions": {
        params: {
            host: Host;
            kind?: DocumentKind;
            pageSize?: PageSize;
            pageToken?: PageToken;
        };
        result: {
            revisions: RevisionInfo[];
            nextPageToken?: NextPageToken;
        };
    };
    /** Rule-by-rule difference between two revisions of a domain's document. */
    "Associations.Diff": {
        params: {
            host: Host;
            kind?: DocumentKind;
            fromRevision: number;
            toRevision: number;
        };
        result: RuleDiff;
    };
    /** Dry run of a publish or retire: the documents it would produce, their diffs and lint. Writes nothing. */
    "Associations.Preview": {
        params: {
            app: Identifier;
            platform: Platform;
            version: Version;
            action: "publish" | "retire";
        };
        result: {
            documents: ({
                host: Host;
                kind?: DocumentKind;
                etag: string;
                changed: boolean;
                document: AASADocument | AssetlinksDocument;
                diff?: RuleDiff;
            })[];
            lint: LintFinding[];
        };
    };
    /** Long poll: returns when the document's etag differs from ifNoneMatch, or after timeoutMs with notModified true. */
    "Associations.Watch": {
        params: {
            host: Host;
            kind?: DocumentKind;
            ifNoneMatch?: string;
            timeoutMs?: number;
        };
        result: {
            host?: Host;
            kind?: DocumentKind;
            revision?: number;
            etag: string;
            notModified: boolean;
            document?: AASADocument | AssetlinksDocument;
        };
    };
    /** What Apple's CDN and Google's Digital Asset Links API serve for each domain's documents, as the delivery watch last observed, against the current revision. */
    "Associations.Delivery": {
        params: {
            host?: Host;
            kind?: DocumentKind;
        };
        result: {
            documents: DeliveryStatus[];
        };
    };
    /** The canOpen table of a live app version; notModified when its etag equals ifNoneMatch. */
    "CanOpen.GetTable": {
        params: {
            app: Identifier;
            platform: Platform;
            version: Version;
            ifNoneMatch?: string;
        };
        result: {
            etag: string;
            notModified: boolean;
            table?: CanOpenTable;
        };
    };
    /** Decides what an app version does with a URL: open in the app, or the browser (with the reason and fallback URL). */
    "CanOpen.Check": {
        params: {
            app: Identifier;
            platform: Platform;
            version: Version;
            url: string;
        };
        result: Decision;
    };
    /** Routes x live versions of an app on a platform: each cell open, fallback, switched_off or excluded. */
    "Matrix.Get": {
        params: {
            app: Identifier;
            platform: Platform;
        };
        result: {
            app?: Identifier;
            platform?: Platform;
            versions: Version[];
            routes: MatrixRow[];
        };
    };
    /** Creates an API token; its secret is returned once. A token limited to some apps may create tokens only for those apps. */
    "Tokens.Create": {
        params: {
            token: {
                displayName: string;
                role: Role;
                apps?: TokenApps;
                /** When it stops working, RFC 3339 (2026-12-31T23:59:59Z); in the future, and no later than the creating token's own expiry. Absent: never. */
                expiresAt?: string;
            };
        };
        result: {
            token: Token;
            /** The bearer secret; shown only here. */
            secret: string;
        };
    };
    /** Lists tokens (never their secrets) with role, apps, expiry and last use; a token limited to some apps sees only the tokens within them. */
    "Tokens.List": {
        params: {
            pageSize?: PageSize;
            pageToken?: PageToken;
        };
        result: {
            tokens: Token[];
            nextPageToken?: NextPageToken;
        };
    };
    /** Revokes a token; a token limited to some apps may revoke only tokens within them. */
    "Tokens.Revoke": {
        params: {
            id: string;
            requestId?: RequestId;
        };
        result: Token;
    };
    /** Who the bearer token is: its id, role, apps and expiry (a console hides what the token may not do). */
    "Tokens.WhoAmI": {
        params: Record<string, never>;
        result: {
            /** tokens/{id} */
            name: string;
            /** The token's id: the actor the audit log records (bootstrap-admin for the seeded admin token). */
            id: string;
            role: Role;
            apps?: TokenApps;
            /** When the token stops working; absent: never. */
            expiresAt?: string | null;
        };
    };
    /** Lists audit entries, newest first, optionally for one resource name. */
    "Audit.List": {
        params: {
            resource?: string;
            pageSize?: PageSize;
            pageToken?: PageToken;
        };
        result: {
            entries: AuditEntry[];
            nextPageToken?: NextPageToken;
        };
    };
    /** Returns this OpenRPC document. */
    "rpc.discover": {
        params: Record<string, never>;
        result: {
            openrpc: string;
            info: Record<string, unknown>;
            methods: unknown[];
        };
    };
    /** Creates a short link on the app's link domain. */
    "Links.Create": {
        params: {
            app: Identifier;
            link: ShortLink;
            requestId?: RequestId;
        };
        result: ShortLinkOutput;
    };
    /** Creates up to 1000 short links of one app, all or none. */
    "Links.BatchCreate": {
        params: {
            app: Identifier;
            links: ShortLink[];
            requestId?: RequestId;
        };
        result: {
            links: ShortLinkOutput[];
        };
    };
    /** Reads a short link. */
    "Links.Get": {
        params: {
            domain: Host;
            code: string;
        };
        result: ShortLinkOutput;
    };
    /** Lists short links by domain and code, of one app and matching a text when asked. */
    "Links.List": {
        params: {
            app?: Identifier;
            text?: string;
            tag?: string;
            campaign?: string;
            pageSize?: PageSize;
            pageToken?: PageToken;
        };
        result: {
            links: ShortLinkOutput[];
            nextPageToken?: NextPageToken;
        };
    };
    /** Replaces a short link's destinations, preview and expiry; its domain and code name it. */
    "Links.Update": {
        params: {
            link: ShortLink;
            etag?: Etag;
            requestId?: RequestId;
        };
        result: ShortLinkOutput;
    };
    /** Deletes a short link: it answers 404 from now on, and its code is not drawn again. */
    "Links.Delete": {
        params: {
            domain: Host;
            code: string;
            etag?: Etag;
            requestId?: RequestId;
        };
        result: Empty;
    };
    /** Resolves a short URL for one app version: its target, the route that decides it, the effective minimum version and why, and the decision CanOpen.Check gives for the target with the link's own minimum applied. */
    "Links.Resolve": {
        params: {
            url: string;
            platform: Platform;
            version: Version;
        };
        result: {
            target: string;
            app: string;
            route?: string | null;
            minVersion?: string | null;
            /** Where minVersion comes from: route (the target route's since) or link (the link's own minimum). */
            minVersionSource?: string | null;
            decision: Decision;
        };
    };
    /** Counts a short link's clicks per day, platform, outcome and source, people and bots apart (stored counts and those not written yet). */
    "Links.Stats": {
        params: {
            domain: Host;
            code: string;
        };
        result: {
            name: string;
            total: number;
            /** Of total, the clicks of people (every platform but crawler). */
            people?: number;
            /** Of total, the clicks of bots: link-preview fetchers, search engines and monitors (the crawler platform). */
            bots?: number;
            counts: ({
                day: string;
                platform: "ios" | "android" | "desktop" | "crawler";
                outcome: "crawler" | "landing" | "redirect" | "not_found";
                /** link: the short URL; qr: a scan of its QR code (the URL with ?qr=1, as /{code}/qr.svg and /{code}/qr.png draw it). */
                source?: "link" | "qr";
                /** bot for the crawler platform, person otherwise. */
                visitor?: "person" | "bot";
                count: number;
            })[];
            /** Visits to the link's domain in the last 30 days that found no link (an unknown, expired, deleted or disabled code; a long link refused), per day (newest first) and outcome; never the codes visited. */
            domainMisses?: ({
                day: string;
                outcome: "unknown" | "expired" | "deleted" | "refused" | "disabled";
                count: number;
            })[];
        };
    };
    /** A short link's QR code as SVG, the one its link domain serves at /{code}/qr.svg (and /{code}/qr.png): it encodes the short URL with ?qr=1, so scans are counted as the qr source. For any link not deleted (a disabled one too). */
    "Links.QRCode": {
        params: {
            domain: Host;
            code: string;
        };
        result: {
            /** What the code encodes: the short URL with ?qr=1. */
            url: string;
            /** The SVG document: module units with the quiet zone, black on white, no script. */
            svg: string;
        };
    };
    /** Adds a receiver of the app's link events; the answer holds its signing secret, once. */
    "Webhooks.Create": {
        params: {
            app: Identifier;
            webhook: Webhook;
            requestId?: RequestId;
        };
        result: WebhookOutput;
    };
    /** The app's webhooks, oldest first, with their delivery state (never their secrets). */
    "Webhooks.List": {
        params: {
            app: Identifier;
        };
        result: {
            webhooks: WebhookOutput[];
        };
    };
    /** Removes a webhook: no more deliveries; its events not delivered yet are dropped. */
    "Webhooks.Delete": {
        params: {
            app: Identifier;
            id: string;
            requestId?: RequestId;
        };
        result: Empty;
    };
    /** A webhook's latest delivery attempts (at most 100), newest first: when, how many events, the receiver's status or why none came, how long it took. */
    "Webhooks.Deliveries": {
        params: {
            app: Identifier;
            id: string;
        };
        result: {
            deliveries: ({
                time: string;
                events: number;
                status?: number;
                error?: string;
                milliseconds: number;
            })[];
        };
    };
    /** What applying a manifest would change, computed from the database: the same plan as routereg plan --json (changes in apply order, what the registry has that the manifest leaves out, the state it was computed from). */
    "Manifests.Plan": {
        params: {
            manifest: Manifest;
            prune?: boolean;
        };
        result: ManifestPlan;
    };
    /** Applies a manifest's routes in one write, all or nothing: routes added, changed, moved and, with prune, the managed routes it leaves out removed; every route it lists becomes managed by it. An admin's apply also writes the app's fields and creates or updates the manifest's domains (never deleting one); a releaser's is refused when the manifest changes them. One regeneration and one audit entry naming source and the plan's lines; an apply that would change nothing writes nothing. */
    "Manifests.Apply": {
        params: {
            manifest: Manifest;
            basis?: PlanBasis;
            changes?: PlanChange[];
            prune?: boolean;
            allowBreaking?: boolean;
            source?: string;
            requestId?: RequestId;
        };
        result: {
            plan: ManifestPlan;
            /** The registry state after the apply: the next plan's basis. */
            fingerprint: string;
        };
    };
}
/** Every wire method name, in the OpenRPC document's order. */
export declare const METHOD_NAMES: readonly ["Apps.Create", "Apps.Get", "Apps.List", "Apps.Update", "Apps.Delete", "Domains.Create", "Domains.Get", "Domains.List", "Domains.Delete", "Routes.Create", "Routes.BatchCreate", "Routes.Get", "Routes.List", "Routes.Update", "Routes.Delete", "Routes.Reorder", "Routes.SwitchOff", "Routes.SwitchOn", "Releases.Create", "Releases.Publish", "Releases.Retire", "Releases.Get", "Releases.List", "Associations.Get", "Associations.ListRevisions", "Associations.Diff", "Associations.Preview", "Associations.Watch", "Associations.Delivery", "CanOpen.GetTable", "CanOpen.Check", "Matrix.Get", "Tokens.Create", "Tokens.List", "Tokens.Revoke", "Tokens.WhoAmI", "Audit.List", "rpc.discover", "Links.Create", "Links.BatchCreate", "Links.Get", "Links.List", "Links.Update", "Links.Delete", "Links.Resolve", "Links.Stats", "Links.QRCode", "Webhooks.Create", "Webhooks.List", "Webhooks.Delete", "Webhooks.Deliveries", "Manifests.Plan", "Manifests.Apply"];
/** What the client needs to know of a method to call it safely. */
export interface MethodInfo {
    /** The least role that may call it (`public` needs no token). */
    access: "public" | "reader" | "releaser" | "admin";
    /** A read: repeating it changes nothing, so it may be retried after it was sent. */
    readOnly: boolean;
    /** Takes an idempotency `requestId`: a write that may be retried with the same id. */
    requestId: boolean;
    /** For a paged list: the result's array of items (with `nextPageToken` beside it). */
    pageItems?: string;
    /** Every param's name and whether it is required. */
    params: readonly {
        name: string;
        required: boolean;
    }[];
}
/** Every method's access, safety and params, from the OpenRPC document. */
export declare const METHOD_INFO: {
    readonly [M in keyof RegistryApi]: MethodInfo;
};
