// What the AASA handler answers for a request, independent of the web framework: the Node/Express/Connect
// handler and the Fastify plugin both write this answer their own way.
import type { DocumentKind } from "./types.js";

/** The request paths served, and which document each is. */
export const DOCUMENT_PATHS: Readonly<Record<string, DocumentKind>> = {
  "/.well-known/apple-app-site-association": "aasa",
  "/apple-app-site-association": "aasa",
  "/.well-known/assetlinks.json": "assetlinks",
};

/** A document held in memory: its bytes, their length and the ETag (quoted, as HTTP wants it). */
export interface ServedDocument {
  body: string;
  length: string;
  etag: string;
}

/** What the handler knows of one (host, kind): nothing yet, "no such document", or the document. */
export type DocumentState = { state: "pending" } | { state: "absent" } | ({ state: "ready" } & ServedDocument);

/** An HTTP answer: status, headers and (unless HEAD or 304) a body. */
export interface Answer {
  status: number;
  headers: [string, string][];
  body?: string;
}

/**
 * The answer for `method path` on `host`, or undefined when the path is not one of the documents served (the
 * caller's framework then goes on to its next handler).
 */
export function answer(
  method: string | undefined,
  path: string,
  host: string,
  ifNoneMatch: string | string[] | undefined,
  lookup: (host: string, kind: DocumentKind) => DocumentState | undefined,
  kinds: readonly DocumentKind[],
  cacheControl: string,
): Answer | undefined {
  const kind = Object.prototype.hasOwnProperty.call(DOCUMENT_PATHS, path) ? DOCUMENT_PATHS[path] : undefined;
  if (kind === undefined || !kinds.includes(kind)) return undefined;
  if (method !== "GET" && method !== "HEAD") {
    return text(405, "method not allowed\n", [["Allow", "GET, HEAD"]]);
  }
  const entry = lookup(host, kind);
  if (entry === undefined || entry.state === "absent") return text(404, "not found\n");
  if (entry.state === "pending") {
    return text(503, "the association document has not been loaded yet\n", [["Retry-After", "5"]]);
  }
  const headers: [string, string][] = [["ETag", entry.etag], ["Cache-Control", cacheControl]];
  if (etagMatches(ifNoneMatch, entry.etag)) return { status: 304, headers };
  headers.push(["Content-Type", "application/json"], ["Content-Length", entry.length]);
  return method === "HEAD" ? { status: 200, headers } : { status: 200, headers, body: entry.body };
}

function text(status: number, body: string, extra: [string, string][] = []): Answer {
  return {
    status,
    headers: [...extra, ["Content-Type", "text/plain; charset=utf-8"], ["Cache-Control", "no-store"]],
    body,
  };
}

/** The path of a request URL, without its query. */
export function pathOf(url: string | undefined): string {
  return (url ?? "/").split("?")[0];
}

/** The registry's ETag is opaque; HTTP wants it quoted. */
export function quoteEtag(etag: string): string {
  return /^(W\/)?".*"$/.test(etag) ? etag : `"${etag.replace(/"/g, "")}"`;
}

/** `If-None-Match` uses weak comparison: `W/` prefixes are ignored, `*` matches any current document. */
function etagMatches(header: string | string[] | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const strip = (tag: string): string => tag.trim().replace(/^W\//, "");
  const wanted = strip(etag);
  const values = Array.isArray(header) ? header.join(",") : header;
  return values.split(",").some((tag) => tag.trim() === "*" || strip(tag) === wanted);
}

/**
 * Compact JSON with object keys sorted, as the registry writes its documents: the bytes served then match
 * the registry's own, so its ETag (a hash of those bytes) stays a truthful validator.
 */
export function canonicalJSON(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => {
    if (typeof item !== "object" || item === null || Array.isArray(item)) return item;
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(item).sort()) sorted[key] = (item as Record<string, unknown>)[key];
    return sorted;
  });
}

/**
 * A weak ETag for a startup document whose registry ETag is unknown: FNV-1a over its bytes, so a restart
 * with the same document keeps the same validator.
 */
export function weakEtag(body: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < body.length; i++) {
    hash ^= body.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return `W/"startup-${hash.toString(16).padStart(8, "0")}-${body.length.toString(16)}"`;
}
