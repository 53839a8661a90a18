package com.routeregistry.client;

import static com.routeregistry.client.Repo.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.json.JSONArray;
import org.json.JSONObject;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Randomized differential test against the real registry: random routes (wildcards, substitution variables,
 * query items and strings, fragments, both matching options, exclusions, version ranges, switch-offs, custom
 * schemes with web fallbacks) on two domains, then random links decided for several versions by the local table
 * ({@code CanOpen.GetTable}) and by the server ({@code CanOpen.Check}); every decision must be identical.
 *
 * <p>The seed is printed with any failure; set {@code -Drouteregistry.seed=N} to replay one.
 */
@Tag("registry")
@ExtendWith(RegistryServer.Extension.class)
class DifferentialTest {
    private static final String[] SEGMENTS = {"a", "b", "u", "l", "A", "x1", "42", "%41", "%2F", "é", "%C3%A9", "ab", ""};
    private static final String[] PIECES = {"*", "?", "$(digit)", "$(lang)", "$(v)", "$(alpha)", "$(nope)", "?*"};
    private static final String[] VERSIONS = {"90", "100", "150", "200", "250", "300", "1.5.0"};

    private final long seed = Long.getLong("routeregistry.seed", System.nanoTime());
    private final Random random = new Random(seed);

    private <T> T pick(T[] values) {
        return values[random.nextInt(values.length)];
    }

    private String pathPattern() {
        StringBuilder path = new StringBuilder();
        int segments = 1 + random.nextInt(3);
        for (int i = 0; i < segments; i++) {
            path.append('/');
            path.append(random.nextInt(3) == 0 ? pick(PIECES) : pick(SEGMENTS));
            if (random.nextInt(5) == 0) path.append(pick(PIECES));
        }
        if (random.nextInt(3) == 0) path.append("/*");
        return path.toString();
    }

    private JSONObject pattern(String scheme) {
        JSONObject pattern = json("path", pathPattern());
        if (scheme != null) Json.put(pattern, "scheme", scheme);
        switch (random.nextInt(6)) {
            case 0: Json.put(pattern, "query", json("q", random.nextBoolean() ? "?*" : "1")); break;
            case 1: Json.put(pattern, "query", "k=*"); break;
            default: break;
        }
        if (random.nextInt(6) == 0) Json.put(pattern, "fragment", random.nextBoolean() ? "f*" : "");
        if (random.nextInt(4) == 0) Json.put(pattern, "caseSensitive", false);
        if (random.nextInt(4) == 0) Json.put(pattern, "percentEncoded", false);
        return pattern;
    }

    private JSONObject route(String id, String scheme) {
        JSONObject route = json("id", id, "pattern", pattern(scheme));
        if (random.nextInt(5) == 0) {
            Json.put(route, "action", "exclude");
            return route;
        }
        String since = pick(new String[] {"100", "200", "1.5"});
        JSONObject range = json("since", since);
        if (random.nextInt(4) == 0) Json.put(range, "until", "250");
        Json.put(route, "platforms", json("android", range));
        if (scheme != null && random.nextBoolean()) Json.put(route, "webFallback", "https://example.com/w{path}?{query}");
        return route;
    }

    /** A random link: web (one of the hosts, another host, odd spellings) or custom scheme, on {@code path}. */
    private String link(List<String> hosts, String scheme, String path) {
        String query = pick(new String[] {"", "", "?q=1", "?q=", "?Q=1", "?k=v", "?ul_fallback=1", "?ul_fallback=", "?q=1&q=2",
                "?ul%5Ffallback=1", "?q=%31"});
        String fragment = pick(new String[] {"", "", "#f1", "#", "#F"});
        if (random.nextInt(4) == 0) return scheme + "://" + path.replaceFirst("^/", "") + query + fragment;
        String host = random.nextInt(10) == 0 ? "other.invalid" : hosts.get(random.nextInt(hosts.size()));
        if (random.nextInt(8) == 0) host = host.toUpperCase() + ".";
        return (random.nextInt(6) == 0 ? "http" : "https") + "://" + host + path + query + fragment;
    }

    private String randomPath() {
        StringBuilder path = new StringBuilder();
        int segments = random.nextInt(4);
        for (int i = 0; i < segments; i++) path.append('/').append(pick(SEGMENTS));
        if (random.nextInt(4) == 0) path.append('/');
        return path.toString();
    }

    /** A path the pattern probably matches: its wildcards and variables replaced by something they accept. */
    private String instance(String pattern) {
        String path = pattern.replace("$(digit)", "7").replace("$(lang)", "en").replace("$(alpha)", "q")
                .replace("$(v)", pick(new String[] {"a", "bb", "xz"}));
        StringBuilder out = new StringBuilder();
        for (char c : path.toCharArray()) {
            if (c == '*') out.append(pick(new String[] {"", "k", "k/l", "A"}));
            else if (c == '?') out.append(pick(new String[] {"z", "é", "/"}));
            else out.append(c);
        }
        return out.toString();
    }

    /** A path no fixed route matches: no_route unless a random route matches everything. */
    private static final String NO_ROUTE_PROBE = "/zz/none/4";

