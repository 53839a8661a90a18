package com.routeregistry.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.File;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Collections;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.json.JSONObject;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Badoo story for Android against the real registry, through {@link CanOpenStore}: a route added in a newer
 * versionCode is {@code open_in_browser} with the fallback URL for an older one, a switched-off route follows the
 * switch after a revalidation, and the store keeps answering (from memory, disk or the bundled table) with the
 * registry unreachable. Every local decision is compared with the server's {@code CanOpen.Check}.
 */
@Tag("registry")
@ExtendWith(RegistryServer.Extension.class)
class AndroidStoryTest {
    @TempDir
    Path caches;

    /** A store for the fixture's app in this test's caches directory. */
    private CanOpenStore store(BadooFixture badoo, String server, Version version, AtomicLong clock) {
        CanOpenStore.Builder builder = CanOpenStore.builder(new RouteRegistryClient(server, null, 20_000), badoo.app, version)
                .cacheDirectory(caches.toFile());
        if (clock != null) builder.clock(clock::get);
        return builder.build();
    }

    private static void expectServerDecisions(BadooFixture badoo, CanOpenStore store, Version version) {
        for (String url : badoo.urls()) assertEquals(badoo.check(version, url), store.decide(url), url + " at " + version);
    }

    @Test
    void newerRouteFallsBackForOlderVersionsAndSwitchOffsFollowTheSwitch(RegistryServer server) throws Exception {
        BadooFixture badoo = new BadooFixture(server);
        String link = "https://" + badoo.host + "/l/a/42";

        CanOpenStore old = store(badoo, server.url, BadooFixture.OLD, null);
        assertEquals(CanOpenStore.Source.NONE, old.status().source);
        assertEquals(CanOpenStore.RefreshOutcome.UPDATED, old.refresh());
        assertEquals(CanOpenStore.Source.SERVER, old.status().source);
        Decision fallback = old.decide(link);
        assertEquals(Decision.Outcome.OPEN_IN_BROWSER, fallback.decision);
        assertEquals(Decision.REASON_UNSUPPORTED_VERSION, fallback.reason);
        assertEquals("lookalikes", fallback.route);
        assertEquals("5120", fallback.supportedSince);
        assertEquals(link + "?ul_fallback=1", fallback.fallbackUrl);
        assertEquals(link + "?ul_fallback=1", old.fallbackUrl(link));
        assertEquals(Decision.REASON_ROUTE, old.decide("https://" + badoo.host + "/u/1").reason);
        assertEquals(Decision.REASON_EXCLUDED, old.decide("https://" + badoo.host + "/help/faq").reason);
        assertEquals(Decision.REASON_FALLBACK_MARKER, old.decide(link + "?ul_fallback=1").reason);
        assertEquals(link + "?ul_fallback=1", old.fallbackUrl(link + "?ul_fallback=1"));
        assertEquals(Decision.Outcome.OPEN_IN_APP, old.decide(badoo.scheme + "://offer/7?a=b").decision);
        expectServerDecisions(badoo, old, BadooFixture.OLD);

        // Below the custom-scheme route's versionCode: its web equivalent, marked.
        Version older = Version.ofVersionCode(4999);
        CanOpenStore oldest = store(badoo, server.url, older, null);
        oldest.refresh();
        Decision offer = oldest.decide(badoo.scheme + "://offer/7?a=b");
        assertEquals(Decision.REASON_UNSUPPORTED_VERSION, offer.reason);
        assertEquals("https://" + badoo.host + "/offer/7?a=b&ul_fallback=1", offer.fallbackUrl);
        assertEquals(null, oldest.fallbackUrl(badoo.scheme + "://other"), "no web page for an unknown scheme link");
        expectServerDecisions(badoo, oldest, older);

        badoo.publish(BadooFixture.NEW);
        CanOpenStore current = store(badoo, server.url, BadooFixture.NEW, null);
        assertEquals(CanOpenStore.RefreshOutcome.UPDATED, current.refresh());
        assertEquals(Decision.Outcome.OPEN_IN_APP, current.decide(link).decision);
        String firstETag = current.status().etag;
        assertEquals(CanOpenStore.RefreshOutcome.NOT_MODIFIED, current.refresh());
        assertEquals(firstETag, current.status().etag);

        // 5120 crashes on lookalikes: switched off, the next revalidation picks it up.
        badoo.switchOff("lookalikes", BadooFixture.NEW);
        assertEquals(Decision.Outcome.OPEN_IN_APP, current.decide(link).decision, "no network in decide");
        assertEquals(CanOpenStore.RefreshOutcome.UPDATED, current.refresh());
        assertNotEquals(firstETag, current.status().etag);
        Decision switched = current.decide(link);
        assertEquals(Decision.REASON_SWITCHED_OFF, switched.reason);
        assertEquals(link + "?ul_fallback=1", switched.fallbackUrl);
        expectServerDecisions(badoo, current, BadooFixture.NEW);
        // The older version is unaffected by a switch-off for the newer one.
        assertEquals(CanOpenStore.RefreshOutcome.NOT_MODIFIED, old.refresh());
        assertEquals(Decision.REASON_UNSUPPORTED_VERSION, old.decide(link).reason);
    }

