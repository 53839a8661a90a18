import type { DocumentKind } from "./types.js";
/** The request paths served, and which document each is. */
export declare const DOCUMENT_PATHS: Readonly<Record<string, DocumentKind>>;
/** A document held in memory: its bytes, their length and the ETag (quoted, as HTTP wants it). */
export interface ServedDocument {
    body: string;
    length: string;
    etag: string;
}
/** What the handler knows of one (host, kind): nothing yet, "no such document", or the document. */
export declare type DocumentState = {
    state: "pending";
} | {
    state: "absent";
} | ({
    state: "ready";
} & ServedDocument);
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
export declare function answer(method: string | undefined, path: string, host: string, ifNoneMatch: string | string[] | undefined, lookup: (host: string, kind: DocumentKind) => DocumentState | undefined, kinds: readonly DocumentKind[], cacheControl: string): Answer | undefined;
/** The path of a request URL, without its query. */
export declare function pathOf(url: string | undefined): string;
/** The registry's ETag is opaque; HTTP wants it quoted. */
export declare function quoteEtag(etag: string): string;
/**
 * Compact JSON with object keys sorted, as the registry writes its documents: the bytes served then match
 * the registry's own, so its ETag (a hash of those bytes) stays a truthful validator.
 */
export declare function canonicalJSON(value: unknown): string;
/**
 * A weak ETag for a startup document whose registry ETag is unknown: FNV-1a over its bytes, so a restart
 * with the same document keeps the same validator.
 */
export declare function weakEtag(body: string): string;