    @Test
    void localTablesDecideExactlyAsTheServer(RegistryServer server) throws Exception {
        String suffix = UUID.randomUUID().toString().replace("-", "").substring(0, 8);
        String app = "diff-" + suffix;
        String scheme = "diff" + suffix;
        List<String> hosts = Arrays.asList("d1-" + suffix + ".example", "d2-" + suffix + ".example");
        server.adminCall("Apps.Create", json("app", json("id", app, "schemes", new JSONArray(Collections.singletonList(scheme)),
                "android", json("packageName", "com.example.diff", "sha256CertFingerprints",
                        new JSONArray(Collections.singletonList(String.join(":", Collections.nCopies(32, "CD")))))),
                // Each run names the same package, shared on purpose by the admin for every app.
                "shareNames", true));
        server.adminCall("Domains.Create", json("domain", json("host", hosts.get(0), "apps", new JSONArray(Collections.singletonList(app)),
                "substitutionVariables", json("v", new JSONArray(Arrays.asList("a", "b*", "?z"))))));
        server.adminCall("Domains.Create", json("domain", json("host", hosts.get(1), "apps", new JSONArray(Collections.singletonList(app)))));

        // A fixed head guarantees every kind of decision is compared; the random routes after it give the breadth.
        server.adminCall("Routes.Create", json("app", app, "route", json("id", "fx-excluded", "action", "exclude",
                "pattern", json("path", "/zz/excluded/*"))));
        server.adminCall("Routes.Create", json("app", app, "route", json("id", "fx-switched",
                "pattern", json("path", "/zz/switched/*"), "platforms", json("android", json("since", "100")))));
        server.adminCall("Routes.SwitchOff", json("app", app, "route", "fx-switched", "platform", "android",
                "versions", new JSONArray(Collections.singletonList("200"))));
        server.adminCall("Routes.Create", json("app", app, "route", json("id", "fx-new",
                "pattern", json("path", "/zz/new/*"), "platforms", json("android", json("since", "300")))));
        RouteRegistryClient admin = server.admin();
        int accepted = 0;
        List<String> ids = new ArrayList<>();
        List<String> paths = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            try {
                JSONObject route = route("r" + i, random.nextInt(4) == 0 ? scheme : null);
                admin.call("Routes.Create", json("app", app, "route", route));
                accepted++;
                ids.add("r" + i);
                paths.add(route.getJSONObject("pattern").getString("path"));
            } catch (RegistryException e) {
                assertEquals(RegistryException.Kind.RPC, e.kind, "a refused route is refused as invalid: " + e.getMessage());
            }
        }
        assertTrue(accepted >= 30, "most random routes are valid (" + accepted + " of 40, seed " + seed + ")");
        // Switch-offs for versions in every range ("200"), so links aimed at those routes meet them.
        List<String> switched = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            int index = random.nextInt(ids.size());
            String version = random.nextBoolean() ? "200" : pick(VERSIONS);
            try {
                admin.call("Routes.SwitchOff", json("app", app, "route", ids.get(index), "platform", "android",
                        "versions", new JSONArray(Collections.singletonList(version))));
                switched.add(paths.get(index));
            } catch (RegistryException e) {
                // An exclude route has no versions to switch off: refused, with a reason.
                assertEquals(RegistryException.Kind.RPC, e.kind, e.getMessage());
            }
        }
        assertTrue(!switched.isEmpty(), "some switch-offs were accepted (seed " + seed + ")");

        Set<String> links = new LinkedHashSet<>();
        for (String path : new String[] {"/zz/excluded/1", "/zz/switched/2", "/zz/new/3", NO_ROUTE_PROBE}) {
            links.add("https://" + hosts.get(0) + path);
            links.add("https://" + hosts.get(1) + path + "?a=b#c");
        }
        for (String path : switched) {
            for (int i = 0; i < 3; i++) links.add(link(hosts, scheme, instance(path)));
        }
        while (links.size() < 120) {
            // Half the links aim at a route: a path its pattern probably matches.
            String path = random.nextBoolean() ? randomPath() : instance(paths.get(random.nextInt(paths.size())));
            links.add(link(hosts, scheme, path));
        }
        RouteRegistryClient anonymous = server.anonymous();
        Set<String> reasons = Collections.synchronizedSet(new LinkedHashSet<>());
        AtomicInteger compared = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> work = new ArrayList<>();
            for (String text : VERSIONS) {
                Version version = Version.parse(text);
                CanOpenTable table = anonymous.getTable(app, "android", version, null).table;
                for (String url : links) {
                    work.add(pool.submit(() -> {
                        Decision expected = anonymous.check(app, "android", version, url);
                        assertEquals(expected, table.decide(url), url + " at " + version + " (seed " + seed + ")");
                        reasons.add(String.valueOf(expected.reason));
                        compared.incrementAndGet();
                        return null;
                    }));
                }
            }
            Futures.await(work);
        } finally {
            pool.shutdownNow();
        }
        assertEquals(VERSIONS.length * links.size(), compared.get());
        // The random links reached every kind of decision, or the comparison proved little. The one exception: a
        // random catch-all route (say "*") leaves no link without a route; the probe shows whether one was drawn.
        Decision probe = anonymous.check(app, "android", Version.parse(VERSIONS[0]), "https://" + hosts.get(0) + NO_ROUTE_PROBE);
        boolean catchAllDrawn = !"no_route".equals(String.valueOf(probe.reason));
        for (String reason : new String[] {"route", "excluded", "unsupported_version", "switched_off", "fallback_marker",
                "no_route", "null"}) {
            if (reason.equals("no_route") && catchAllDrawn) continue;
            assertTrue(reasons.contains(reason), reason + " among " + reasons + " (seed " + seed + ")");
        }
    }
}
