"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.weakEtag = exports.canonicalJSON = exports.quoteEtag = exports.pathOf = exports.answer = exports.DOCUMENT_PATHS = void 0;
/** The request paths served, and which document each is. */
exports.DOCUMENT_PATHS = {
    "/.well-known/apple-app-site-association": "aasa",
    "/apple-app-site-association": "aasa",
    "/.well-known/assetlinks.json": "assetlinks",
};
/**
 * The answer for `method path` on `host`, or undefined when the path is not one of the documents served (the
 * caller's framework then goes on to its next handler).
 */
function answer(method, path, host, ifNoneMatch, lookup, kinds, cacheControl) {
    const kind = Object.prototype.hasOwnProperty.call(exports.DOCUMENT_PATHS, path) ? exports.DOCUMENT_PATHS[path] : undefined;
    if (kind === undefined || !kinds.includes(kind))
        return undefined;
    if (method !== "GET" && method !== "HEAD") {
        return text(405, "method not allowed\n", [["Allow", "GET, HEAD"]]);
    }
    const entry = lookup(host, kind);
    if (entry === undefined || entry.state === "absent")
        return text(404, "not found\n");
    if (entry.state === "pending") {
        return text(503, "the association document has not been loaded yet\n", [["Retry-After", "5"]]);
    }
    const headers = [["ETag", entry.etag], ["Cache-Control", cacheControl]];
    if (etagMatches(ifNoneMatch, entry.etag))
        return { status: 304, headers };
    headers.push(["Content-Type", "application/json"], ["Content-Length", entry.length]);
    return method === "HEAD" ? { status: 200, headers } : { status: 200, headers, body: entry.body };
}
exports.answer = answer;
function text(status, body, extra = []) {
    return {
        status,
        headers: [...extra, ["Content-Type", "text/plain; charset=utf-8"], ["Cache-Control", "no-store"]],
        body,
    };
}
/** The path of a request URL, without its query. */
function pathOf(url) {
    return (url ?? "/").split("?")[0];
}
exports.pathOf = pathOf;
/** The registry's ETag is opaque; HTTP wants it quoted. */
function quoteEtag(etag) {
    return /^(W\/)?".*"$/.test(etag) ? etag : `"${etag.replace(/"/g, "")}"`;
}
exports.quoteEtag = quoteEtag;
/** `If-None-Match` uses weak comparison: `W/` prefixes are ignored, `*` matches any current document. */
function etagMatches(header, etag) {
    if (header === undefined)
        return false;
    const strip = (tag) => tag.trim().replace(/^W\//, "");
    const wanted = strip(etag);
    const values = Array.isArray(header) ? header.join(",") : header;
    return values.split(",").some((tag) => tag.trim() === "*" || strip(tag) === wanted);
}
/**
 * Compact JSON with object keys sorted, as the registry writes its documents: the bytes served then match
 * the registry's own, so its ETag (a hash of those bytes) stays a truthful validator.
 */
function canonicalJSON(value) {
    return JSON.stringify(value, (_key, item) => {
        if (typeof item !== "object" || item === null || Array.isArray(item))
            return item;
        const sorted = {};
        for (const key of Object.keys(item).sort())
            sorted[key] = item[key];
        return sorted;
    });
}
exports.canonicalJSON = canonicalJSON;
/**
 * A weak ETag for a startup document whose registry ETag is unknown: FNV-1a over its bytes, so a restart
 * with the same document keeps the same validator.
 */
function weakEtag(body) {
    let hash = 0x811c9dc5;
    for (let i = 0; i < body.length; i++) {
        hash ^= body.charCodeAt(i);
        hash = Math.imul(hash, 0x01000193) >>> 0;
    }
    return `W/"startup-${hash.toString(16).padStart(8, "0")}-${body.length.toString(16)}"`;
}
exports.weakEtag = weakEtag;
