/**
 * A URL split the way iOS sees it for universal-link matching.
 *
 * Parsed by hand rather than with WHATWG `URL`, which re-encodes and normalises paths and percent-escapes:
 * the hex case of an escape, `%2F`, and the difference between an absent and an empty query or fragment
 * all change what an `apple-app-site-association` rule matches, so they must survive exactly as written.
 */
export interface LinkURL {
    /** The scheme, lower-cased (`https`, or a custom scheme such as `badoo`). */
    scheme: string;
    /** The host, lower-cased, without user info, port or trailing dot; "" when there is none. */
    host: string;
    /** The path as written ("" when absent). */
    path: string;
    /** The query as written, without its `?`; undefined when the URL has no `?`. */
    query?: string;
    /** The fragment as written, without its `#`; undefined when the URL has no `#`. */
    fragment?: string;
}
/** Parses `scheme:[//authority]path[?query][#fragment]`; undefined when the string has no valid scheme. */
export declare function parseLinkURL(text: string): LinkURL | undefined;
/** Hosts compare case-insensitively, without a port, and `example.com.` is `example.com`. */
export declare function normalizeHost(host: string): string;
/**
 * Decodes `%XX` escapes as UTF-8. An escape that is malformed, or a byte run that is not valid UTF-8,
 * stays as written: iOS compares what it cannot decode literally rather than rejecting the URL.
 */
export declare function percentDecode(text: string): string;
