package com.routeregistry.client;

import static com.routeregistry.client.Repo.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import android.app.Activity;
import android.content.Intent;
import android.content.pm.ActivityInfo;
import android.content.pm.PackageManager;
import android.content.pm.ResolveInfo;
import android.net.Uri;
import com.routeregistry.client.android.LinkEntryPoint;
import java.io.ByteArrayInputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.json.JSONArray;
import org.json.JSONObject;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Short links on Android against the real registry: a link domain resolved from versionCode 5110, links to a
 * profile, to lookalikes (since 5120) and to a profile asking 5130 itself. {@link CanOpenStore#open} resolves them,
 * decides the target per version, falls back offline and within its deadline, and every entry point of
 * {@link LinkEntryPoint} (App Link, custom scheme, notification data message, shortcut, widget, in-app message)
 * reaches the same outcome.
 */
@Tag("registry")
@ExtendWith(RegistryServer.Extension.class)
class ShortLinkStoryTest {
    @TempDir
    Path caches;

    /** The Badoo fixture plus its link domain and three links. */
    private static final class Links {
        final BadooFixture badoo;
        final String go;

        Links(RegistryServer server) {
            badoo = new BadooFixture(server);
            go = "go." + badoo.host.substring(2);
            server.adminCall("Domains.Create", json("domain", json("host", go, "apps", new JSONArray(Arrays.asList(badoo.app)),
                    "links", true)));
            badoo.route(json("id", "links-go", "pattern", json("path", "/*"), "platforms",
                    json("android", json("since", "5110")), "domains", new JSONArray(Arrays.asList(go))));
            String web = "https://" + badoo.host;
            JSONArray links = new JSONArray();
            links.put(json("domain", go, "code", "profile42", "target", web + "/u/42"));
            links.put(json("domain", go, "code", "lookalikes", "target", web + "/l/a/42"));
            links.put(json("domain", go, "code", "newer", "target", web + "/u/7", "android", json("minVersion", "5130")));
            JSONObject created = server.adminCall("Links.BatchCreate", json("app", badoo.app, "links", links,
                    "requestId", "android-" + badoo.app));
            assertEquals(3, created.optJSONArray("links").length());
        }

        String link(String code) {
            return "https://" + go + "/" + code;
        }

        String web(String path) {
            return "https://" + badoo.host + path;
        }
    }

    private CanOpenStore store(Links links, String server, Version version, String cache) throws RegistryException {
        CanOpenStore store = CanOpenStore.builder(new RouteRegistryClient(server, null, 30_000), links.badoo.app, version)
                .cacheDirectory(caches.resolve(cache).toFile()).shortLinkTimeout(20, TimeUnit.SECONDS).build();
        assertEquals(CanOpenStore.RefreshOutcome.UPDATED, store.refresh());
        return store;
    }

    @Test
    void aShortLinkIsResolvedDecidedPerVersionAndFallsBackOffline(RegistryServer server) throws Exception {
        Links links = new Links(server);
        CanOpenStore old = store(links, server.url, BadooFixture.OLD, "old");
        CanOpenStore current = store(links, server.url, BadooFixture.NEW, "new");
        assertEquals(Collections.singleton(links.go), current.linkDomains(), "the table marks the link domain");

        // 5110 resolves short links, but lookalikes starts at 5120: the update, and the web.
        LinkOpening tooOld = old.open(links.link("lookalikes"), LinkSource.APP_LINK);
        assertEquals(LinkOpening.Resolution.SERVER, tooOld.resolution);
        assertEquals(LinkOpening.Action.OPEN_IN_BROWSER, tooOld.action);
        assertEquals(Decision.REASON_UNSUPPORTED_VERSION, tooOld.decision.reason);
        assertEquals("lookalikes", tooOld.decision.route);
        assertEquals("5120", tooOld.supportedSince());
        assertEquals(links.web("/l/a/42?ul_fallback=1"), tooOld.target);
        assertEquals(tooOld.shortLink.decision, tooOld.decision, "the local decision is the registry's");

        // 5120 opens the target in the app, and the router is told the route's ID.
        LinkOpening opened = current.open(links.link("lookalikes"), LinkSource.APP_LINK);
        assertEquals(LinkOpening.Action.OPEN_IN_APP, opened.action);
        assertEquals("lookalikes", opened.route);
        assertEquals(links.web("/l/a/42"), opened.target);
        assertEquals("route", opened.shortLink.minVersionSource);

        // The link's own minimum (5130) above its route's: 5120 is told to update to 5130.
        LinkOpening newer = current.open(links.link("newer"), LinkSource.NOTIFICATION);
        assertEquals(Decision.REASON_UNSUPPORTED_VERSION, newer.decision.reason);
        // The registry writes a link's minimum in its canonical form (5130.0.0); it is the version 5130.
        assertEquals(Version.ofVersionCode(5130), Version.parse(newer.supportedSince()));
        assertEquals("profile", newer.decision.route);
        assertEquals(links.web("/u/7?ul_fallback=1"), newer.target);
        assertEquals(newer.shortLink.decision, newer.decision);

        // Unknown code: the browser shows the registry's page.
        LinkOpening unknown = current.open(links.link("nothing-here"), LinkSource.APP_LINK);
        assertEquals(LinkOpening.Resolution.NOT_FOUND, unknown.resolution);
        assertEquals(links.link("nothing-here?ul_fallback=1"), unknown.target);

        // Before the link domain's route: the table sends the short link to the landing page, unresolved.
        CanOpenStore before = store(links, server.url, Version.ofVersionCode(5000), "before");
        LinkOpening landing = before.open(links.link("lookalikes"), LinkSource.APP_LINK);
        assertNull(landing.resolution);
        assertEquals("links-go", landing.decision.route);
        assertEquals(links.link("lookalikes?ul_fallback=1"), landing.target);

        // Offline (a new process, the registry unreachable, the table bundled): the resolution made before answers
        // from disk; another link opens in the browser, marked.
        RouteRegistryClient.TableAnswer answer = server.anonymous().getTable(links.badoo.app, "android", BadooFixture.NEW, null);
        JSONObject bundle = json("etag", answer.etag, "table", answer.table.json);
        try (Socket closed = BadooFixture.closedPort()) {
            CanOpenStore offline = CanOpenStore.builder(new RouteRegistryClient(BadooFixture.urlOf(closed), null, 2_000),
                            links.badoo.app, BadooFixture.NEW)
                    .cacheDirectory(caches.resolve("new").toFile())
                    .bundledTable(new ByteArrayInputStream(bundle.toString().getBytes(StandardCharsets.UTF_8)))
                    .shortLinkTimeout(2, TimeUnit.SECONDS).build();
            LinkOpening cached = offline.open(links.link("lookalikes"), LinkSource.WIDGET);
            assertEquals(LinkOpening.Resolution.CACHE, cached.resolution);
            assertTrue(cached.sameOutcome(opened), cached + " vs " + opened);
            assertTrue(offline.route(links.link("lookalikes"), LinkSource.APP_LINK).sameOutcome(opened));
            LinkOpening unavailable = offline.open(links.link("profile42"), LinkSource.APP_LINK);
            assertEquals(LinkOpening.Resolution.UNAVAILABLE, unavailable.resolution);
            assertEquals(LinkOpening.Action.OPEN_IN_BROWSER, unavailable.action);
            assertEquals(links.link("profile42?ul_fallback=1"), unavailable.target);
        }

        // A registry that accepts and never answers: the deadline holds.
        try (ServerSocket silent = new ServerSocket(0)) {
            CanOpenStore hanging = CanOpenStore.builder(
                            new RouteRegistryClient("http://127.0.0.1:" + silent.getLocalPort(), null, 30_000),
                            links.badoo.app, BadooFixture.NEW)
                    .bundledTable(new ByteArrayInputStream(bundle.toString().getBytes(StandardCharsets.UTF_8)))
                    .shortLinkTimeout(500, TimeUnit.MILLISECONDS).build();
            long started = System.nanoTime();
            LinkOpening late = hanging.open(links.link("profile42"), LinkSource.APP_LINK);
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            // Far below the client's 30 s deadline; the margin is for a loaded build machine.
            assertTrue(millis >= 400 && millis < 10_000, "waited " + millis + " ms");
            assertEquals(LinkOpening.Resolution.UNAVAILABLE, late.resolution);
        }
    }

    /** An Activity recording what it starts (the browser), with Chrome as the default browser. */
    private static final class RecordingActivity extends Activity {
        final List<String> browsed = new ArrayList<>();

        @Override
        public String getPackageName() {
            return "com.badoo.mobile";
        }

        @Override
        public PackageManager getPackageManager() {
            return new PackageManager() {
                @Override
                public ResolveInfo resolveActivity(Intent intent, int flags) {
                    ResolveInfo info = new ResolveInfo();
                    info.activityInfo = new ActivityInfo();
                    info.activityInfo.packageName = "com.android.chrome";
                    return info;
                }
            };
        }

        @Override
        public void startActivity(Intent intent) {
            browsed.add(intent.getData().toString());
        }

        @Override
        public void finish() {}
    }

    @Test
    void everyEntryPointReachesTheSameOutcome(RegistryServer server) throws Exception {
        Links links = new Links(server);
        for (Version version : Arrays.asList(BadooFixture.OLD, BadooFixture.NEW)) {
            CanOpenStore store = store(links, server.url, version, "entry-" + version);
            List<String> shown = new ArrayList<>();
            LinkEntryPoint entry = new LinkEntryPoint(store, (route, url, opening) -> shown.add(route + " " + url));
            RecordingActivity activity = new RecordingActivity();
            for (String url : Arrays.asList(links.link("lookalikes"), links.web("/l/a/42"))) {
                Map<String, String> data = new HashMap<>();
                data.put("url", url);
                data.put("kind", "promo");
                assertNotNull(entry.prefetch(data), "a data message resolves its link ahead of the tap");
                List<LinkOpening> outcomes = Arrays.asList(
                        entry.handle(activity, new Intent(Intent.ACTION_VIEW, Uri.parse(url))),
                        entry.handle(activity, LinkEntryPoint.viewIntent(url, LinkSource.CUSTOM_SCHEME)),
                        entry.handle(activity, LinkEntryPoint.viewIntent(LinkEntryPoint.url(data), LinkSource.NOTIFICATION)),
                        entry.handle(activity, LinkEntryPoint.viewIntent(url, LinkSource.SHORTCUT)),
                        entry.handle(activity, LinkEntryPoint.viewIntent(url, LinkSource.WIDGET)),
                        entry.handle(activity, url, LinkSource.IN_APP_MESSAGE));
                assertEquals(Arrays.asList(LinkSource.values()),
                        Arrays.asList(outcomes.stream().map(o -> o.source).toArray()), "each intent names its source");
                for (LinkOpening outcome : outcomes) {
                    assertTrue(outcome.sameOutcome(outcomes.get(0)), outcome + " vs " + outcomes.get(0));
                }
            }
            // onCreate's way: resolved on one executor, acted on on another (both direct here).
            entry.handleAsync(activity, new Intent(Intent.ACTION_VIEW, Uri.parse(links.link("lookalikes"))), Runnable::run,
                    Runnable::run);
            if (version.equals(BadooFixture.NEW)) {
                assertEquals(Collections.nCopies(13, "lookalikes " + links.web("/l/a/42")), shown);
                assertTrue(activity.browsed.isEmpty());
            } else {
                assertTrue(shown.isEmpty());
                assertEquals(Collections.nCopies(13, links.web("/l/a/42?ul_fallback=1")), activity.browsed);
            }
        }
    }
}
