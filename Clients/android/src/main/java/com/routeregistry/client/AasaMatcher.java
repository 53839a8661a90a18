package com.routeregistry.client;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.json.JSONArray;
import org.json.JSONObject;

/**
 * What iOS does with a URL given an {@code apple-app-site-association} document: the matcher the canOpen tables
 * are evaluated with, exposed on whole documents so it can be held to the shared conformance vectors (recorded
 * against Apple's {@code swcutil}) and to the registry's own vectors.
 *
 * <p>Details listing the app are read in document order; the first matching rule decides. The legacy
 * {@code paths} form ({@code NOT } marks an exclusion) and the iOS 9 dictionary form are read too.
 */
public final class AasaMatcher {
    private AasaMatcher() {}

    /** The outcome: the app opens the URL, an exclude rule sent it to the browser, or no rule matched. */
    public enum Outcome {
        MATCH("match"), EXCLUDE("exclude"), NO_MATCH("no_match");

        /** The spelling in the vector files. */
        public final String wire;

        Outcome(String wire) {
            this.wire = wire;
        }
    }

    /** The document is not a usable AASA file; the message names the offending part. */
    public static final class DocumentException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        DocumentException(String message) {
            super(message);
        }
    }

    /**
     * What iOS does with {@code url} for app {@code appId}, the document {@code aasa} having been served by
     * {@code domain}.
     *
     * @throws DocumentException when the document is malformed (a non-string path, details neither list nor
     *     object, ...)
     */
    public static Outcome evaluate(JSONObject aasa, String appId, String url, String domain) {
        List<Detail> details = details(aasa);
        LinkUrl link = LinkUrl.parse(url);
        if (link == null || !(link.scheme.equals("https") || link.scheme.equals("http"))) return Outcome.NO_MATCH;
        if (!link.host.equals(LinkUrl.normalizedHost(domain))) return Outcome.NO_MATCH;
        MatchSubject subject = new MatchSubject(link);
        for (Detail detail : details) {
            if (!detail.appIds.contains(appId)) continue;
            for (ComponentRule rule : detail.rules) {
                if (rule.matches(subject)) return rule.exclude ? Outcome.EXCLUDE : Outcome.MATCH;
            }
        }
        return Outcome.NO_MATCH;
    }

    private static final class Detail {
        final List<String> appIds;
        final List<ComponentRule> rules;

        Detail(List<String> appIds, List<ComponentRule> rules) {
            this.appIds = appIds;
            this.rules = rules;
        }
    }

    private static JSONObject object(Object value, String where) {
        if (!(value instanceof JSONObject)) throw new DocumentException(where + " is not an object");
        return (JSONObject) value;
    }

    private static String string(Object value, String where) {
        if (!(value instanceof String)) throw new DocumentException(where + " is not a string");
        return (String) value;
    }

    private static List<String> strings(Object value, String where) {
        if (!(value instanceof JSONArray)) throw new DocumentException(where + " is not an array of strings");
        JSONArray array = (JSONArray) value;
        List<String> out = new ArrayList<>();
        for (int i = 0; i < array.length(); i++) out.add(string(array.opt(i), where + "[" + i + "]"));
        return out;
    }

    private static boolean bool(Object value, String where) {
        if (!(value instanceof Boolean)) throw new DocumentException(where + " is not true or false");
        return (Boolean) value;
    }

    /** {caseSensitive, percentEncoded} after {@code source}'s own settings. */
    private static boolean[] defaults(boolean[] base, JSONObject source, String where) {
        boolean[] out = base.clone();
        if (source.has("caseSensitive")) out[0] = bool(source.opt("caseSensitive"), where + ".caseSensitive");
        if (source.has("percentEncoded")) out[1] = bool(source.opt("percentEncoded"), where + ".percentEncoded");
        return out;
    }

    private static Map<String, List<String>> variables(Object value, String where) {
        if (value == null || value == JSONObject.NULL) return Collections.emptyMap();
        JSONObject lists = object(value, where);
        Map<String, List<String>> out = new HashMap<>();
        for (Iterator<String> names = lists.keys(); names.hasNext(); ) {
            String name = names.next();
            out.put(name, strings(lists.opt(name), where + "['" + name + "']"));
        }
        return out;
    }

    private static List<Detail> details(JSONObject document) {
        if (!document.has("applinks")) return Collections.emptyList();
        JSONObject applinks = object(document.opt("applinks"), "applinks");
        boolean[] defaults = {true, true};
        if (applinks.has("defaults")) {
            defaults = defaults(defaults, object(applinks.opt("defaults"), "applinks.defaults"), "applinks.defaults");
        }
        Map<String, List<String>> variables =
                variables(applinks.opt("substitutionVariables"), "applinks.substitutionVariables");
        Object details = applinks.opt("details");
        if (details == null || details == JSONObject.NULL) return Collections.emptyList();
        List<Detail> out = new ArrayList<>();
        if (details instanceof JSONArray) {
            JSONArray list = (JSONArray) details;
            for (int i = 0; i < list.length(); i++) {
                String where = "applinks.details[" + i + "]";
                JSONObject entry = object(list.opt(i), where);
                List<String> appIds = entry.has("appIDs") ? strings(entry.opt("appIDs"), where + ".appIDs") : new ArrayList<>();
                if (entry.has("appID")) appIds.add(string(entry.opt("appID"), where + ".appID"));
                out.add(new Detail(appIds, rules(entry, where, defaults, variables)));
            }
        } else if (details instanceof JSONObject) {
            // The iOS 9 form, app IDs as keys; sorted so the order is stable.
            JSONObject byApp = (JSONObject) details;
            TreeSet<String> appIds = new TreeSet<>();
            for (Iterator<String> keys = byApp.keys(); keys.hasNext(); ) appIds.add(keys.next());
            for (String appId : appIds) {
                String where = "applinks.details['" + appId + "']";
                out.add(new Detail(Collections.singletonList(appId),
                        rules(object(byApp.opt(appId), where), where, defaults, variables)));
            }
        } else {
            throw new DocumentException("applinks.details is neither an array nor an object");
        }
        return out;
    }

    private static List<ComponentRule> rules(
            JSONObject entry, String where, boolean[] defaults, Map<String, List<String>> variables) {
        if (entry.has("defaults")) {
            defaults = defaults(defaults, object(entry.opt("defaults"), where + ".defaults"), where + ".defaults");
        }
        if (entry.has("substitutionVariables")) {
            Map<String, List<String>> merged = new HashMap<>(variables);
            merged.putAll(variables(entry.opt("substitutionVariables"), where + ".substitutionVariables"));
            variables = merged;
        }
        List<ComponentRule> rules = new ArrayList<>();
        if (entry.has("components")) {
            // iOS 13+ reads components and ignores paths when both are present.
            Object components = entry.opt("components");
            if (!(components instanceof JSONArray)) throw new DocumentException(where + ".components is not an array");
            JSONArray list = (JSONArray) components;
            for (int i = 0; i < list.length(); i++) {
                String place = where + ".components[" + i + "]";
                JSONObject component = object(list.opt(i), place);
                boolean[] options = defaults(defaults, component, place);
                rules.add(new ComponentRule(
                        component.has("/") ? string(component.opt("/"), place + "[\"/\"]") : null,
                        query(component.opt("?")),
                        component.has("#") ? string(component.opt("#"), place + "[\"#\"]") : null,
                        component.has("exclude") && bool(component.opt("exclude"), place + ".exclude"),
                        options[0], options[1], variables));
            }
        } else if (entry.has("paths")) {
            // Legacy paths predate defaults: path only, case-sensitive, compared as written.
            for (String path : strings(entry.opt("paths"), where + ".paths")) {
                boolean not = path.startsWith("NOT ");
                rules.add(new ComponentRule(not ? path.substring(4) : path, null, null, not, true, true, variables));
            }
        }
        return rules;
    }

    /** A string, a map of strings, or null: Apple ignores a dictionary holding any non-string value. */
    static Object query(Object value) {
        if (value instanceof String) return value;
        if (!(value instanceof JSONObject)) return null;
        JSONObject items = (JSONObject) value;
        Map<String, String> out = new HashMap<>();
        for (Iterator<String> names = items.keys(); names.hasNext(); ) {
            String name = names.next();
            Object item = items.opt(name);
            if (!(item instanceof String)) return null;
            out.put(name, (String) item);
        }
        return out;
    }
}
