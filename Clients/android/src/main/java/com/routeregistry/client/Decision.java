package com.routeregistry.client;

import java.util.Objects;
import org.json.JSONObject;

/**
 * What an app version should do with a URL: the result of the registry's {@code CanOpen.Check} and of a local
 * canOpen table, with the wire's field names ({@code decision}, {@code reason}, {@code route},
 * {@code fallbackUrl}, {@code supportedSince}).
 */
public final class Decision {
    /** Where the link goes. */
    public enum Outcome {
        OPEN_IN_APP("open_in_app"),
        OPEN_IN_BROWSER("open_in_browser"),
        NOT_ASSOCIATED("not_associated"),
        /** A decision this client does not know (a newer server); treat it as the browser. */
        UNKNOWN("unknown");

        /** The wire spelling. */
        public final String wire;

        Outcome(String wire) {
            this.wire = wire;
        }

        static Outcome of(String wire) {
            for (Outcome outcome : values()) if (outcome.wire.equals(wire)) return outcome;
            return UNKNOWN;
        }
    }

    /** A route this version handles matched. */
    public static final String REASON_ROUTE = "route";
    /** An {@code exclude} route matched. */
    public static final String REASON_EXCLUDED = "excluded";
    /** The matching route is not handled by this version (too old, or past {@code until}). */
    public static final String REASON_UNSUPPORTED_VERSION = "unsupported_version";
    /** The matching route is switched off for this version. */
    public static final String REASON_SWITCHED_OFF = "switched_off";
    /** The URL carries the fallback marker: it came from a fallback and must stay in the browser. */
    public static final String REASON_FALLBACK_MARKER = "fallback_marker";
    /** No route matched. */
    public static final String REASON_NO_ROUTE = "no_route";

    /** Where the link goes. */
    public final Outcome decision;
    /** Why (one of the {@code REASON_} constants, or a newer server's); null only for {@code not_associated}. */
    public final String reason;
    /** The ID of the route that decided, if one did. */
    public final String route;
    /** The URL to open in the browser instead, carrying the fallback marker. */
    public final String fallbackUrl;
    /** For {@code unsupported_version} below the route's range: the first version that handles it. */
    public final String supportedSince;

    /** The host or scheme is not one of the app's. */
    public static final Decision NOT_ASSOCIATED = new Decision(Outcome.NOT_ASSOCIATED, null, null, null, null);

    public Decision(Outcome decision, String reason, String route, String fallbackUrl, String supportedSince) {
        this.decision = Objects.requireNonNull(decision, "decision");
        this.reason = reason;
        this.route = route;
        this.fallbackUrl = fallbackUrl;
        this.supportedSince = supportedSince;
    }

    /** True when this version should handle the link itself. */
    public boolean opensInApp() {
        return decision == Outcome.OPEN_IN_APP;
    }

    /** Reads the wire shape (the result of {@code CanOpen.Check}). */
    public static Decision fromJson(JSONObject json) {
        return new Decision(Outcome.of(Json.string(json, "decision")), Json.string(json, "reason"),
                Json.string(json, "route"), Json.string(json, "fallbackUrl"), Json.string(json, "supportedSince"));
    }

    /** The wire shape, absent fields left out. */
    public JSONObject toJson() {
        JSONObject json = new JSONObject();
        Json.put(json, "decision", decision.wire);
        Json.put(json, "reason", reason);
        Json.put(json, "route", route);
        Json.put(json, "fallbackUrl", fallbackUrl);
        Json.put(json, "supportedSince", supportedSince);
        return json;
    }

    @Override
    public boolean equals(Object other) {
        if (!(other instanceof Decision)) return false;
        Decision that = (Decision) other;
        return decision == that.decision && Objects.equals(reason, that.reason) && Objects.equals(route, that.route)
                && Objects.equals(fallbackUrl, that.fallbackUrl) && Objects.equals(supportedSince, that.supportedSince);
    }

    @Override
    public int hashCode() {
        return Objects.hash(decision, reason, route, fallbackUrl, supportedSince);
    }

    @Override
    public String toString() {
        return toJson().toString();
    }
}
