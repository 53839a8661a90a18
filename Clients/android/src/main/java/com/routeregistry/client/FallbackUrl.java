package com.routeregistry.client;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/** Builds fallback URLs exactly as the server's {@code FallbackURL} does. */
public final class FallbackUrl {
    private FallbackUrl() {}

    /**
     * {@code url} with {@code policy}'s marker appended to its query, before any fragment, joined with {@code &}
     * or {@code ?}. Items already named like the marker are dropped first: an empty one would defeat the domain's
     * exclusion of marked links, and the OS would send the browser straight back into the app.
     */
    public static String make(String url, FallbackPolicy policy) {
        int hash = url.indexOf('#');
        if (hash < 0) hash = url.length();
        int question = url.indexOf('?');
        int mark = question >= 0 && question < hash ? question : hash;
        StringBuilder out = new StringBuilder(url.length() + policy.queryItem.length() + 8);
        out.append(url, 0, mark);
        char separator = '?';
        if (mark < hash) {
            for (String item : url.substring(mark + 1, hash).split("&", -1)) {
                if (item.isEmpty()) continue;
                int equals = item.indexOf('=');
                if (isMarker(equals < 0 ? item : item.substring(0, equals), policy.queryItem)) continue;
                out.append(separator).append(item);
                separator = '&';
            }
        }
        out.append(separator);
        out.append(TextForms.percentEscaped(policy.queryItem)).append('=').append(TextForms.percentEscaped(policy.value));
        out.append(url, hash, url.length());
        return out.toString();
    }

    /** True when a query item's name is the marker, escapes decoded (a name that does not decode is compared as written). */
    private static boolean isMarker(String name, String marker) {
        if (name.indexOf('%') < 0) return name.equals(marker);
        byte[] written = name.getBytes(StandardCharsets.UTF_8);
        byte[] decoded = new byte[written.length];
        int count = 0;
        for (int i = 0; i < written.length; ) {
            if (written[i] == '%') {
                if (i + 2 >= written.length) return name.equals(marker);
                int high = TextForms.hex((char) (written[i + 1] & 0xFF));
                int low = TextForms.hex((char) (written[i + 2] & 0xFF));
                if (high < 0 || low < 0) return name.equals(marker);
                decoded[count++] = (byte) (high << 4 | low);
                i += 3;
            } else {
                decoded[count++] = written[i++];
            }
        }
        String text = TextForms.utf8OrNull(ByteBuffer.wrap(decoded, 0, count));
        return text == null ? name.equals(marker) : text.equals(marker);
    }

    /** Substitutes {@code {path}} and {@code {query}} in a route's {@code webFallback} template. */
    static String expand(String template, String path, String query) {
        return template.replace("{path}", path).replace("{query}", query == null ? "" : query);
    }
}
