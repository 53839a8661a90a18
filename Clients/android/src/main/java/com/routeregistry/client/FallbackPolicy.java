package com.routeregistry.client;

/**
 * How fallback URLs are marked: the query item ({@code ul_fallback=1}) added to a URL sent to the browser. The
 * app's domains exclude URLs carrying it, so Android (and iOS) do not hand the browser's link straight back to
 * the app.
 */
public final class FallbackPolicy {
    /** The marker's name. */
    public final String queryItem;
    /** The marker's value. */
    public final String value;

    /** The registry's default marker, {@code ul_fallback=1}. */
    public static final FallbackPolicy DEFAULT = new FallbackPolicy("ul_fallback", "1");

    public FallbackPolicy(String queryItem, String value) {
        if (queryItem == null || queryItem.isEmpty()) throw new IllegalArgumentException("fallback.queryItem is empty");
        this.queryItem = queryItem;
        this.value = value == null ? "1" : value;
    }
}
