package com.routeregistry.client;

import java.util.Objects;

/** What {@link CanOpenStore#open} decided for a URL: what to do, the route to show, and why. */
public final class LinkOpening {
    /** What the app does. */
    public enum Action {
        /** Show the screen of {@link #route} for {@link #target}. */
        OPEN_IN_APP,
        /** Open {@link #target} in the browser (the link plus the fallback marker, or a web equivalent). */
        OPEN_IN_BROWSER,
        /** A custom scheme the table does not manage (an OAuth callback): the app routes it as before. */
        PASS_THROUGH,
        /** Neither show nor reopen it. */
        IGNORE
    }

    /** How a short link's target was found. */
    public enum Resolution {
        /** The registry answered {@code Links.Resolve} now. */
        SERVER,
        /** A resolution kept from an earlier open (fresh, or stale while the registry cannot be reached). */
        CACHE,
        /** The registry could not be reached in time and nothing was cached: the short URL opens in the browser. */
        UNAVAILABLE,
        /** The registry does not know the code: the browser shows its page. */
        NOT_FOUND,
        /** The link belongs to another app of the registry. */
        OTHER_APP
    }

    public final LinkSource source;
    /** The URL as received (the short URL for a short link). */
    public final String url;
    /** The decision for the URL, or for a short link's target ({@code supportedSince} for "update to open this"). */
    public final Decision decision;
    public final Action action;
    /** For {@link Action#OPEN_IN_APP}: the registry's route ID ({@code profile}), for the app's router. */
    public final String route;
    /** The URL to show in the app (a short link's target) or to open in the browser; null otherwise. */
    public final String target;
    /** For a short link (a path on one of the app's link domains): how it was resolved; null otherwise. */
    public final Resolution resolution;
    /** For a resolved short link: the registry's answer. */
    public final ShortLinkResolution shortLink;

    LinkOpening(LinkSource source, String url, Decision decision, Action action, String route, String target,
            Resolution resolution, ShortLinkResolution shortLink) {
        this.source = source;
        this.url = url;
        this.decision = decision;
        this.action = action;
        this.route = route;
        this.target = target;
        this.resolution = resolution;
        this.shortLink = shortLink;
    }

    /** The version to update to, when the decision is {@code unsupported_version} below the route's range. */
    public String supportedSince() {
        return decision.supportedSince;
    }

    /** The same action, route and target: what the user sees, whatever the source. */
    public boolean sameOutcome(LinkOpening other) {
        return action == other.action && Objects.equals(route, other.route) && Objects.equals(target, other.target)
                && decision.equals(other.decision);
    }

    @Override
    public String toString() {
        return action + " " + (route == null ? "" : route + " ") + target + " (" + decision + ", " + source
                + (resolution == null ? "" : ", " + resolution) + ")";
    }
}
