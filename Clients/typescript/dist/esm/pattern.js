import { ISO_3166_1_ALPHA2, ISO_639_1 } from "./isoCodes.js";
const range = (from, to) => {
    const out = [];
    for (let c = from.charCodeAt(0); c <= to.charCodeAt(0); c += 1)
        out.push(String.fromCharCode(c));
    return out;
};
const UPPER = range("A", "Z");
const LOWER = range("a", "z");
const DIGIT = range("0", "9");
/** Apple's predefined variables; they win over user-defined lists of the same name. */
const PREDEFINED = {
    alpha: [...UPPER, ...LOWER],
    upper: UPPER,
    lower: LOWER,
    alnum: [...UPPER, ...LOWER, ...DIGIT],
    digit: DIGIT,
    xdigit: [...DIGIT, ...range("A", "F"), ...range("a", "f")],
    lang: ISO_639_1,
    region: ISO_3166_1_ALPHA2,
};
/** A compiled pattern, ready to test subjects against. */
export class Pattern {
    /**
     * Compiles `source`. With `caseSensitive` false both the pattern (variable values included, variable
     * names not) and every subject are lower-cased, so `$(upper)` then also accepts `q`.
     */
    constructor(source, variables, caseSensitive) {
        this.caseSensitive = caseSensitive;
        this.tokens = compile(source, { ...variables, ...PREDEFINED }, caseSensitive, true);
    }
    /** True when the whole of `subject` matches the pattern. */
    matches(subject) {
        const chars = Array.from(this.caseSensitive ? subject : subject.toLowerCase());
        return advance(this.tokens, chars, new Set([0])).has(chars.length);
    }
}
function compile(source, variables, caseSensitive, expand) {
    const tokens = [];
    let literal = "";
    const flush = () => {
        if (literal === "")
            return;
        tokens.push({ kind: "literal", chars: Array.from(caseSensitive ? literal : literal.toLowerCase()) });
        literal = "";
    };
    let i = 0;
    while (i < source.length) {
        const c = source[i];
        if (c === "*") {
            flush();
            // Adjacent stars mean the same as one; collapsing them keeps matching linear.
            if (tokens[tokens.length - 1]?.kind !== "any")
                tokens.push({ kind: "any" });
            i += 1;
            continue;
        }
        if (c === "?") {
            flush();
            tokens.push({ kind: "one" });
            i += 1;
            continue;
        }
        if (c === "$" && expand && source[i + 1] === "(") {
            const close = source.indexOf(")", i + 2);
            const name = close >= 0 ? source.slice(i + 2, close) : "";
            const values = Object.prototype.hasOwnProperty.call(variables, name) ? variables[name] : undefined;
            if (close >= 0 && !/[$(]/.test(name) && values !== undefined) {
                flush();
                // Values may hold wildcards but never other variables.
                tokens.push({ kind: "oneOf", options: values.map((v) => compile(v, variables, caseSensitive, false)) });
                i = close + 1;
                continue;
            }
        }
        // Iterate by code point so a surrogate pair stays one character for `?`.
        const cp = source.codePointAt(i) ?? 0;
        const ch = String.fromCodePoint(cp);
        literal += ch;
        i += ch.length;
    }
    flush();
    return tokens;
}
/**
 * Runs the tokens over `subject` from every start position at once and returns every position where a
 * match of all tokens can end. Tracking sets of positions (an NFA walk) instead of backtracking keeps a
 * hostile pattern such as `*a*a*a*b` polynomial.
 */
function advance(tokens, subject, starts) {
    let positions = starts;
    for (const token of tokens) {
        if (positions.size === 0)
            return positions;
        const next = new Set();
        switch (token.kind) {
            case "literal":
                for (const p of positions) {
                    if (literalAt(subject, p, token.chars))
                        next.add(p + token.chars.length);
                }
                break;
            case "one":
                for (const p of positions)
                    if (p < subject.length)
                        next.add(p + 1);
                break;
            case "any": {
                const from = Math.min(...positions);
                for (let q = from; q <= subject.length; q += 1)
                    next.add(q);
                break;
            }
            case "oneOf":
                for (const option of token.options) {
                    for (const end of advance(option, subject, positions))
                        next.add(end);
                }
                break;
        }
        positions = next;
    }
    return positions;
}
function literalAt(subject, at, chars) {
    if (at + chars.length > subject.length)
        return false;
    for (let k = 0; k < chars.length; k += 1)
        if (subject[at + k] !== chars[k])
            return false;
    return true;
}
