package com.routeregistry.client;

import org.json.JSONObject;

/**
 * What {@code Links.Resolve} answers for a short URL and one app version: the deep link it opens, the route deciding
 * that target, the effective minimum version and where it comes from, and the registry's decision for that version.
 */
public final class ShortLinkResolution {
    /** The deep link the short link opens ({@code https://m.badoo.com/u/42}). */
    public final String target;
    /** The app the link belongs to. */
    public final String app;
    /** The route deciding the target, or null. */
    public final String route;
    /** The lowest version that opens it: the later of the route's {@code since} and the link's own; or null. */
    public final String minVersion;
    /** Where {@code minVersion} comes from: {@code route} or {@code link}; or null. */
    public final String minVersionSource;
    /** {@code CanOpen.Check}'s answer for the target and the asking version, the link's own minimum applied. */
    public final Decision decision;

    ShortLinkResolution(String target, String app, String route, String minVersion, String minVersionSource,
            Decision decision) {
        this.target = target;
        this.app = app;
        this.route = route;
        this.minVersion = minVersion;
        this.minVersionSource = minVersionSource;
        this.decision = decision;
    }

    /**
     * Reads a {@code Links.Resolve} result.
     *
     * @throws IllegalArgumentException naming the member at fault
     */
    public static ShortLinkResolution fromJson(JSONObject json) {
        JSONObject decision = json.optJSONObject("decision");
        if (decision == null) throw new IllegalArgumentException("decision is missing");
        return new ShortLinkResolution(Json.requiredString(json, "target"), Json.requiredString(json, "app"),
                Json.string(json, "route"), Json.string(json, "minVersion"), Json.string(json, "minVersionSource"),
                Decision.fromJson(decision));
    }

    /** The result's JSON, as the cache keeps it. */
    JSONObject toJson() {
        JSONObject json = new JSONObject();
        Json.put(json, "target", target);
        Json.put(json, "app", app);
        Json.put(json, "route", route);
        Json.put(json, "minVersion", minVersion);
        Json.put(json, "minVersionSource", minVersionSource);
        Json.put(json, "decision", decision.toJson());
        return json;
    }

    /**
     * The link's own minimum version when it is the one in force (above the route's {@code since}): the part of the
     * answer a canOpen table does not hold, applied on top of the table's decision for the target. Null otherwise.
     */
    public Version linkMinimum() {
        if (!"link".equals(minVersionSource) || minVersion == null) return null;
        try {
            return Version.parse(minVersion);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
