import { RegistryError, Status } from "./errors.js";
/** Links per `Links.BatchCreate` (the server's limit). */
export const MAX_BATCH = 1000;
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;
/** Failures after which the write may or may not have committed: retried with the same key. */
const UNKNOWN_OUTCOME = new Set([Status.UNAVAILABLE, Status.DEADLINE_EXCEEDED, Status.ABORTED]);
/**
 * Creates one link (`Links.Create`) or many (`Links.BatchCreate`, all or none per chunk of 1000), retrying a call
 * whose outcome is unknown with the same `requestId`, so a link is never created twice.
 */
export async function createLinkWith(caller, app, linkOrLinks, options = {}) {
    const requestId = options.requestId ?? randomKey();
    if (!REQUEST_ID.test(requestId))
        throw new RangeError(`requestId must be 1-64 of A-Z a-z 0-9 . _ : - (got ${JSON.stringify(requestId)})`);
    if (!Array.isArray(linkOrLinks)) {
        const one = await withRetries(options, () => caller.call("Links.Create", { app, link: linkOrLinks, requestId }, callOptions(options)));
        return one;
    }
    const links = linkOrLinks;
    if (links.length === 0)
        return [];
    const chunks = [];
    for (let i = 0; i < links.length; i += MAX_BATCH)
        chunks.push(links.slice(i, i + MAX_BATCH));
    const out = [];
    for (const [index, chunk] of chunks.entries()) {
        const key = chunks.length === 1 ? requestId : `${requestId}.${index}`;
        if (key.length > 64)
            throw new RangeError(`requestId is too long for ${chunks.length} chunks: keep it under ${64 - String(chunks.length).length - 1} characters`);
        const result = await withRetries(options, () => caller.call("Links.BatchCreate", { app, links: chunk, requestId: key }, callOptions(options)));
        out.push(...result.links);
    }
    return out;
}
function callOptions(options) {
    return options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs };
}
async function withRetries(options, attempt) {
    const attempts = Math.max(1, options.attempts ?? 4);
    let wait = options.backoffMs ?? 200;
    for (let n = 1;; n++) {
        try {
            return await attempt();
        }
        catch (error) {
            if (n >= attempts || !(error instanceof RegistryError) || !UNKNOWN_OUTCOME.has(error.code))
                throw error;
            await new Promise((resolve) => setTimeout(() => resolve(undefined), wait));
            wait *= 2;
        }
    }
}
function randomKey() {
    const webCrypto = globalThis.crypto;
    if (typeof webCrypto?.randomUUID === "function")
        return webCrypto.randomUUID();
    let id = "";
    for (let i = 0; i < 4; i++)
        id += Math.floor(Math.random() * 0x100000000).toString(16).padStart(8, "0");
    return id;
}
/**
 * The landing page's data for a resolved link, computed as the registry computes its own page: for a site that
 * hosts the landing page itself (its own design, same buttons). Every value is data: escape it when rendering.
 */
export function landingData(input) {
    const { link, app, platform, resolution } = input;
    const appName = app.displayName || app.id;
    const preview = link.preview ?? {};
    const ownTitle = typeof preview.title === "string" && preview.title !== "";
    const data = {
        shortUrl: `https://${link.domain}/${link.code}`,
        title: ownTitle ? preview.title : appName,
        hasOwnTitle: ownTitle,
        appName,
        openUrl: link.target,
        webUrl: (platform && link[platform]?.fallbackUrl) || fallbackUrl(link.target, app.fallback),
        skipLanding: link.skipLanding === true,
    };
    if (typeof preview.description === "string")
        data.description = preview.description;
    if (typeof preview.imageUrl === "string" && preview.imageUrl.toLowerCase().startsWith("https://"))
        data.imageUrl = preview.imageUrl;
    if (platform)
        data.platform = platform;
    if (platform === "ios" && app.ios?.appStoreId) {
        data.storeUrl = appStoreUrl(app.ios.appStoreId, `${link.domain}/${link.code}`);
    }
    else if (platform === "android" && app.android?.packageName) {
        data.storeUrl = playStoreUrl(app.android.packageName, `link=${link.domain}/${link.code}`);
    }
    if (resolution) {
        if (resolution.minVersion)
            data.minVersion = resolution.minVersion;
        if (resolution.minVersionSource)
            data.minVersionSource = resolution.minVersionSource;
        data.decision = resolution.decision;
        if (resolution.decision.supportedSince)
            data.supportedSince = resolution.decision.supportedSince;
    }
    return data;
}
/** `url` with the app's fallback marker (`ul_fallback=1`) in its query, before any fragment; existing marker items dropped. */
export function fallbackUrl(url, policy) {
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
function isMarker(itemName, marker) {
    if (!itemName.includes("%"))
        return itemName === marker;
    try {
        return decodeURIComponent(itemName) === marker;
    }
    catch {
        return itemName === marker;
    }
}
/** `https://apps.apple.com/app/id{id}?ct={campaign}&mt=8`, the campaign token cut to Apple's 40 bytes. */
export function appStoreUrl(appStoreId, campaign) {
    const id = /^id\d+$/.test(appStoreId) ? appStoreId.slice(2) : appStoreId;
    const token = truncateUtf8(campaign, 40);
    return `https://apps.apple.com/app/id${rfc3986(id)}?${token ? `ct=${rfc3986(token)}&` : ""}mt=8`;
}
/** `https://play.google.com/store/apps/details?id={package}&referrer={referrer}`, the referrer encoded once. */
export function playStoreUrl(packageName, referrer) {
    return `https://play.google.com/store/apps/details?id=${rfc3986(packageName)}${referrer ? `&referrer=${rfc3986(referrer)}` : ""}`;
}
/** RFC 3986 percent-encoding of everything but `A-Z a-z 0-9 - . _ ~`. */
function rfc3986(text) {
    return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
function truncateUtf8(text, limit) {
    let out = "";
    let bytes = 0;
    for (const char of text) {
        const code = char.codePointAt(0) ?? 0;
        const size = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
        if (bytes + size > limit)
            break;
        out += char;
        bytes += size;
    }
    return out;
}
