package com.routeregistry.client;

import static com.routeregistry.client.Repo.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.json.JSONArray;
import org.json.JSONObject;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Both vector files through the real registry: each case's AASA rules for its app become that app's routes on
 * the case's domain (options resolved per rule, variables on the domain), and {@code CanOpen.Check} for Android
 * must give the case's outcome ({@code match} opens the app, {@code exclude} is {@code excluded}, {@code no_match}
 * is no route or not associated), while the local table from {@code CanOpen.GetTable} decides identically.
 *
 * <p>A case whose rules the registry cannot hold (its validation refuses the pattern, or two details give one
 * app different variables) is counted, not compared; the test requires nearly all to be compared.
 */
@Tag("registry")
@ExtendWith(RegistryServer.Extension.class)
class ServerVectorsTest {
    private static final Version VERSION = Version.ofVersionCode(1);

    /** One case as registry input. */
    private static final class Case {
        final String name;
        /** The registry app holding the case's rules (cases with the same rules share one). */
        String app;
        final String url;
        final String domain;
        final String expect;
        final JSONArray routes = new JSONArray();
        Map<String, List<String>> variables = new TreeMap<>();

        Case(JSONObject vector) {
            name = vector.optString("name");
            url = vector.optString("url");
            domain = LinkUrl.normalizedHost(vector.optString("domain"));
            expect = vector.optString("expect");
        }
    }

