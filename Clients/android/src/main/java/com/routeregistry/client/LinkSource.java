package com.routeregistry.client;

/**
 * Where a URL handed to {@link CanOpenStore#open} came from. Every source reaches the same {@link Decision}; the
 * source changes only what happens to a web link the app's table does not know (see {@link LinkOpening}).
 */
public enum LinkSource {
    /** A verified App Link (an {@code ACTION_VIEW} intent with an https URL). */
    APP_LINK,
    /** A custom-scheme link ({@code badoo://offer/7}). */
    CUSTOM_SCHEME,
    /** A notification or an FCM data message ({@code data["url"]}). */
    NOTIFICATION,
    /** A launcher shortcut (its intent's data). */
    SHORTCUT,
    /** A widget's click intent. */
    WIDGET,
    /** A message shown inside the app (a marketing SDK's in-app message). */
    IN_APP_MESSAGE;

    /**
     * True for the sources Android routes by the app's association ({@code assetlinks.json}, intent filters):
     * handing a link the app does not know back to the system could bring it straight back. Links from the app's
     * own surfaces can go to the browser.
     */
    public boolean isSystemRouted() {
        return this == APP_LINK || this == CUSTOM_SCHEME;
    }
}
