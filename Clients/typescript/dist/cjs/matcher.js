"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.evaluate = void 0;
const linkUrl_js_1 = require("./linkUrl.js");
const pattern_js_1 = require("./pattern.js");
const isObject = (value) => typeof value === "object" && value !== null && !Array.isArray(value);
/**
 * Evaluates `url` against the AASA document `aasa` served by `domain`, for the app `appId`
 * (`TEAMID.bundle.id`), exactly as iOS does: the rules of every `details` entry listing the app are
 * walked in order and the first that matches decides (`exclude` for an exclusion rule, `match` otherwise);
 * `no_match` when none matches, when the URL's host is not `domain`, or when the app is not listed.
 *
 * Both the modern `components` form and the legacy forms (`paths` with `NOT ` exclusions, and `details`
 * as a dictionary keyed by app ID) are understood. A web page can use this to decide whether to offer an
 * "open in app" button.
 */
function evaluate(aasa, appId, url, domain) {
    const link = (0, linkUrl_js_1.parseLinkURL)(url);
    // Universal links are web links: a custom-scheme URL never opens through the AASA.
    if (link === undefined || (link.scheme !== "https" && link.scheme !== "http"))
        return "no_match";
    if (link.host !== (0, linkUrl_js_1.normalizeHost)(domain))
        return "no_match";
    if (!isObject(aasa) || !isObject(aasa.applinks))
        return "no_match";
    for (const rule of rulesFor(aasa.applinks, appId)) {
        if (ruleMatches(rule, link))
            return rule.exclude ? "exclude" : "match";
    }
    return "no_match";
}
exports.evaluate = evaluate;
function rulesFor(applinks, appId) {
    const top = resolveOptions(applinks.defaults, { caseSensitive: true, percentEncoded: true });
    const variables = substitutionVariables(applinks.substitutionVariables);
    const details = applinks.details;
    const rules = [];
    const add = (detail) => {
        const detailVariables = { ...variables, ...substitutionVariables(detail.substitutionVariables) };
        rules.push(...detailRules(detail, resolveOptions(detail.defaults, top), detailVariables));
    };
    if (Array.isArray(details)) {
        // The rules of every entry listing the app, in document order.
        for (const detail of details)
            if (isObject(detail) && listsApp(detail, appId))
                add(detail);
    }
    else if (isObject(details)) {
        // Legacy (iOS 9 era) form: {"TEAMID.bundle.id": {"paths": [...]}}.
        const detail = Object.prototype.hasOwnProperty.call(details, appId) ? details[appId] : undefined;
        if (isObject(detail))
            add(detail);
    }
    return rules;
}
function listsApp(detail, appId) {
    if (Array.isArray(detail.appIDs) && detail.appIDs.includes(appId))
        return true;
    return detail.appID === appId;
}
function detailRules(detail, defaults, variables) {
    // iOS 13+ reads `components` and ignores `paths` when both are present.
    if (detail.components !== undefined) {
        if (!Array.isArray(detail.components))
            return [];
        return detail.components.filter(isObject).map((component) => componentRule(component, defaults, variables));
    }
    if (!Array.isArray(detail.paths))
        return [];
    // Legacy paths predate `defaults`: always case-sensitive and compared as written, path only.
    const legacy = { caseSensitive: true, percentEncoded: true };
    return detail.paths
        .filter((p) => typeof p === "string")
        .map((p) => {
        const exclude = p.startsWith("NOT ");
        return { path: exclude ? p.slice(4) : p, exclude, options: legacy, variables };
    });
}
function componentRule(component, defaults, variables) {
    const rule = { exclude: component.exclude === true, options: resolveOptions(component, defaults), variables };
    if (typeof component["/"] === "string")
        rule.path = component["/"];
    if (typeof component["#"] === "string")
        rule.fragment = component["#"];
    const query = component["?"];
    if (typeof query === "string") {
        rule.query = query;
    }
    else if (isObject(query) && Object.values(query).every((v) => typeof v === "string")) {
        // A dictionary with any non-string value is ignored as a whole (the query then matches anything).
        rule.query = query;
    }
    return rule;
}
function resolveOptions(source, fallback) {
    if (!isObject(source))
        return fallback;
    return {
        caseSensitive: typeof source.caseSensitive === "boolean" ? source.caseSensitive : fallback.caseSensitive,
        percentEncoded: typeof source.percentEncoded === "boolean" ? source.percentEncoded : fallback.percentEncoded,
    };
}
function substitutionVariables(value) {
    const out = {};
    if (!isObject(value))
        return out;
    for (const [name, values] of Object.entries(value)) {
        if (Array.isArray(values))
            out[name] = values.filter((v) => typeof v === "string");
    }
    return out;
}
function ruleMatches(rule, link) {
    const { caseSensitive, percentEncoded } = rule.options;
    const decode = (text) => (percentEncoded ? text : (0, linkUrl_js_1.percentDecode)(text));
    const pattern = (source) => new pattern_js_1.Pattern(source, rule.variables, caseSensitive);
    if (rule.path !== undefined && !pathMatches(rule.path, decode(link.path), pattern))
        return false;
    if (rule.fragment !== undefined && !pattern(rule.fragment).matches(decode(link.fragment ?? "")))
        return false;
    if (typeof rule.query === "string") {
        if (!pattern(rule.query).matches(decode(link.query ?? "")))
            return false;
    }
    else if (rule.query !== undefined) {
        const items = queryItems(link.query, decode, caseSensitive);
        for (const [name, source] of Object.entries(rule.query)) {
            const key = caseSensitive ? name : name.toLowerCase();
            // A missing item counts as empty; every occurrence of a repeated name must match.
            const values = items.get(key) ?? [""];
            const compiled = pattern(source);
            if (!values.every((value) => compiled.matches(value)))
                return false;
        }
    }
    return true;
}
/**
 * Paths compare with repeated slashes collapsed, trailing slashes ignored on both sides and the pattern's
 * leading slash optional; a pattern ending in `/*` also matches the bare directory (`/buy/*` matches
 * `/buy`, not `/buyer`).
 */
function pathMatches(source, path, pattern) {
    const normalizedSource = normalizePath(source);
    const normalizedPath = normalizePath(path);
    if (pattern(normalizedSource).matches(normalizedPath))
        return true;
    if (!normalizedSource.endsWith("/*"))
        return false;
    return pattern(normalizePath(normalizedSource.slice(0, -2))).matches(normalizedPath);
}
function normalizePath(path) {
    const collapsed = ("/" + path).replace(/\/{2,}/g, "/");
    return collapsed.length > 1 ? collapsed.replace(/\/+$/, "") : collapsed;
}
function queryItems(query, decode, caseSensitive) {
    const items = new Map();
    if (query === undefined || query === "")
        return items;
    for (const item of query.split("&")) {
        if (item === "")
            continue;
        const eq = item.indexOf("=");
        // `?flag` (no `=`) is an item whose value is empty.
        const rawName = eq >= 0 ? item.slice(0, eq) : item;
        const value = eq >= 0 ? decode(item.slice(eq + 1)) : "";
        const decodedName = decode(rawName);
        const name = caseSensitive ? decodedName : decodedName.toLowerCase();
        const list = items.get(name);
        if (list)
            list.push(value);
        else
            items.set(name, [value]);
    }
    return items;
}