    /** The case as routes, or null when one app cannot hold its details' variables. */
    private static Case translate(JSONObject vector) throws Exception {
        Case out = new Case(vector);
        JSONObject applinks = vector.getJSONObject("aasa").optJSONObject("applinks");
        if (applinks == null) return out;
        boolean[] top = options(new boolean[] {true, true}, applinks.optJSONObject("defaults"));
        Map<String, List<String>> topVariables = new TreeMap<>(CanOpenTable.variables(applinks.optJSONObject("substitutionVariables")));
        Object details = applinks.opt("details");
        List<JSONObject> listing = new ArrayList<>();
        if (details instanceof JSONArray) {
            JSONArray list = (JSONArray) details;
            for (int i = 0; i < list.length(); i++) {
                JSONObject entry = list.getJSONObject(i);
                JSONArray ids = entry.optJSONArray("appIDs");
                boolean listed = vector.optString("appId").equals(entry.optString("appID"));
                for (int k = 0; ids != null && k < ids.length(); k++) listed |= vector.optString("appId").equals(ids.optString(k));
                if (listed) listing.add(entry);
            }
        } else if (details instanceof JSONObject && ((JSONObject) details).has(vector.optString("appId"))) {
            listing.add(((JSONObject) details).getJSONObject(vector.optString("appId")));
        }
        Map<String, List<String>> chosen = null;
        for (JSONObject entry : listing) {
            Map<String, List<String>> merged = new TreeMap<>(topVariables);
            merged.putAll(CanOpenTable.variables(entry.optJSONObject("substitutionVariables")));
            if (chosen != null && !chosen.equals(merged)) return null;
            chosen = merged;
            boolean[] detail = options(top, entry.optJSONObject("defaults"));
            if (entry.has("components")) {
                JSONArray components = entry.getJSONArray("components");
                for (int i = 0; i < components.length(); i++) {
                    JSONObject component = components.getJSONObject(i);
                    boolean[] rule = options(detail, component);
                    JSONObject pattern = json("caseSensitive", rule[0], "percentEncoded", rule[1]);
                    if (component.has("/")) pattern.put("path", component.get("/"));
                    if (component.has("#")) pattern.put("fragment", component.get("#"));
                    Object query = AasaMatcher.query(component.opt("?"));
                    if (query != null) pattern.put("query", query instanceof String ? query : new JSONObject(castMap(query)));
                    out.routes.put(route(out.routes.length(), pattern, component.optBoolean("exclude", false)));
                }
            } else if (entry.has("paths")) {
                JSONArray paths = entry.getJSONArray("paths");
                for (int i = 0; i < paths.length(); i++) {
                    String path = paths.getString(i);
                    boolean not = path.startsWith("NOT ");
                    JSONObject pattern = json("path", not ? path.substring(4) : path, "caseSensitive", true, "percentEncoded", true);
                    out.routes.put(route(out.routes.length(), pattern, not));
                }
            }
        }
        if (chosen != null) out.variables = chosen;
        return out;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, String> castMap(Object query) {
        return (Map<String, String>) query;
    }

    private static JSONObject route(int index, JSONObject pattern, boolean exclude) {
        JSONObject route = json("id", "r" + index, "pattern", pattern, "action", exclude ? "exclude" : "open");
        if (!exclude) Json.put(route, "platforms", json("android", json("since", "1")));
        return route;
    }

    private static boolean[] options(boolean[] base, JSONObject source) {
        boolean[] out = base.clone();
        if (source != null && source.opt("caseSensitive") instanceof Boolean) out[0] = source.optBoolean("caseSensitive");
        if (source != null && source.opt("percentEncoded") instanceof Boolean) out[1] = source.optBoolean("percentEncoded");
        return out;
    }

    private static JSONObject domain(String host, List<Case> cases) {
        JSONArray apps = new JSONArray();
        for (String app : new java.util.TreeSet<>(appsOf(cases))) apps.put(app);
        JSONObject domain = json("host", host, "apps", apps);
        if (!cases.get(0).variables.isEmpty()) Json.put(domain, "substitutionVariables", new JSONObject(cases.get(0).variables));
        return domain;
    }

    private static List<String> appsOf(List<Case> cases) {
        List<String> apps = new ArrayList<>();
        for (Case c : cases) apps.add(c.app);
        return apps;
    }

    /** The case's expectation against the server, and the local table against the server. */
    private static void compare(RegistryServer server, Case c) throws Exception {
        RouteRegistryClient anonymous = server.anonymous();
        Decision decided = anonymous.check(c.app, "android", VERSION, c.url);
        String outcome = decided.decision == Decision.Outcome.OPEN_IN_APP ? "match"
                : Decision.REASON_EXCLUDED.equals(decided.reason) ? "exclude" : "no_match";
        assertEquals(c.expect, outcome, c.name + ": " + c.url + " decided " + decided);
        assertTrue(decided.reason == null || !decided.reason.equals(Decision.REASON_FALLBACK_MARKER), c.name);
        CanOpenTable table = anonymous.getTable(c.app, "android", VERSION, null).table;
        assertEquals(decided, table.decide(c.url), c.name + ": the table agrees with the server");
    }

    @Test
    void everyVectorDecidesOnTheServerAsExpectedAndTheTableAgrees(RegistryServer server) throws Exception {
        List<JSONObject> vectors = new ArrayList<>();
        for (java.nio.file.Path file : new java.nio.file.Path[] {Repo.conformanceVectors(), Repo.projectVectors()}) {
            JSONArray cases = Repo.array(Repo.readObject(file), "cases");
            for (int i = 0; i < cases.length(); i++) vectors.add(cases.getJSONObject(i));
        }
        String suffix = UUID.randomUUID().toString().replace("-", "").substring(0, 6);
        List<Case> cases = new ArrayList<>();
        List<String> untranslatable = Collections.synchronizedList(new ArrayList<>());
        for (JSONObject vector : vectors) {
            Case c = translate(vector);
            if (c == null) untranslatable.add(vector.optString("name") + ": details with different variables");
            else cases.add(c);
        }
        // Cases with the same rules, variables and domain share one app: fewer writes, the same comparisons.
        Map<String, List<Case>> byRules = new java.util.LinkedHashMap<>();
        for (Case c : cases) {
            byRules.computeIfAbsent(c.routes + " " + c.variables + " " + c.domain, key -> new ArrayList<>()).add(c);
        }
        int count = 0;
        for (List<Case> same : byRules.values()) {
            String app = "vec-" + suffix + "-" + count++;
            for (Case c : same) c.app = app;
        }

        long t0 = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        List<Case> held = Collections.synchronizedList(new ArrayList<>());
        try {
            List<Future<?>> writes = new ArrayList<>();
            for (List<Case> same : byRules.values()) {
                Case c = same.get(0);
                writes.add(pool.submit(() -> {
                    // An unusual marker, so no case's query is read as a fallback.
                    server.adminCall("Apps.Create", json("app", json("id", c.app, "fallback", json("queryItem", "zz-vector-marker"),
                            "android", json("packageName", "com.example.vectors", "sha256CertFingerprints",
                                    new JSONArray(Collections.singletonList(String.join(":", Collections.nCopies(32, "EF")))))),
                            // The vector apps all name one package, shared on purpose by the admin for every app.
                            "shareNames", true));
                    if (c.routes.length() > 0) {
                        try {
                            server.admin().call("Routes.BatchCreate", json("app", c.app, "routes", c.routes));
                        } catch (RegistryException e) {
                            assertEquals(RegistryException.Kind.RPC, e.kind, e.getMessage());
                            for (Case refused : same) untranslatable.add(refused.name + ": " + e.getMessage());
                            return null;
                        }
                    }
                    held.addAll(same);
                    return null;
                }));
            }
            Futures.await(writes);
            // One domain for the cases without variables; each case with variables gets the domain to itself in turn.
            Map<String, List<Case>> plain = new TreeMap<>();
            Map<String, List<Case>> withVariables = new TreeMap<>();
            for (Case c : held) {
                if (c.variables.isEmpty()) plain.computeIfAbsent(c.domain, key -> new ArrayList<>()).add(c);
                else withVariables.computeIfAbsent(c.app, key -> new ArrayList<>()).add(c);
            }
            for (Map.Entry<String, List<Case>> group : plain.entrySet()) {
                server.adminCall("Domains.Create", json("domain", domain(group.getKey(), group.getValue())));
                List<Future<?>> reads = new ArrayList<>();
                for (Case c : group.getValue()) reads.add(pool.submit(() -> {
                    compare(server, c);
                    return null;
                }));
                Futures.await(reads);
                server.adminCall("Domains.Delete", json("host", group.getKey()));
            }
            for (List<Case> same : withVariables.values()) {
                String host = same.get(0).domain;
                server.adminCall("Domains.Create", json("domain", domain(host, same)));
                for (Case c : same) compare(server, c);
                server.adminCall("Domains.Delete", json("host", host));
            }
        } finally {
            pool.shutdownNow();
        }
        System.out.println("ServerVectorsTest: " + held.size() + " of " + vectors.size() + " cases compared through the registry ("
                + byRules.size() + " apps) in "
                + (System.nanoTime() - t0) / 1_000_000 + " ms"
                + (untranslatable.isEmpty() ? "" : "; not held: " + untranslatable));
        assertTrue(untranslatable.size() <= vectors.size() / 20,
                held.size() + " of " + vectors.size() + " cases compared; not held: " + untranslatable);
        assertEquals(vectors.size(), held.size() + untranslatable.size());
    }
}
