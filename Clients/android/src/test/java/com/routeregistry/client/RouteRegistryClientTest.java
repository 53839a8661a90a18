package com.routeregistry.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.Socket;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The transport: deadlines, refusals and malformed replies become the right {@link RegistryException}. */
class RouteRegistryClientTest {
    @Test
    void aServerThatNeverAnswersCostsTheDeadlineAndNoMore() throws Exception {
        try (FakeRegistry silent = new FakeRegistry(request -> null)) {
            RouteRegistryClient client = new RouteRegistryClient(silent.url(), null, 300);
            long start = System.nanoTime();
            RegistryException error = assertThrows(RegistryException.class,
                    () -> client.check("badoo", "android", Version.ofVersionCode(1), "https://m.badoo.com/"));
            long elapsedMillis = (System.nanoTime() - start) / 1_000_000;
            assertEquals(RegistryException.Kind.TRANSPORT, error.kind);
            assertTrue(error.isConnectionProblem());
            assertTrue(elapsedMillis >= 250 && elapsedMillis < 5_000, "gave up after " + elapsedMillis + " ms");
        }
    }

    @Test
    void aStoreRefreshWithASilentServerFailsInTimeAndKeepsDeciding() throws Exception {
        try (FakeRegistry silent = new FakeRegistry(request -> null)) {
            CanOpenStore store = CanOpenStore.builder(new RouteRegistryClient(silent.url(), null, 300), "badoo",
                    Version.ofVersionCode(5)).build();
            long start = System.nanoTime();
            assertThrows(RegistryException.class, store::refresh);
            assertTrue((System.nanoTime() - start) / 1_000_000 < 5_000);
            assertEquals(Decision.REASON_NO_ROUTE, store.decide("https://m.badoo.com/u/1").reason);
            assertEquals("https://m.badoo.com/u/1?ul_fallback=1", store.decide("https://m.badoo.com/u/1").fallbackUrl);
        }
    }

    @Test
    void aRefusedConnectionIsATransportError() throws Exception {
        try (Socket closed = BadooFixture.closedPort()) {
            RouteRegistryClient client = new RouteRegistryClient(BadooFixture.urlOf(closed));
            RegistryException error = assertThrows(RegistryException.class,
                    () -> client.getTable("badoo", "android", Version.ofVersionCode(1), null));
            assertEquals(RegistryException.Kind.TRANSPORT, error.kind);
        }
    }

    @Test
    void serverErrorsCarryTheirCodeStatusAndDetails() throws Exception {
        String refusal = "{\"code\":-32602,\"message\":\"Invalid params: version: bad\",\"data\":{\"status\":\"INVALID_ARGUMENT\","
                + "\"details\":[{\"field\":\"version\",\"description\":\"bad\"}]}}";
        try (FakeRegistry fake = new FakeRegistry(request ->
                "{\"jsonrpc\":\"2.0\",\"id\":" + request.opt("id") + ",\"error\":" + refusal + "}")) {
            RegistryException error = assertThrows(RegistryException.class,
                    () -> new RouteRegistryClient(fake.url()).getTable("badoo", "android", Version.ofVersionCode(1), null));
            assertEquals(RegistryException.Kind.RPC, error.kind);
            assertEquals(-32602, error.code);
            assertEquals("INVALID_ARGUMENT", error.status);
            assertEquals("version", error.data.getJSONArray("details").getJSONObject(0).getString("field"));
            assertTrue(!error.isConnectionProblem());
        }
    }

    @Test
    void malformedRepliesAreProtocolErrors() throws Exception {
        String[] replies = {"not json", "{\"jsonrpc\":\"2.0\",\"id\":999,\"result\":{}}", "{\"jsonrpc\":\"2.0\",\"id\":1}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"etag\":\"e\",\"notModified\":false,\"table\":{\"app\":3}}}"};
        for (String reply : replies) {
            try (FakeRegistry fake = new FakeRegistry(request -> reply)) {
                RegistryException error = assertThrows(RegistryException.class,
                        () -> new RouteRegistryClient(fake.url()).getTable("badoo", "android", Version.ofVersionCode(1), null));
                assertEquals(RegistryException.Kind.PROTOCOL, error.kind, reply);
            }
        }
    }

    /** A registry whose first connection closes unanswered; every later call is answered {@code {"ok":true}}. */
    private static FakeRegistry closingOnce() throws Exception {
        AtomicInteger seen = new AtomicInteger();
        return new FakeRegistry(request -> seen.incrementAndGet() == 1 ? FakeRegistry.CLOSE
                : FakeRegistry.result(request, "{\"ok\":true}"));
    }

    @Test
    void aReadOrAKeyedWriteIsSentAgainWhenItsConnectionClosesUnanswered() throws Exception {
        String[][] calls = {
            {"CanOpen.Check", "{\"app\":\"badoo\",\"platform\":\"android\",\"version\":\"1\","
                    + "\"url\":\"https://m.badoo.com/\"}"},
            {"Routes.Create", "{\"app\":\"badoo\",\"requestId\":\"r-1\",\"route\":{\"id\":\"x\"}}"},
        };
        for (String[] call : calls) {
            try (FakeRegistry registry = closingOnce()) {
                RouteRegistryClient client = new RouteRegistryClient(registry.url(), null, 5_000);
                assertTrue(client.call(call[0], Repo.parse(call[1])).optBoolean("ok"), call[0]);
                assertEquals(2, registry.requests.size(), call[0]);
            }
        }
    }

    @Test
    void aWriteWithoutAKeyIsNotSentAgain() throws Exception {
        try (FakeRegistry registry = closingOnce()) {
            RouteRegistryClient client = new RouteRegistryClient(registry.url(), null, 5_000);
            RegistryException error = assertThrows(RegistryException.class,
                    () -> client.call("Routes.Create", Repo.parse("{\"app\":\"badoo\",\"route\":{\"id\":\"x\"}}")));
            assertEquals(RegistryException.Kind.TRANSPORT, error.kind);
            assertEquals(1, registry.requests.size());
        }
    }
}
