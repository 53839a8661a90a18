const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*$/;
/** Parses `scheme:[//authority]path[?query][#fragment]`; undefined when the string has no valid scheme. */
export function parseLinkURL(text) {
    const colon = text.indexOf(":");
    if (colon <= 0)
        return undefined;
    const scheme = text.slice(0, colon);
    if (!SCHEME.test(scheme))
        return undefined;
    let rest = text.slice(colon + 1);
    let fragment;
    const hash = rest.indexOf("#");
    if (hash >= 0) {
        fragment = rest.slice(hash + 1);
        rest = rest.slice(0, hash);
    }
    let query;
    const mark = rest.indexOf("?");
    if (mark >= 0) {
        query = rest.slice(mark + 1);
        rest = rest.slice(0, mark);
    }
    let host = "";
    if (rest.startsWith("//")) {
        rest = rest.slice(2);
        const slash = rest.indexOf("/");
        const end = slash >= 0 ? slash : rest.length;
        host = hostOfAuthority(rest.slice(0, end));
        rest = rest.slice(end);
    }
    const url = { scheme: scheme.toLowerCase(), host, path: rest };
    if (query !== undefined)
        url.query = query;
    if (fragment !== undefined)
        url.fragment = fragment;
    return url;
}
/** Hosts compare case-insensitively, without a port, and `example.com.` is `example.com`. */
export function normalizeHost(host) {
    return hostOfAuthority(host);
}
function hostOfAuthority(authority) {
    let hostPort = authority;
    const at = hostPort.lastIndexOf("@");
    if (at >= 0)
        hostPort = hostPort.slice(at + 1);
    if (hostPort.startsWith("[")) {
        const close = hostPort.indexOf("]");
        if (close >= 0)
            return hostPort.slice(0, close + 1).toLowerCase();
    }
    const colon = hostPort.indexOf(":");
    if (colon >= 0)
        hostPort = hostPort.slice(0, colon);
    return hostPort.toLowerCase().replace(/\.+$/, "");
}
/**
 * Decodes `%XX` escapes as UTF-8. An escape that is malformed, or a byte run that is not valid UTF-8,
 * stays as written: iOS compares what it cannot decode literally rather than rejecting the URL.
 */
export function percentDecode(text) {
    if (!text.includes("%"))
        return text;
    let out = "";
    let i = 0;
    while (i < text.length) {
        if (text[i] !== "%" || !isHexByteAt(text, i)) {
            out += text[i];
            i += 1;
            continue;
        }
        const start = i;
        const bytes = [];
        while (i < text.length && text[i] === "%" && isHexByteAt(text, i)) {
            bytes.push(parseInt(text.slice(i + 1, i + 3), 16));
            i += 3;
        }
        out += decodeUTF8(bytes) ?? text.slice(start, i);
    }
    return out;
}
function isHexByteAt(text, i) {
    return /^[0-9A-Fa-f]{2}$/.test(text.slice(i + 1, i + 3));
}
function decodeUTF8(bytes) {
    let out = "";
    let i = 0;
    while (i < bytes.length) {
        const b = bytes[i];
        let need;
        let cp;
        if (b < 0x80) {
            need = 0;
            cp = b;
        }
        else if (b >= 0xc2 && b < 0xe0) {
            need = 1;
            cp = b & 0x1f;
        }
        else if (b >= 0xe0 && b < 0xf0) {
            need = 2;
            cp = b & 0x0f;
        }
        else if (b >= 0xf0 && b < 0xf5) {
            need = 3;
            cp = b & 0x07;
        }
        else {
            return undefined;
        }
        for (let k = 1; k <= need; k += 1) {
            const c = bytes[i + k];
            if (c === undefined || (c & 0xc0) !== 0x80)
                return undefined;
            cp = (cp << 6) | (c & 0x3f);
        }
        const min = [0, 0x80, 0x800, 0x10000][need];
        if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
            return undefined;
        out += String.fromCodePoint(cp);
        i += need + 1;
    }
    return out;
}
