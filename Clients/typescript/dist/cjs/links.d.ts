import type { AppOutput, Decision, Platform, RegistryApi, ShortLink, ShortLinkOutput } from "./generated/api.js";
/** What `Links.Resolve` answers: the target, its route, the effective minimum version and why, the decision. */
export declare type LinkResolution = RegistryApi["Links.Resolve"]["result"];
/** Options of `createLink`. */
export interface CreateLinkOptions {
    /**
     * The idempotency key of the whole call (1–64 of `A-Z a-z 0-9 . _ : -`); a random one by default. Every attempt
     * sends the same key, so the server writes once; pass the pipeline's own (a campaign's ID) and a rerun of the
     * pipeline with the same links gets the first outcome back instead of new links (other links with the same
     * key are refused, INVALID_ARGUMENT on `requestId`). A batch of more than 1000 links is sent in chunks keyed
     * `{requestId}.{n}`.
     */
    requestId?: string;
    /** Attempts in all when the outcome is unknown (UNAVAILABLE, DEADLINE_EXCEEDED, ABORTED); default 4. */
    attempts?: number;
    /** The first wait between attempts in ms (default 200), doubled each time. */
    backoffMs?: number;
    /** Each attempt's deadline in ms (`X-Request-Timeout-Ms`). */
    timeoutMs?: number;
}
/** The client's one method `createLink` needs (structural, so tests can stand in for it). */
export interface LinkCaller {
    call<M extends "Links.Create" | "Links.BatchCreate">(method: M, params: RegistryApi[M]["params"], options?: {
        timeoutMs?: number;
    }): Promise<RegistryApi[M]["result"]>;
}
/** Links per `Links.BatchCreate` (the server's limit). */
export declare const MAX_BATCH = 1000;
export declare function createLinkWith(caller: LinkCaller, app: string, link: ShortLink, options?: CreateLinkOptions): Promise<ShortLinkOutput>;
export declare function createLinkWith(caller: LinkCaller, app: string, links: readonly ShortLink[], options?: CreateLinkOptions): Promise<ShortLinkOutput[]>;
/** What a short link's landing page shows, as the registry's own page shows it (its buttons in order). */
export interface LandingData {
    /** `https://{domain}/{code}`: the page's canonical URL (`og:url`). */
    shortUrl: string;
    /** The preview's title, else the app's name. */
    title: string;
    /** True when `title` is the preview's own (the page then also names the app above it). */
    hasOwnTitle: boolean;
    description?: string;
    /** The preview image, only when it is an `https:` URL (the page loads nothing else). */
    imageUrl?: string;
    /** The app's display name (its ID without one). */
    appName: string;
    /** "Open in {appName}": the deep link. */
    openUrl: string;
    /** "Get {appName}": the App Store (campaign `{domain}/{code}`) or Play Store (referrer `link={domain}/{code}`) page for a phone of that platform. */
    storeUrl?: string;
    /** "Continue on the web": the platform's fallback URL, else the target with the fallback marker. */
    webUrl: string;
    /** The visitor's platform, if a phone. */
    platform?: Platform;
    /** Phones skip the page and go straight to the target (unless they came back from the app's fallback). */
    skipLanding: boolean;
    /** From a resolution for the visitor's version: the effective minimum version and why (`route` or `link`). */
    minVersion?: string;
    minVersionSource?: string;
    /** From a resolution: the decision for that version, and the version to update to when it is too old. */
    decision?: Decision;
    supportedSince?: string;
}
/** What `landingData` needs: the link (`Links.Get`), its app (`Apps.Get`), the visitor's platform and, optionally, a resolution for the visitor's version (`Links.Resolve`). */
export interface LandingInput {
    link: ShortLinkOutput;
    app: AppOutput;
    platform?: Platform;
    resolution?: LinkResolution;
}
/**
 * The landing page's data for a resolved link, computed as the registry computes its own page: for a site that
 * hosts the landing page itself (its own design, same buttons). Every value is data: escape it when rendering.
 */
export declare function landingData(input: LandingInput): LandingData;
/** `url` with the app's fallback marker (`ul_fallback=1`) in its query, before any fragment; existing marker items dropped. */
export declare function fallbackUrl(url: string, policy?: {
    queryItem?: string;
    value?: string;
}): string;
/** `https://apps.apple.com/app/id{id}?ct={campaign}&mt=8`, the campaign token cut to Apple's 40 bytes. */
export declare function appStoreUrl(appStoreId: string, campaign: string): string;
/** `https://play.google.com/store/apps/details?id={package}&referrer={referrer}`, the referrer encoded once. */
export declare function playStoreUrl(packageName: string, referrer: string): string;
