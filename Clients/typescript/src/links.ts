// Short links for the two kinds of callers a web stack has: a campaign pipeline that creates links (in batches,
// retried without ever creating one twice), and a site that hosts a short link's landing page itself and needs
// what the registry's own landing page would show.
import type { AppOutput, Decision, Platform, RegistryApi, ShortLink, ShortLinkOutput } from "./generated/api.js";
import { RegistryError, Status } from "./errors.js";

/** What `Links.Resolve` answers: the target, its route, the effective minimum version and why, the decision. */
export type LinkResolution = RegistryApi["Links.Resolve"]["result"];

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
  call<M extends "Links.Create" | "Links.BatchCreate">(
    method: M,
    params: RegistryApi[M]["params"],
    options?: { timeoutMs?: number },
  ): Promise<RegistryApi[M]["result"]>;
}

/** Links per `Links.BatchCreate` (the server's limit). */
export const MAX_BATCH = 1000;

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** Failures after which the write may or may not have committed: retried with the same key. */
const UNKNOWN_OUTCOME = new Set<number>([Status.UNAVAILABLE, Status.DEADLINE_EXCEEDED, Status.ABORTED]);

export function createLinkWith(caller: LinkCaller, app: string, link: ShortLink, options?: CreateLinkOptions): Promise<ShortLinkOutput>;
export function createLinkWith(caller: LinkCaller, app: string, links: readonly ShortLink[], options?: CreateLinkOptions): Promise<ShortLinkOutput[]>;
/**
 * Creates one link (`Links.Create`) or many (`Links.BatchCreate`, all or none per chunk of 1000), retrying a call
 * whose outcome is unknown with the same `requestId`, so a link is never created twice.
 */
export async function createLinkWith(
  caller: LinkCaller,
  app: string,
  linkOrLinks: ShortLink | readonly ShortLink[],
  options: CreateLinkOptions = {},
): Promise<ShortLinkOutput | ShortLinkOutput[]> {
  const requestId = options.requestId ?? randomKey();
  if (!REQUEST_ID.test(requestId)) throw new RangeError(`requestId must be 1-64 of A-Z a-z 0-9 . _ : - (got ${JSON.stringify(requestId)})`);
  if (!Array.isArray(linkOrLinks)) {
    const one = await withRetries(options, () =>
      caller.call("Links.Create", { app, link: linkOrLinks as ShortLink, requestId }, callOptions(options)));
    return one;
  }
  const links = linkOrLinks as readonly ShortLink[];
  if (links.length === 0) return [];
  const chunks: ShortLink[][] = [];
  for (let i = 0; i < links.length; i += MAX_BATCH) chunks.push(links.slice(i, i + MAX_BATCH));
  const out: ShortLinkOutput[] = [];
  for (const [index, chunk] of chunks.entries()) {
    const key = chunks.length === 1 ? requestId : `${requestId}.${index}`;
    if (key.length > 64) throw new RangeError(`requestId is too long for ${chunks.length} chunks: keep it under ${64 - String(chunks.length).length - 1} characters`);
    const result = await withRetries(options, () =>
      caller.call("Links.BatchCreate", { app, links: chunk, requestId: key }, callOptions(options)));
    out.push(...result.links);
  }
  return out;
}

function callOptions(options: CreateLinkOptions): { timeoutMs?: number } {
  return options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs };
}

async function withRetries<T>(options: CreateLinkOptions, attempt: () => Promise<T>): Promise<T> {
  const attempts = Math.max(1, options.attempts ?? 4);
  let wait = options.backoffMs ?? 200;
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (error) {
      if (n >= attempts || !(error instanceof RegistryError) || !UNKNOWN_OUTCOME.has(error.code)) throw error;
      await new Promise((resolve) => setTimeout(() => resolve(undefined), wait));
      wait *= 2;
    }
  }
}

