package com.routeregistry.client;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.json.JSONArray;
import org.json.JSONObject;

/**
 * One app version's canOpen table ({@code CanOpen.GetTable}), compiled for deciding many URLs: its rules in
 * order with this version's verdict, the hosts and custom schemes they apply to, and the fallback policy.
 *
 * <p>{@link #decide} gives the same {@link Decision} as the server's {@code CanOpen.Check} for that version: the
 * fallback marker first, then the first matching rule of the URL's host (or, for a custom scheme, of the scheme,
 * with the host read as the first path segment), then the rule's verdict. Immutable, so safe to share.
 */
public final class CanOpenTable {
    /** The app, platform and version the verdicts are for. */
    public final String app;
    public final String platform;
    public final Version version;
    /** How fallback URLs are made. */
    public final FallbackPolicy fallback;
    /** The table as received, for writing it back to disk. */
    final JSONObject json;

    private final List<Rule> rules;
    private final Map<String, Scope> domains;
    private final Map<String, Scope> schemes;
    private final Set<String> linkDomains = new HashSet<>();
    private final ComponentRule marker;

    /** A rule's verdict for this version, as the table states it. */
    private enum Verdict { OPEN, EXCLUDE, SWITCHED_OFF, UNSUPPORTED }

    private static final class Rule {
        final String route;
        final Object query;
        final String path;
        final String fragment;
        final boolean caseSensitive;
        final boolean percentEncoded;
        final boolean exclude;
        final Verdict verdict;
        final String supportedSince;
        final String webFallback;

        Rule(JSONObject json, String where) {
            route = Json.requiredString(json, "route");
            path = Json.string(json, "path");
            fragment = Json.string(json, "fragment");
            Object rawQuery = json.opt("query");
            query = AasaMatcher.query(rawQuery);
            if (rawQuery != null && rawQuery != JSONObject.NULL && query == null) {
                throw new IllegalArgumentException(where + ".query is neither a string nor an object of strings");
            }
            caseSensitive = json.optBoolean("caseSensitive", true);
            percentEncoded = json.optBoolean("percentEncoded", true);
            exclude = "exclude".equals(Json.string(json, "action"));
            String text = Json.string(json, "verdict");
            // A verdict this client does not know (a newer server) falls back to the browser: always safe.
            Verdict known = Verdict.UNSUPPORTED;
            if ("open".equals(text)) known = Verdict.OPEN;
            else if ("exclude".equals(text)) known = Verdict.EXCLUDE;
            else if ("switched_off".equals(text)) known = Verdict.SWITCHED_OFF;
            verdict = known;
            supportedSince = Json.string(json, "supportedSince");
            webFallback = Json.string(json, "webFallback");
        }
    }

    /** A host's or scheme's rules in order, compiled with its substitution variables. */
    private static final class Scope {
        final int[] indices;
        final ComponentRule[] compiled;

        Scope(int[] indices, ComponentRule[] compiled) {
            this.indices = indices;
            this.compiled = compiled;
        }

        /** The position in {@code indices} of the first rule matching {@code url}, or -1. */
        int firstMatch(LinkUrl url) {
            MatchSubject subject = new MatchSubject(url);
            for (int i = 0; i < compiled.length; i++) if (compiled[i].matches(subject)) return i;
            return -1;
        }
    }

    private CanOpenTable(JSONObject json) {
        this.json = json;
        app = Json.requiredString(json, "app");
        platform = Json.requiredString(json, "platform");
        Object rawVersion = json.opt("version");
        if (rawVersion instanceof Number) version = Version.ofVersionCode(((Number) rawVersion).longValue());
        else version = Version.parse(Json.requiredString(json, "version"));
        JSONObject policy = json.optJSONObject("fallback");
        fallback = policy == null ? FallbackPolicy.DEFAULT
                : new FallbackPolicy(Json.requiredString(policy, "queryItem"), Json.string(policy, "value"));
        JSONArray list = json.optJSONArray("rules");
        List<Rule> parsed = new ArrayList<>();
        for (int i = 0; list != null && i < list.length(); i++) {
            JSONObject rule = list.optJSONObject(i);
            if (rule == null) throw new IllegalArgumentException("rules[" + i + "] is not an object");
            parsed.add(new Rule(rule, "rules[" + i + "]"));
        }
        rules = Collections.unmodifiableList(parsed);
        domains = scopes(json.optJSONArray("domains"), "domains");
        schemes = scopes(json.optJSONArray("schemes"), "schemes");
        marker = ComponentRule.marker(fallback);
    }

    /**
     * Reads a table: the {@code table} of a {@code CanOpen.GetTable} result, or a bare table.
     *
     * @throws IllegalArgumentException naming the field at fault
     */
    public static CanOpenTable fromJson(JSONObject json) {
        return new CanOpenTable(json);
    }

