package com.routeregistry.client;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ExecutorService;
import java.util.function.Function;
import org.json.JSONObject;

/**
 * A scripted JSON-RPC endpoint on a loopback port (the JDK's HttpServer), for what a real registry cannot be made
 * to do on demand: answer late, answer garbage, or record exactly what the client sent.
 */
final class FakeRegistry implements AutoCloseable {
    /** Every request body received, parsed, in order. */
    final List<JSONObject> requests = new CopyOnWriteArrayList<>();
    /** Every request's headers of interest: {@code X-Request-Timeout-Ms}. */
    final List<String> timeouts = new CopyOnWriteArrayList<>();
    /** Every table GET received: its path and If-None-Match ("" when absent). */
    final List<String[]> gets = new CopyOnWriteArrayList<>();
    /** The table the GET endpoint serves (with {@link #tableEtag}); null: the endpoint does not exist (404). */
    volatile String tableBody;
    volatile String tableEtag;
    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool();

    /** A reply that closes the connection without a byte of answer, as a proxy closing a kept-alive connection. */
    static final String CLOSE = "\u0000close";

    /**
     * {@code reply} maps a request to the raw reply body; null means never answer (until closed), {@link #CLOSE}
     * close the connection unanswered.
     */
    FakeRegistry(Function<JSONObject, String> reply) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/rpc", exchange -> {
            try (InputStream in = exchange.getRequestBody()) {
                JSONObject request = Repo.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
                requests.add(request);
                timeouts.add(exchange.getRequestHeaders().getFirst("X-Request-Timeout-Ms"));
                String body = reply.apply(request);
                if (body == null) {
                    Thread.sleep(30_000);
                    return;
                }
                if (CLOSE.equals(body)) return; // closed unanswered by the exchange's close below
                byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().add("Content-Type", "application/json");
                exchange.sendResponseHeaders(200, bytes.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(bytes);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                exchange.close();
            }
        });
        server.createContext("/canopen/v1/", exchange -> {
            try {
                String ifNoneMatch = exchange.getRequestHeaders().getFirst("If-None-Match");
                gets.add(new String[] {exchange.getRequestURI().getRawPath(), ifNoneMatch == null ? "" : ifNoneMatch});
                String body = tableBody;
                String etag = tableEtag;
                if (body == null) {
                    exchange.getResponseHeaders().add("Content-Type", "text/plain");
                    exchange.sendResponseHeaders(404, -1);
                } else if (etag != null && etag.equals(ifNoneMatch)) {
                    exchange.getResponseHeaders().add("ETag", etag);
                    exchange.sendResponseHeaders(304, -1);
                } else {
                    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
                    exchange.getResponseHeaders().add("Content-Type", "application/json");
                    if (etag != null) exchange.getResponseHeaders().add("ETag", etag);
                    exchange.sendResponseHeaders(200, bytes.length);
                    try (OutputStream out = exchange.getResponseBody()) {
                        out.write(bytes);
                    }
                }
            } finally {
                exchange.close();
            }
        });
        server.setExecutor(executor);
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** A JSON-RPC success reply to {@code request}. */
    static String result(JSONObject request, String result) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + request.opt("id") + ",\"result\":" + result + "}";
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