function randomKey(): string {
  const webCrypto = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  if (typeof webCrypto?.randomUUID === "function") return webCrypto.randomUUID();
  let id = "";
  for (let i = 0; i < 4; i++) id += Math.floor(Math.random() * 0x100000000).toString(16).padStart(8, "0");
  return id;
}

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
export function landingData(input: LandingInput): LandingData {
  const { link, app, platform, resolution } = input;
  const appName = app.displayName || app.id;
  const preview = link.preview ?? {};
  const ownTitle = typeof preview.title === "string" && preview.title !== "";
  const data: LandingData = {
    shortUrl: `https://${link.domain}/${link.code}`,
    title: ownTitle ? (preview.title as string) : appName,
    hasOwnTitle: ownTitle,
    appName,
    openUrl: link.target,
    webUrl: (platform && link[platform]?.fallbackUrl) || fallbackUrl(link.target, app.fallback),
    skipLanding: link.skipLanding === true,
  };
  if (typeof preview.description === "string") data.description = preview.description;
  if (typeof preview.imageUrl === "string" && preview.imageUrl.toLowerCase().startsWith("https://")) data.imageUrl = preview.imageUrl;
  if (platform) data.platform = platform;
  if (platform === "ios" && app.ios?.appStoreId) {
    data.storeUrl = appStoreUrl(app.ios.appStoreId, `${link.domain}/${link.code}`);
  } else if (platform === "android" && app.android?.packageName) {
    data.storeUrl = playStoreUrl(app.android.packageName, `link=${link.domain}/${link.code}`);
  }
  if (resolution) {
    if (resolution.minVersion) data.minVersion = resolution.minVersion;
    if (resolution.minVersionSource) data.minVersionSource = resolution.minVersionSource;
    data.decision = resolution.decision;
    if (resolution.decision.supportedSince) data.supportedSince = resolution.decision.supportedSince;
  }
  return data;
}

/** `url` with the app's fallback marker (`ul_fallback=1`) in its query, before any fragment; existing marker items dropped. */
export function fallbackUrl(url: string, policy?: { queryItem?: string; value?: string }): string {
  const name = policy?.queryItem || "ul_fallback";
  const value = policy?.value || "1";
  const hash = url.indexOf("#");
  const beforeHash = hash < 0 ? url : url.slice(0, hash);
  const fragment = hash < 0 ? "" : url.slice(hash);
  const mark = beforeHash.indexOf("?");
  const base = mark < 0 ? beforeHash : beforeHash.slice(0, mark);
  const items = mark < 0 ? [] : beforeHash.slice(mark + 1).split("&").filter((item) => item !== "" && !isMarker(item.split("=")[0] ?? "", name));
  items.push(`${rfc3986(name)}=${rfc3986(value)}`);
  return `${base}?${items.join("&")}${fragment}`;
}

function isMarker(itemName: string, marker: string): boolean {
  if (!itemName.includes("%")) return itemName === marker;
  try {
    return decodeURIComponent(itemName) === marker;
  } catch {
    return itemName === marker;
  }
}

/** `https://apps.apple.com/app/id{id}?ct={campaign}&mt=8`, the campaign token cut to Apple's 40 bytes. */
export function appStoreUrl(appStoreId: string, campaign: string): string {
  const id = /^id\d+$/.test(appStoreId) ? appStoreId.slice(2) : appStoreId;
  const token = truncateUtf8(campaign, 40);
  return `https://apps.apple.com/app/id${rfc3986(id)}?${token ? `ct=${rfc3986(token)}&` : ""}mt=8`;
}

/** `https://play.google.com/store/apps/details?id={package}&referrer={referrer}`, the referrer encoded once. */
export function playStoreUrl(packageName: string, referrer: string): string {
  return `https://play.google.com/store/apps/details?id=${rfc3986(packageName)}${referrer ? `&referrer=${rfc3986(referrer)}` : ""}`;
}

/** RFC 3986 percent-encoding of everything but `A-Z a-z 0-9 - . _ ~`. */
function rfc3986(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function truncateUtf8(text: string, limit: number): string {
  let out = "";
  let bytes = 0;
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    const size = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    if (bytes + size > limit) break;
    out += char;
    bytes += size;
  }
  return out;
}
