package com.routeregistry.client;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A URL prepared for matching, once per decision: each form of each component (as written or decoded, folded or
 * not) is computed the first time a rule asks for it and then shared by every later rule, so a table with
 * thousands of rules transforms the URL at most four times rather than once per rule. Not thread-safe: one per
 * decision.
 */
final class MatchSubject {
    final LinkUrl url;
    private final int[][] paths = new int[4][];
    private final String[] queries = new String[4];
    private final String[] fragments = new String[4];
    private final List<List<String[]>> items = new ArrayList<>(Arrays.asList(null, null, null, null));

    MatchSubject(LinkUrl url) {
        this.url = url;
    }

    /** The form index of a rule: bit 1 decoded ({@code percentEncoded: false}), bit 0 folded. */
    static int form(boolean decoded, boolean folded) {
        return (decoded ? 2 : 0) | (folded ? 1 : 0);
    }

    private static String text(String text, int form) {
        if ((form & 2) != 0) text = TextForms.percentDecoded(text);
        return (form & 1) != 0 ? TextForms.folded(text) : text;
    }

    /** The canonical path in {@code form}, as code points. */
    int[] path(int form) {
        if (paths[form] == null) {
            String path = (form & 2) != 0 ? TextForms.percentDecoded(url.path) : url.path;
            path = TextForms.canonicalPath(path);
            if ((form & 1) != 0) path = TextForms.folded(path);
            paths[form] = path.codePoints().toArray();
        }
        return paths[form];
    }

    /** The whole query in {@code form} ("" when absent). */
    String query(int form) {
        if (queries[form] == null) queries[form] = text(url.query == null ? "" : url.query, form);
        return queries[form];
    }

    /** The fragment in {@code form} ("" when absent). */
    String fragment(int form) {
        if (fragments[form] == null) fragments[form] = text(url.fragment == null ? "" : url.fragment, form);
        return fragments[form];
    }

    /**
     * The query items in {@code form}: split on {@code &} and the first {@code =}, empty pieces skipped, each name
     * and value transformed on its own (so a decoded {@code %26} never splits anything).
     */
    List<String[]> items(int form) {
        if (items.get(form) == null) {
            List<String[]> out = new ArrayList<>();
            for (String piece : (url.query == null ? "" : url.query).split("&", -1)) {
                if (piece.isEmpty()) continue;
                int equals = piece.indexOf('=');
                String name = equals < 0 ? piece : piece.substring(0, equals);
                String value = equals < 0 ? "" : piece.substring(equals + 1);
                out.add(new String[] {text(name, form), text(value, form)});
            }
            items.set(form, out);
        }
        return items.get(form);
    }
}
