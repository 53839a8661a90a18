package com.routeregistry.client;

import java.io.IOException;
import java.net.MalformedURLException;
import java.net.SocketTimeoutException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
                    Collections.singletonList("host")),
            new Method("Links.Resolve", "public", Arrays.asList("url", "platform", "version"),
                    Arrays.asList("url", "platform", "version"))));

    private final String base;
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
        String trimmed = server;
        while (trimmed.endsWith("/")) trimmed = trimmed.substring(0, trimmed.length() - 1);
        if (trimmed.endsWith("/rpc")) trimmed = trimmed.substring(0, trimmed.length() - 4);
        base = trimmed;
        try {
            endpoint = new URL(base + "/rpc");
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

    /** The answer of {@code CanOpen.GetTable} or of the table GET. */
    public static final class TableAnswer {
        /** The ETag of the current table; null only when a proxy dropped it from a GET's answer. */
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

    /**
     * The same answer as {@link #getTable} by the cacheable {@code GET <server>/canopen/v1/{app}/{platform}/{version}.json}
     * (a CDN in front of the registry can answer it), revalidated with {@code If-None-Match}: a 304 is
     * {@code notModified}. A registry older than that endpoint (a 404 that is not JSON) is asked through
     * {@code CanOpen.GetTable} instead, so an unknown app is then that method's {@code NOT_FOUND}.
     */
    public TableAnswer getTableByGet(String app, String platform, Version version, String ifNoneMatch)
            throws RegistryException {
        URL url;
        try {
            url = new URL(base + "/canopen/v1/" + TextForms.percentEscaped(app) + "/" + TextForms.percentEscaped(platform) + "/" + version + ".json");
        } catch (MalformedURLException e) {
            throw new IllegalArgumentException("app or platform cannot be a URL path segment", e);
        }
        Map<String, String> headers = new HashMap<>();
        headers.put("Accept", "application/json");
        if (ifNoneMatch != null) headers.put("If-None-Match", ifNoneMatch);
        HttpExchange reply = HttpExchange.send("GET " + url.getPath(), url, headers, null, timeoutMillis);
        switch (reply.status) {
            case 304:
                String etag = reply.etag != null ? reply.etag : ifNoneMatch;
                if (etag == null) throw RegistryException.protocol("GET " + url.getPath() + ": 304 without an ETag");
                return new TableAnswer(etag, true, null);
            case 200:
                try {
                    // A proxy may drop the ETag: the table is still good, the next refresh just downloads it whole.
                    return new TableAnswer(reply.etag, false, CanOpenTable.fromJson(Json.parse(reply.text())));
                } catch (IllegalArgumentException e) {
                    throw RegistryException.protocol("GET " + url.getPath() + " returned a malformed table: " + e.getMessage());
                }
            case 404:
                if (!reply.contentType.startsWith("application/json")) return getTable(app, platform, version, ifNoneMatch);
                break;
            case 400:
                throw new RegistryException(RegistryException.Kind.RPC, 3, "INVALID_ARGUMENT",
                        "GET " + url.getPath() + ": " + reply.text().trim(), null, null);
            default:
                if (reply.status >= 500) {
                    throw RegistryException.transport("GET " + url.getPath() + ": HTTP " + reply.status, null);
                }
        }
        throw RegistryException.protocol("GET " + url.getPath() + ": HTTP " + reply.status);
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
     * {@code Links.Resolve}: a short URL ({@code https://go.badoo.com/summer}) for one app version, within
     * {@code timeoutMillis} (a short link is resolved while the user waits, so its deadline is shorter than a
     * refresh's). A code the registry does not know is an {@code RPC} error with status {@code NOT_FOUND}.
     */
    public ShortLinkResolution resolveLink(String url, String platform, Version version, int timeoutMillis)
            throws RegistryException {
        JSONObject params = new JSONObject();
        Json.put(params, "url", url);
        Json.put(params, "platform", platform);
        Json.put(params, "version", version.toString());
        JSONObject result = call("Links.Resolve", params, timeoutMillis);
        try {
            return ShortLinkResolution.fromJson(result);
        } catch (IllegalArgumentException e) {
            throw RegistryException.protocol("Links.Resolve returned a malformed resolution: " + e.getMessage());
        }
    }

    /**
     * Calls {@code method} with {@code params} and returns its result object.
     *
     * @throws RegistryException when the registry is unreachable or late, the reply is not JSON-RPC, or the
     *     server refused the call (with its code, status and details)
     */
    public JSONObject call(String method, JSONObject params) throws RegistryException {
        return call(method, params, timeoutMillis);
    }

    /** {@link #call(String, JSONObject)} with its own deadline instead of the client's. */
    public JSONObject call(String method, JSONObject params, int timeoutMillis) throws RegistryException {
        if (timeoutMillis <= 0) throw new IllegalArgumentException("timeoutMillis must be positive");
        long id = ids.incrementAndGet();
        JSONObject request = new JSONObject();
        Json.put(request, "jsonrpc", "2.0");
        Json.put(request, "id", id);
        Json.put(request, "method", method);
        Json.put(request, "params", params == null ? new JSONObject() : params);
        byte[] body = request.toString().getBytes(StandardCharsets.UTF_8);
        Map<String, String> headers = new HashMap<>();
        headers.put("Content-Type", "application/json");
        headers.put("Accept", "application/json");
        if (token != null) headers.put("Authorization", "Bearer " + token);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        HttpExchange reply;
        try {
            reply = HttpExchange.send(method, endpoint, headers, body, timeoutMillis);
        } catch (RegistryException e) {
            long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (left <= 50 || !mayRepeat(method, params, e)) throw e;
            reply = HttpExchange.send(method, endpoint, headers, body, (int) left);
        }
        JSONObject message;
        try {
            message = new JSONObject(reply.text());
        } catch (org.json.JSONException e) {
            String why = method + ": the reply (HTTP " + reply.status + ") is not JSON";
            // A proxy's 502/503 page: the registry was not reached; worth retrying later.
            if (reply.status >= 500) throw RegistryException.transport(why, e);
            throw RegistryException.protocol(why);
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

    /** The public reads: repeating one cannot change anything. */
    private static final Set<String> READS = new HashSet<>(Arrays.asList(
            "CanOpen.Check", "CanOpen.GetTable", "Links.Resolve", "Associations.Get", "Associations.Watch",
            "rpc.discover"));

    /**
     * Whether a call that got no answer at all may be sent once more, within what is left of its deadline: its
     * connection failed before any reply (a kept-alive connection a proxy's reload closed as the request went
     * out), not its deadline, and repeating it cannot apply anything twice: a read, or a write carrying its
     * idempotency {@code requestId}. Any answer, even an error, is final.
     */
    static boolean mayRepeat(String method, JSONObject params, RegistryException failure) {
        if (failure.kind != RegistryException.Kind.TRANSPORT) return false;
        if (!(failure.getCause() instanceof IOException) || failure.getCause() instanceof SocketTimeoutException) {
            return false;
        }
        return READS.contains(method) || (params != null && params.optString("requestId", "").length() > 0);
    }
}
