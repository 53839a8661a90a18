package com.routeregistry.client;

import java.util.Locale;

/**
 * A URL split the way the registry's matcher sees it: scheme and host normalised, path, query and fragment
 * exactly as written.
 *
 * <p>Parsed by hand rather than through {@code java.net.URI} or {@code android.net.Uri}, which decode escapes or
 * refuse URLs browsers accept: percent-escapes, their hex case, {@code %2F} and the difference between an empty
 * and an absent query or fragment all change what a rule matches.
 */
public final class LinkUrl {
    /** The scheme, lower-cased. */
    public final String scheme;
    /** The host, lower-cased, without user info, port or trailing dots; "" when there is none. */
    public final String host;
    /** The path as written ("" when absent). */
    public final String path;
    /** The query as written without its {@code ?}; null when the URL has no {@code ?}. */
    public final String query;
    /** The fragment as written without its {@code #}; null when the URL has no {@code #}. */
    public final String fragment;

    LinkUrl(String scheme, String host, String path, String query, String fragment) {
        this.scheme = scheme.toLowerCase(Locale.ROOT);
        this.host = normalizedHost(host);
        this.path = path;
        this.query = query;
        this.fragment = fragment;
    }

    /** Parses {@code scheme:[//authority]path[?query][#fragment]}; null when there is no valid scheme. */
    public static LinkUrl parse(String text) {
        int colon = text.indexOf(':');
        if (colon <= 0 || !isAlpha(text.charAt(0))) return null;
        for (int i = 0; i < colon; i++) {
            char c = text.charAt(i);
            if (!(isAlpha(c) || (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.')) return null;
        }
        int start = colon + 1;
        int end = text.length();
        String fragment = null;
        int hash = text.indexOf('#', start);
        if (hash >= 0) {
            fragment = text.substring(hash + 1);
            end = hash;
        }
        String query = null;
        int mark = text.indexOf('?', start);
        if (mark >= 0 && mark < end) {
            query = text.substring(mark + 1, end);
            end = mark;
        }
        String host = "";
        if (text.startsWith("//", start) && start + 2 <= end) {
            int authorityStart = start + 2;
            int slash = text.indexOf('/', authorityStart);
            int authorityEnd = slash >= 0 && slash < end ? slash : end;
            host = hostOfAuthority(text.substring(authorityStart, authorityEnd));
            start = authorityEnd;
        }
        return new LinkUrl(text.substring(0, colon), host, text.substring(start, end), query, fragment);
    }

    /** The same URL with {@code host} folded into the path: how a custom-scheme link is matched. */
    LinkUrl withHostInPath() {
        return new LinkUrl(scheme, "", host.isEmpty() ? path : "/" + host + path, query, fragment);
    }

    private static boolean isAlpha(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }

    /** Drops user info and port (an IPv6 literal keeps its brackets), then normalises. */
    private static String hostOfAuthority(String authority) {
        String hostPort = authority.substring(authority.lastIndexOf('@') + 1);
        if (hostPort.startsWith("[") && hostPort.indexOf(']') >= 0) {
            return hostPort.substring(0, hostPort.indexOf(']') + 1).toLowerCase(Locale.ROOT);
        }
        int colon = hostPort.indexOf(':');
        return normalizedHost(colon >= 0 ? hostPort.substring(0, colon) : hostPort);
    }

    /** Hosts compare case-insensitively and {@code example.com.} is {@code example.com}. */
    static String normalizedHost(String host) {
        String lower = host.toLowerCase(Locale.ROOT);
        int end = lower.length();
        while (end > 0 && lower.charAt(end - 1) == '.') end--;
        return lower.substring(0, end);
    }

    @Override
    public String toString() {
        StringBuilder out = new StringBuilder(scheme).append(':');
        if (!host.isEmpty()) out.append("//").append(host);
        out.append(path);
        if (query != null) out.append('?').append(query);
        if (fragment != null) out.append('#').append(fragment);
        return out.toString();
    }
}
