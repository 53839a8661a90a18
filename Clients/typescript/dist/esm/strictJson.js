/**
 * Reading AASA text as strict JSON, the way iOS does: a file that is not strict JSON (a trailing comma, a
 * comment, `NaN`) is ignored whole, so every universal link of the domain stops working. `JSON.parse` refuses
 * the same inputs but does not always say where; this says what and where (line, column, UTF-8 byte offset),
 * in the words RouteRegistry's `routereg aasa check` uses.
 */
/** A document that is not strict JSON; `line` and `column` count from 1, `offset` is a UTF-8 byte offset. */
export class AASASyntaxError extends Error {
    constructor(reason, line, column, offset) {
        super(`not valid JSON: line ${line}, column ${column} (byte ${offset}): ${reason}`);
        this.reason = reason;
        this.line = line;
        this.column = column;
        this.offset = offset;
        this.name = "AASASyntaxError";
    }
}
/** The JSON value of an AASA file's text; throws `AASASyntaxError` unless it is exactly one RFC 8259 value. */
export function parseAASA(text) {
    const body = text.startsWith("\ufeff") ? text.slice(1) : text;
    try {
        return JSON.parse(body);
    }
    catch {
        const [position, reason] = firstProblem(body);
        throw locate(body, position, reason);
    }
}
/** The first RFC 8259 violation in `text` (index in UTF-16 code units, and what is wrong). */
function firstProblem(text) {
    let i = 0;
    const ws = () => {
        while (i < text.length && " \t\r\n".includes(text[i]))
            i++;
    };
    const fail = (at, reason) => {
        throw [at, reason];
    };
    const shown = (at) => (at < text.length ? `'${text[at]}'` : "the end");
    const value = (depth) => {
        ws();
        if (i >= text.length)
            fail(i, "the document ends where a value was expected");
        const c = text[i];
        if (c === "{" || c === "[") {
            if (depth >= 512)
                fail(i, "nesting deeper than 512 levels");
            const object = c === "{";
            const close = object ? "}" : "]";
            i++;
            ws();
            if (text[i] === close) {
                i++;
                return;
            }
            for (;;) {
                if (object) {
                    ws();
                    if (text[i] !== '"')
                        fail(i, `expected a member name in double quotes, found ${shown(i)}`);
                    string();
                    ws();
                    if (text[i] !== ":")
                        fail(i, `expected ':' after the member name, found ${shown(i)}`);
                    i++;
                }
                value(depth + 1);
                ws();
                if (text[i] === close) {
                    i++;
                    return;
                }
                if (text[i] !== ",") {
                    if (i >= text.length)
                        fail(i, `the document ends inside an ${object ? "object" : "array"}: expected ',' or '${close}'`);
                    fail(i, `expected ',' or '${close}' after ${object ? "a member" : "an element"}, found ${shown(i)}`);
                }
                const comma = i++;
                ws();
                if (text[i] === "}" || text[i] === "]") {
                    fail(comma, `trailing comma before '${text[i]}': JSON allows no comma after the last ${object ? "member" : "element"}`);
                }
            }
        }
        if (c === '"')
            return string();
        for (const word of ["true", "false", "null"]) {
            if (c === word[0]) {
                if (text.startsWith(word, i)) {
                    i += word.length;
                    return;
                }
                fail(i, `expected '${word}'`);
            }
        }
        const number = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
        if (number === null || number[0] === "-")
            fail(i, `expected a JSON value, found ${shown(i)}`);
        if (number[1] === "0" && /\d/.test(text[i + number[0].length] ?? ""))
            fail(i, "a number may not have a leading zero");
        i += number[0].length;
    };
    const string = () => {
        const start = i++;
        while (i < text.length) {
            const c = text[i];
            if (c === '"') {
                i++;
                return;
            }
            if (c < " ")
                fail(i, "control character inside a string (write it as an escape)");
            if (c === "\\") {
                if (!/^(["\\/bfnrt]|u[0-9a-fA-F]{4})/.test(text.slice(i + 1, i + 6)))
                    fail(i, `invalid escape in a string`);
                i += text[i + 1] === "u" ? 6 : 2;
            }
            else {
                i++;
            }
        }
        fail(start, "unterminated string");
    };
    try {
        ws();
        if (i >= text.length)
            return [i, "the document is empty: expected a JSON value"];
        value(0);
        ws();
        if (i < text.length)
            return [i, `unexpected ${shown(i)} after the end of the JSON value`];
    }
    catch (problem) {
        if (Array.isArray(problem))
            return problem;
        throw problem;
    }
    // JSON.parse refused what this scan accepts (e.g. an unpaired surrogate): say so without a finer place.
    return [0, "not accepted by JSON.parse"];
}
function utf8Length(text) {
    let bytes = 0;
    for (const char of text) {
        const code = char.codePointAt(0);
        bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    }
    return bytes;
}
function locate(text, position, reason) {
    const before = text.slice(0, position);
    const lineStart = before.lastIndexOf("\n") + 1;
    const line = before.split("\n").length;
    const column = Array.from(before.slice(lineStart)).length + 1;
    return new AASASyntaxError(reason, line, column, utf8Length(before));
}
