package com.routeregistry.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.json.JSONObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The store's behaviour a real registry cannot be made to show on demand: slow, wrong or damaged answers. */
class CanOpenStoreTest {
    @TempDir
    Path caches;

    private static String table(String version) {
        return "{\"app\":\"badoo\",\"platform\":\"android\",\"version\":\"" + version + "\",\"fallback\":{\"queryItem\":\"ul_fallback\","
                + "\"value\":\"1\"},\"rules\":[{\"route\":\"profile\",\"path\":\"/u/*\",\"action\":\"open\",\"verdict\":\"open\","
                + "\"caseSensitive\":true,\"percentEncoded\":true}],\"domains\":[{\"name\":\"m.badoo.com\",\"rules\":[0]}],\"schemes\":[]}";
    }

    private static String answer(JSONObject request, String version) {
        return FakeRegistry.result(request, "{\"etag\":\"\\\"t" + version + "\\\"\",\"notModified\":false,\"table\":" + table(version) + "}");
    }

    private CanOpenStore store(FakeRegistry fake, String version) {
        return CanOpenStore.builder(new RouteRegistryClient(fake.url(), null, 5_000), "badoo", Version.parse(version))
                .cacheDirectory(caches.toFile()).build();
    }

    @Test
    void concurrentRefreshesShareOneRequest() throws Exception {
        try (FakeRegistry slow = new FakeRegistry(request -> {
            try {
                Thread.sleep(400);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return answer(request, "5110");
        })) {
            CanOpenStore store = store(slow, "5110");
            ExecutorService pool = Executors.newFixedThreadPool(4);
            try {
                Callable<CanOpenStore.RefreshOutcome> refresh = store::refresh;
                Future<?>[] outcomes = new Future<?>[4];
                for (int i = 0; i < outcomes.length; i++) outcomes[i] = pool.submit(refresh);
                for (Future<?> outcome : outcomes) assertEquals(CanOpenStore.RefreshOutcome.UPDATED, outcome.get(10, TimeUnit.SECONDS));
            } finally {
                pool.shutdownNow();
            }
            assertEquals(1, slow.requests.size(), "one GetTable for four concurrent refreshes");
            assertEquals("route", store.decide("https://m.badoo.com/u/1").reason);
        }
    }

    @Test
    void aTableOfAnotherVersionIsRefusedAndTheTableInUseStays() throws Exception {
        try (FakeRegistry good = new FakeRegistry(request -> answer(request, "5110"));
                FakeRegistry wrong = new FakeRegistry(request -> answer(request, "5120"))) {
            store(good, "5110").refresh();
            CanOpenStore store = store(wrong, "5110");
            assertEquals(CanOpenStore.Source.DISK, store.status().source);
            RegistryException error = assertThrows(RegistryException.class, store::refresh);
            assertEquals(RegistryException.Kind.PROTOCOL, error.kind);
            assertEquals(CanOpenStore.Source.DISK, store.status().source);
            assertEquals("\"t5110\"", store.status().etag);
            assertEquals("route", store.decide("https://m.badoo.com/u/1").reason);
        }
    }

    @Test
    void aDamagedCacheFileIsIgnoredAndReplacedAtomically() throws Exception {
        File cache = caches.resolve(CanOpenTableFile.cacheFileName("badoo", "android")).toFile();
        Files.write(cache.toPath(), "{\"etag\":\"x\",\"table\":{\"app\":".getBytes(StandardCharsets.UTF_8));
        try (FakeRegistry fake = new FakeRegistry(request -> answer(request, "5110"))) {
            CanOpenStore store = store(fake, "5110");
            assertEquals(CanOpenStore.Source.NONE, store.status().source);
            assertEquals(CanOpenStore.RefreshOutcome.UPDATED, store.refresh());
            assertTrue(fake.requests.get(0).getJSONObject("params").isNull("ifNoneMatch") || !fake.requests.get(0).getJSONObject("params").has("ifNoneMatch"),
                    "no ETag is sent without a table");
            String[] left = caches.toFile().list();
            assertEquals(1, left.length, "only the cache file, no temporary file: " + String.join(", ", left));
            assertEquals(CanOpenStore.Source.DISK, store(fake, "5110.0").status().source);
        }
    }

    @Test
    void revalidatesByTheCacheableGetWithIfNoneMatch() throws Exception {
        try (FakeRegistry fake = new FakeRegistry(request -> answer(request, "5110"))) {
            fake.tableBody = table("5110");
            fake.tableEtag = "\"g1\"";
            CanOpenStore store = store(fake, "5110");
            assertEquals(CanOpenStore.RefreshOutcome.UPDATED, store.refresh());
            assertEquals("\"g1\"", store.status().etag);
            assertEquals(CanOpenStore.RefreshOutcome.NOT_MODIFIED, store.refresh());
            fake.tableBody = table("5110").replace("/u/*", "/user/*");
            fake.tableEtag = "\"g2\"";
            assertEquals(CanOpenStore.RefreshOutcome.UPDATED, store.refresh());
            assertEquals("route", store.decide("https://m.badoo.com/user/1").reason);
            assertEquals("no_route", store.decide("https://m.badoo.com/u/1").reason);
            assertEquals(3, fake.gets.size());
            assertEquals("/canopen/v1/badoo/android/5110.json", fake.gets.get(0)[0]);
            assertEquals("", fake.gets.get(0)[1], "nothing to revalidate at first");
            assertEquals("\"g1\"", fake.gets.get(1)[1]);
            assertEquals("\"g1\"", fake.gets.get(2)[1]);
            assertTrue(fake.requests.isEmpty(), "no JSON-RPC call while the GET answers");
        }
    }

    @Test
    void aRegistryWithoutTheGetIsAskedByJsonRpc() throws Exception {
        try (FakeRegistry fake = new FakeRegistry(request -> answer(request, "5110"))) {
            CanOpenStore store = store(fake, "5110");
            assertEquals(CanOpenStore.RefreshOutcome.UPDATED, store.refresh());
            assertEquals(1, fake.gets.size());
            assertEquals("CanOpen.GetTable", fake.requests.get(0).getString("method"));
            assertEquals("\"t5110\"", store.status().etag);
        }
    }

    @Test
    void anAppIdIsMadeSafeForAFileName() {
        assertEquals("canopen-a_b_.._c-android.json", CanOpenTableFile.cacheFileName("a/b/../c", "android"));
    }
}
