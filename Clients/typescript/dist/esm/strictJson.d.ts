/**
 * Reading AASA text as strict JSON, the way iOS does: a file that is not strict JSON (a trailing comma, a
 * comment, `NaN`) is ignored whole, so every universal link of the domain stops working. `JSON.parse` refuses
 * the same inputs but does not always say where; this says what and where (line, column, UTF-8 byte offset),
 * in the words RouteRegistry's `routereg aasa check` uses.
 */
/** A document that is not strict JSON; `line` and `column` count from 1, `offset` is a UTF-8 byte offset. */
export declare class AASASyntaxError extends Error {
    readonly reason: string;
    readonly line: number;
    readonly column: number;
    readonly offset: number;
    constructor(reason: string, line: number, column: number, offset: number);
}
/** The JSON value of an AASA file's text; throws `AASASyntaxError` unless it is exactly one RFC 8259 value. */
export declare function parseAASA(text: string): unknown;
