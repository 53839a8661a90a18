package com.routeregistry.client;

import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One compiled {@code components} rule: path, query (a whole-query pattern or named items) and fragment
 * patterns, compared in the rule's form ({@code caseSensitive}, {@code percentEncoded}). A component the rule
 * does not name matches anything; a component absent from the URL counts as "".
 */
final class ComponentRule {
    final boolean exclude;
    private final boolean decoded;
    private final boolean folded;
    private final Pattern path;
    private final Pattern query;
    private final Pattern fragment;
    /** Named query items (name in the rule's form), or null. */
    private final List<Map.Entry<String, Pattern>> items;

    /**
     * @param query a {@code String} (whole query), a {@code Map<String, String>} (named items) or null
     */
    ComponentRule(String path, Object query, String fragment, boolean exclude, boolean caseSensitive,
            boolean percentEncoded, Map<String, List<String>> variables) {
        this.exclude = exclude;
        this.decoded = !percentEncoded;
        this.folded = !caseSensitive;
        this.path = path == null ? null : new Pattern(path, true, folded, variables);
        this.fragment = fragment == null ? null : new Pattern(fragment, false, folded, variables);
        this.query = query instanceof String ? new Pattern((String) query, false, folded, variables) : null;
        if (query instanceof Map) {
            List<Map.Entry<String, Pattern>> list = new ArrayList<>();
            @SuppressWarnings("unchecked")
            Map<String, String> named = new TreeMap<>((Map<String, String>) query);
            for (Map.Entry<String, String> item : named.entrySet()) {
                String name = folded ? TextForms.folded(item.getKey()) : item.getKey();
                list.add(new AbstractMap.SimpleImmutableEntry<>(name, new Pattern(item.getValue(), false, folded, variables)));
            }
            items = Collections.unmodifiableList(list);
        } else {
            items = null;
        }
    }

    /** The rule that recognises the fallback marker: the item present with a non-empty value. */
    static ComponentRule marker(FallbackPolicy policy) {
        return new ComponentRule(
                null, Collections.singletonMap(policy.queryItem, "?*"), null, true, true, true,
                Collections.<String, List<String>>emptyMap());
    }

    /** True when the rule matches {@code url} (host and scheme are the caller's business). */
    boolean matches(LinkUrl url) {
        return matches(new MatchSubject(url));
    }

    /** {@link #matches(LinkUrl)} on a subject shared by the rules deciding one URL. */
    boolean matches(MatchSubject subject) {
        int form = MatchSubject.form(decoded, folded);
        if (path != null && !path.matches(subject.path(form))) return false;
        if (fragment != null && !fragment.matches(subject.fragment(form))) return false;
        if (query != null && !query.matches(subject.query(form))) return false;
        if (items != null) {
            List<String[]> present = subject.items(form);
            for (Map.Entry<String, Pattern> item : items) {
                boolean seen = false;
                for (String[] pair : present) {
                    if (!pair[0].equals(item.getKey())) continue;
                    seen = true;
                    if (!item.getValue().matches(pair[1])) return false;
                }
                if (!seen && !item.getValue().matches("")) return false;
            }
        }
        return true;
    }
}