    @Test
    void answersOfflineFromMemoryDiskAndTheBundledTable(RegistryServer server) throws Exception {
        BadooFixture badoo = new BadooFixture(server);
        CanOpenStore online = store(badoo, server.url, BadooFixture.OLD, null);
        online.refresh();
        try (Socket closed = BadooFixture.closedPort()) {
            // The same store, the registry unreachable: the refresh fails, the table stays.
            CanOpenStore unreachable = store(badoo, BadooFixture.urlOf(closed), BadooFixture.OLD, null);
            assertEquals(CanOpenStore.Source.DISK, unreachable.status().source);
            assertEquals(online.status().etag, unreachable.status().etag);
            RegistryException error = assertThrows(RegistryException.class, unreachable::refresh);
            assertTrue(error.isConnectionProblem(), error.toString());
            assertEquals(CanOpenStore.Source.DISK, unreachable.status().source);
            expectServerDecisions(badoo, unreachable, BadooFixture.OLD);

            // An upgraded app does not decide with the previous version's cached table.
            CanOpenStore upgraded = store(badoo, BadooFixture.urlOf(closed), BadooFixture.NEW, null);
            assertEquals(CanOpenStore.Source.NONE, upgraded.status().source);
            String link = "https://" + badoo.host + "/u/1?a=b";
            Decision none = upgraded.decide(link);
            assertEquals(Decision.REASON_NO_ROUTE, none.reason);
            assertEquals(link + "&ul_fallback=1", none.fallbackUrl);

            // A bundled table (the CanOpen.GetTable result, as `routereg canopen-table` writes it) for this version.
            JSONObject result = server.anonymous().call("CanOpen.GetTable",
                    Repo.json("app", badoo.app, "platform", "android", "version", BadooFixture.NEW.toString()));
            byte[] bundled = result.toString().getBytes(StandardCharsets.UTF_8);
            Path emptyCaches = caches.resolve("other");
            CanOpenStore fromBundle = CanOpenStore.builder(
                            new RouteRegistryClient(BadooFixture.urlOf(closed), null, 20_000), badoo.app, BadooFixture.NEW)
                    .cacheDirectory(emptyCaches.toFile()).bundledTable(new ByteArrayInputStream(bundled)).build();
            assertEquals(CanOpenStore.Source.BUNDLED, fromBundle.status().source);
            assertEquals(result.getString("etag"), fromBundle.status().etag);
            expectServerDecisions(badoo, fromBundle, BadooFixture.NEW);

            // Online again, the bundled table revalidates with its ETag: not modified, nothing downloaded.
            CanOpenStore revalidated = CanOpenStore.builder(server.anonymous(), badoo.app, BadooFixture.NEW)
                    .cacheDirectory(emptyCaches.toFile()).bundledTable(new ByteArrayInputStream(bundled)).build();
            assertEquals(CanOpenStore.RefreshOutcome.NOT_MODIFIED, revalidated.refresh());
            assertEquals(CanOpenStore.Source.BUNDLED, revalidated.status().source);
            assertTrue(revalidated.status().lastCheckedMillis > 0);
            // A bundled table of another version is ignored.
            CanOpenStore wrongBundle = CanOpenStore.builder(server.anonymous(), badoo.app, BadooFixture.OLD)
                    .cacheDirectory(emptyCaches.toFile()).bundledTable(new ByteArrayInputStream(bundled)).build();
            assertEquals(CanOpenStore.Source.NONE, wrongBundle.status().source);
        }
        File cacheFile = caches.resolve(CanOpenTableFile.cacheFileName(badoo.app, "android")).toFile();
        assertTrue(cacheFile.isFile(), "the fetched table is kept on disk");
    }

