package com.routeregistry.client;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.json.JSONObject;

/**
 * The registry's JSON-RPC API over {@link HttpURLConnection}: the public methods an app needs
 * ({@code CanOpen.GetTable}, {@code CanOpen.Check}, {@code Associations.Get}) typed, and {@link #call} for the
 * rest. Every call has a deadline: connecting, sending and reading together take at most {@code timeoutMillis},
 * after which the connection is torn down and a {@link RegistryException.Kind#TRANSPORT} error is thrown. The
 * server is told the same deadline ({@code X-Request-Timeout-Ms}) so it abandons work nobody waits for.
 *
 * <p>Blocking: never call it on Android's main thread (the store's {@code refreshAsync} runs it on an executor).
 * Thread-safe; holds no connection between calls.
 */
public final class RouteRegistryClient {
    /** One method this client calls itself: its name, access level and params, as in the OpenRPC document. */
    public static final class Method {
        public final String name;
        public final String access;
        /** Every param the client may send. */
        public final List<String> params;
        /** The params it always sends. */
        public final List<String> required;

        Method(String name, String access, List<String> params, List<String> required) {
            this.name = name;
            this.access = access;
            this.params = Collections.unmodifiableList(params);
            this.required = Collections.unmodifiableList(required);
        }
    }

    /** The methods the typed helpers call; a test holds this list to {@code Schema/registry.openrpc.json}. */
    public static final List<Method> METHODS = Collections.unmodifiableList(Arrays.asList(
            new Method("CanOpen.GetTable", "public", Arrays.asList("app", "platform", "version", "ifNoneMatch"),
                    Arrays.asList("app", "platform", "version")),
            new Method("CanOpen.Check", "public", Arrays.asList("app", "platform", "version", "url"),
                    Arrays.asList("app", "platform", "version", "url")),
            new Method("Associations.Get", "public", Arrays.asList("host", "kind", "revision"),
                    Collections.singletonList("host"))));

    /** Tears down connections whose deadline passed; one daemon thread for every client in the process. */
    private static final ScheduledThreadPoolExecutor WATCHDOG = watchdog();