    private Map<String, Scope> scopes(JSONArray list, String where) {
        Map<String, Scope> out = new HashMap<>();
        for (int i = 0; list != null && i < list.length(); i++) {
            JSONObject scope = list.optJSONObject(i);
            if (scope == null) throw new IllegalArgumentException(where + "[" + i + "] is not an object");
            JSONArray refs = scope.optJSONArray("rules");
            List<Integer> indices = new ArrayList<>();
            for (int k = 0; refs != null && k < refs.length(); k++) {
                int index = refs.optInt(k, -1);
                // Indices outside the rule list are skipped, as the server's compiled table does.
                if (index >= 0 && index < rules.size()) indices.add(index);
            }
            Map<String, List<String>> variables = variables(scope.optJSONObject("substitutionVariables"));
            int[] positions = new int[indices.size()];
            ComponentRule[] compiled = new ComponentRule[indices.size()];
            for (int k = 0; k < positions.length; k++) {
                Rule rule = rules.get(indices.get(k));
                positions[k] = indices.get(k);
                compiled[k] = new ComponentRule(rule.path, rule.query, rule.fragment, rule.exclude, rule.caseSensitive,
                        rule.percentEncoded, variables);
            }
            String name = Json.requiredString(scope, "name");
            // Hosts as URLs are normalised (case, trailing dots); schemes are only lower-cased.
            String key = where.equals("domains") ? LinkUrl.normalizedHost(name) : name.toLowerCase(Locale.ROOT);
            out.put(key, new Scope(positions, compiled));
            if (where.equals("domains") && scope.optBoolean("links", false)) linkDomains.add(key);
        }
        return out;
    }

    /** A scope's {@code substitutionVariables}: name to values (empty when absent). */
    static Map<String, List<String>> variables(JSONObject json) {
        if (json == null) return Collections.emptyMap();
        Map<String, List<String>> out = new HashMap<>();
        for (Iterator<String> names = json.keys(); names.hasNext(); ) {
            String name = names.next();
            JSONArray values = json.optJSONArray(name);
            List<String> list = new ArrayList<>();
            for (int i = 0; values != null && i < values.length(); i++) list.add(values.optString(i));
            out.put(name, list);
        }
        return out;
    }

    /**
     * The app's link domains ({@code go.badoo.com}): the hosts the table marks {@code links}, whose paths are short
     * links that {@link CanOpenStore#open} resolves with {@code Links.Resolve} before deciding their target.
     */
    public Set<String> linkDomains() {
        return Collections.unmodifiableSet(linkDomains);
    }

    /** True when the table has rules for the custom {@code scheme} (lower-cased). */
    public boolean managesScheme(String scheme) {
        return schemes.containsKey(scheme.toLowerCase(Locale.ROOT));
    }

    /** True when the table was made for exactly this app version: another version's verdicts differ. */
    public boolean isFor(String app, String platform, Version version) {
        return this.app.equals(app) && this.platform.equals(platform) && this.version.equals(version);
    }

    /** The decision for {@code url} (as received, before any normalisation); no network, no locks. */
    public Decision decide(String url) {
        LinkUrl link = LinkUrl.parse(url);
        if (link == null) return Decision.NOT_ASSOCIATED;
        if (link.scheme.equals("https") || link.scheme.equals("http")) {
            Scope scope = domains.get(link.host);
            if (scope == null) return Decision.NOT_ASSOCIATED;
            if (marker.matches(link)) {
                return new Decision(Decision.Outcome.OPEN_IN_BROWSER, Decision.REASON_FALLBACK_MARKER, null, null, null);
            }
            String fallbackUrl = FallbackUrl.make(url, fallback);
            int hit = scope.firstMatch(link);
            if (hit < 0) {
                return new Decision(Decision.Outcome.OPEN_IN_BROWSER, Decision.REASON_NO_ROUTE, null, fallbackUrl, null);
            }
            return decision(rules.get(scope.indices[hit]), fallbackUrl);
        }
        Scope scope = schemes.get(link.scheme);
        if (scope == null) return Decision.NOT_ASSOCIATED;
        LinkUrl matchUrl = link.withHostInPath();
        int hit = scope.firstMatch(matchUrl);
        if (hit < 0) return new Decision(Decision.Outcome.OPEN_IN_BROWSER, Decision.REASON_NO_ROUTE, null, null, null);
        Rule rule = rules.get(scope.indices[hit]);
        String fallbackUrl = rule.webFallback == null ? null
                : FallbackUrl.make(FallbackUrl.expand(rule.webFallback, matchUrl.path, link.query), fallback);
        return decision(rule, fallbackUrl);
    }

    private static Decision decision(Rule rule, String fallbackUrl) {
        switch (rule.verdict) {
            case OPEN:
                return new Decision(Decision.Outcome.OPEN_IN_APP, Decision.REASON_ROUTE, rule.route, null, null);
            case EXCLUDE:
                return browser(Decision.REASON_EXCLUDED, rule, fallbackUrl, null);
            case SWITCHED_OFF:
                return browser(Decision.REASON_SWITCHED_OFF, rule, fallbackUrl, null);
            default:
                return browser(Decision.REASON_UNSUPPORTED_VERSION, rule, fallbackUrl, rule.supportedSince);
        }
    }

    private static Decision browser(String reason, Rule rule, String fallbackUrl, String supportedSince) {
        return new Decision(Decision.Outcome.OPEN_IN_BROWSER, reason, rule.route, fallbackUrl, supportedSince);
    }
}