    @Test
    void refreshIfOlderThanAsksOnlyWhenTheTableIsOld(RegistryServer server) throws Exception {
        BadooFixture badoo = new BadooFixture(server);
        AtomicLong clock = new AtomicLong(1_000_000);
        CanOpenStore store = store(badoo, server.url, BadooFixture.OLD, clock);
        assertEquals(CanOpenStore.RefreshOutcome.UPDATED, store.refresh(1, TimeUnit.HOURS), "never checked: asks");
        assertEquals(CanOpenStore.RefreshOutcome.FRESH, store.refresh(1, TimeUnit.HOURS));
        clock.addAndGet(TimeUnit.MINUTES.toMillis(59));
        assertEquals(CanOpenStore.RefreshOutcome.FRESH, store.refresh(1, TimeUnit.HOURS));
        clock.addAndGet(TimeUnit.MINUTES.toMillis(2));
        assertEquals(CanOpenStore.RefreshOutcome.NOT_MODIFIED, store.refresh(1, TimeUnit.HOURS));
        // An FCM data message announcing a switch-off refreshes at once.
        badoo.switchOff("profile", BadooFixture.OLD);
        assertEquals(CanOpenStore.RefreshOutcome.UPDATED, store.refresh(0, TimeUnit.MILLISECONDS));
        assertEquals(Decision.REASON_SWITCHED_OFF, store.decide("https://" + badoo.host + "/u/1").reason);
        ExecutorService executor = Executors.newSingleThreadExecutor();
        try {
            assertEquals(CanOpenStore.RefreshOutcome.NOT_MODIFIED,
                    store.refreshAsync(0, TimeUnit.SECONDS, executor).get(10, TimeUnit.SECONDS));
        } finally {
            executor.shutdownNow();
        }
    }

    @Test
    void decidesConsistentlyWhileTheTableChanges(RegistryServer server) throws Exception {
        BadooFixture badoo = new BadooFixture(server);
        badoo.publish(BadooFixture.NEW);
        CanOpenStore store = store(badoo, server.url, BadooFixture.NEW, null);
        store.refresh();
        String link = "https://" + badoo.host + "/l/a/42";
        Decision open = store.decide(link);
        badoo.switchOff("lookalikes", BadooFixture.NEW);
        Set<Decision> seen = Collections.synchronizedSet(new HashSet<>());
        ExecutorService pool = Executors.newFixedThreadPool(8);
        CountDownLatch start = new CountDownLatch(1);
        try {
            Future<?>[] readers = new Future<?>[8];
            for (int i = 0; i < readers.length; i++) {
                readers[i] = pool.submit(() -> {
                    start.await();
                    for (int k = 0; k < 2000; k++) seen.add(store.decide(link));
                    return null;
                });
            }
            start.countDown();
            // Concurrent refreshes share one request; each sees the new table.
            Future<CanOpenStore.RefreshOutcome> a = pool.submit((java.util.concurrent.Callable<CanOpenStore.RefreshOutcome>) store::refresh);
            CanOpenStore.RefreshOutcome b = store.refresh();
            assertNotNull(a.get(10, TimeUnit.SECONDS));
            assertTrue(b == CanOpenStore.RefreshOutcome.UPDATED || b == CanOpenStore.RefreshOutcome.NOT_MODIFIED);
            for (Future<?> reader : readers) reader.get(30, TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }
        Decision switched = store.decide(link);
        assertEquals(Decision.REASON_SWITCHED_OFF, switched.reason);
        Set<Decision> allowed = new HashSet<>();
        allowed.add(open);
        allowed.add(switched);
        assertTrue(allowed.containsAll(seen), "only the old or the new table's answer: " + seen);
    }
}