    private static ScheduledThreadPoolExecutor watchdog() {
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, runnable -> {
            Thread thread = new Thread(runnable, "routeregistry-deadline");
            thread.setDaemon(true);
            return thread;
        });
        executor.setRemoveOnCancelPolicy(true);
        return executor;
    }

    private final URL endpoint;
    private final String token;
    private final int timeoutMillis;
    private final AtomicLong ids = new AtomicLong();

    /**
     * @param server the registry's base URL ({@code https://registry.example.com}); {@code /rpc} is added
     * @param token a bearer token, or null for the public methods
     * @param timeoutMillis the deadline of each call, connecting included
     */
    public RouteRegistryClient(String server, String token, int timeoutMillis) {
        if (timeoutMillis <= 0) throw new IllegalArgumentException("timeoutMillis must be positive");
        String base = server.endsWith("/") ? server.substring(0, server.length() - 1) : server;
        try {
            endpoint = new URL(base.endsWith("/rpc") ? base : base + "/rpc");
        } catch (MalformedURLException e) {
            throw new IllegalArgumentException("server is not a URL: " + server, e);
        }
        this.token = token;
        this.timeoutMillis = timeoutMillis;
    }

    /** The deadline of each call, in milliseconds. */
    public int timeoutMillis() {
        return timeoutMillis;
    }

    /** A client for the public methods, with a 10 s deadline per call. */
    public RouteRegistryClient(String server) {
        this(server, null, 10_000);
    }

    /** The answer of {@code CanOpen.GetTable}. */
    public static final class TableAnswer {
        /** The ETag of the current table (the one sent back when it is not modified). */
        public final String etag;
        /** True when {@code ifNoneMatch} named the current table: no table is sent. */
        public final boolean notModified;
        /** The table, unless not modified. */
        public final CanOpenTable table;

        TableAnswer(String etag, boolean notModified, CanOpenTable table) {
            this.etag = etag;
            this.notModified = notModified;
            this.table = table;
        }
    }

    /** The params naming one app version, which both canOpen methods take. */
    private static JSONObject appVersion(String app, String platform, Version version) {
        JSONObject params = new JSONObject();
        Json.put(params, "app", app);
        Json.put(params, "platform", platform);
        Json.put(params, "version", version.toString());
        return params;
    }

    /** {@code CanOpen.GetTable}: one app version's canOpen table, or {@code notModified} for {@code ifNoneMatch}. */
    public TableAnswer getTable(String app, String platform, Version version, String ifNoneMatch) throws RegistryException {
        JSONObject params = appVersion(app, platform, version);
        Json.put(params, "ifNoneMatch", ifNoneMatch);
        JSONObject result = call("CanOpen.GetTable", params);
        try {
            JSONObject table = result.optJSONObject("table");
            return new TableAnswer(Json.requiredString(result, "etag"), result.optBoolean("notModified", false),
                    table == null ? null : CanOpenTable.fromJson(table));
        } catch (IllegalArgumentException e) {
            throw RegistryException.protocol("CanOpen.GetTable returned a malformed table: " + e.getMessage());
        }
    }

    /** {@code CanOpen.Check}: the server's decision for one URL (apps decide locally with {@link CanOpenStore}). */
    public Decision check(String app, String platform, Version version, String url) throws RegistryException {
        JSONObject params = appVersion(app, platform, version);
        Json.put(params, "url", url);
        JSONObject result = call("CanOpen.Check", params);
        try {
            return Decision.fromJson(result);
        } catch (IllegalArgumentException e) {
            throw RegistryException.protocol("CanOpen.Check returned a malformed decision: " + e.getMessage());
        }
    }

    /** {@code Associations.Get}: a generated file ({@code kind} "aasa" or "assetlinks"; null for the AASA). */
    public JSONObject association(String host, String kind, Integer revision) throws RegistryException {
        JSONObject params = new JSONObject();
        Json.put(params, "host", host);
        Json.put(params, "kind", kind);
        Json.put(params, "revision", revision);
        return call("Associations.Get", params);
    }

    /**
     * Calls {@code method} with {@code params} and returns its result object.
     *
     * @throws RegistryException when the registry is unreachable or late, the reply is not JSON-RPC, or the
     *     server refused the call (with its code, status and details)
     */
    public JSONObject call(String method, JSONObject params) throws RegistryException {
        long id = ids.incrementAndGet();
        JSONObject request = new JSONObject();
        Json.put(request, "jsonrpc", "2.0");
        Json.put(request, "id", id);
        Json.put(request, "method", method);
        Json.put(request, "params", params == null ? new JSONObject() : params);
        byte[] body = request.toString().getBytes(StandardCharsets.UTF_8);
        String reply = post(method, body);
        JSONObject message;
        try {
            message = new JSONObject(reply);
        } catch (org.json.JSONException e) {
            throw RegistryException.protocol(method + ": the reply is not JSON");
        }
        if (!"2.0".equals(message.optString("jsonrpc")) || message.optLong("id", -1) != id) {
            throw RegistryException.protocol(method + ": the reply is not a JSON-RPC 2.0 answer to this call");
        }
        JSONObject error = message.optJSONObject("error");
        if (error != null) {
            JSONObject data = error.optJSONObject("data");
            String status = data == null ? null : Json.string(data, "status");
            String text = Json.string(error, "message");
            throw new RegistryException(RegistryException.Kind.RPC, error.optInt("code"), status,
                    method + ": " + (text == null ? "error " + error.optInt("code") : text), data, null);
        }
        JSONObject result = message.optJSONObject("result");
        if (result == null) throw RegistryException.protocol(method + ": the reply has no result object");
        return result;
    }

    private String post(String method, byte[] body) throws RegistryException {
        HttpURLConnection connection;
        try {
            connection = (HttpURLConnection) endpoint.openConnection();
        } catch (IOException e) {
            throw RegistryException.transport(method + ": cannot open a connection to " + endpoint, e);
        }
        // The whole exchange, not each socket read, is bounded: past the deadline the watchdog disconnects, which
        // makes whatever blocks throw.
        ScheduledFuture<?> deadline = WATCHDOG.schedule(connection::disconnect, timeoutMillis, TimeUnit.MILLISECONDS);
        long start = System.nanoTime();
        try {
            connection.setConnectTimeout(timeoutMillis);
            connection.setReadTimeout(timeoutMillis);
            connection.setUseCaches(false);
            connection.setDoOutput(true);
            connection.setRequestMethod("POST");
            connection.setFixedLengthStreamingMode(body.length);
            connection.setRequestProperty("Content-Type", "application/json");
            connection.setRequestProperty("Accept", "application/json");
            connection.setRequestProperty("X-Request-Timeout-Ms", Integer.toString(timeoutMillis));
            if (token != null) connection.setRequestProperty("Authorization", "Bearer " + token);
            try (OutputStream out = connection.getOutputStream()) {
                out.write(body);
            }
            int status = connection.getResponseCode();
            InputStream in = status >= 400 ? connection.getErrorStream() : connection.getInputStream();
            if (in == null) throw RegistryException.protocol(method + ": HTTP " + status + " without a body");
            try (InputStream stream = in) {
                ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                byte[] buffer = new byte[8192];
                for (int n; (n = stream.read(buffer)) >= 0; ) bytes.write(buffer, 0, n);
                return new String(bytes.toByteArray(), StandardCharsets.UTF_8);
            }
        } catch (RegistryException e) {
            throw e;
        } catch (IOException e) {
            long elapsed = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            String why = elapsed >= timeoutMillis ? "no answer within " + timeoutMillis + " ms" : e.toString();
            throw RegistryException.transport(method + ": " + why, e);
        } finally {
            deadline.cancel(false);
            connection.disconnect();
        }
    }
}
