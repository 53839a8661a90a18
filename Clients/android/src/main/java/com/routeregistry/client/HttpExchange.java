package com.routeregistry.client;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * One HTTP request and its whole answer over {@link HttpURLConnection}, bounded by one deadline: connecting,
 * sending and reading together take at most {@code timeoutMillis}. Socket timeouts alone bound each read, not the
 * exchange (a server trickling bytes would hold it forever), so a watchdog disconnects the connection at the
 * deadline, which makes whatever blocks throw.
 */
final class HttpExchange {
    /** The status, the headers the client reads, and the body (empty for a 304). */
    final int status;
    final String etag;
    final String contentType;
    final byte[] body;

    private HttpExchange(int status, String etag, String contentType, byte[] body) {
        this.status = status;
        this.etag = etag;
        this.contentType = contentType == null ? "" : contentType;
        this.body = body;
    }

    String text() {
        return new String(body, StandardCharsets.UTF_8);
    }

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

    /**
     * Sends {@code body} (null: a GET) to {@code url} with {@code headers}.
     *
     * @param what names the call in error messages
     * @throws RegistryException of kind TRANSPORT when the server is unreachable or late
     */
    static HttpExchange send(String what, URL url, Map<String, String> headers, byte[] body, int timeoutMillis)
            throws RegistryException {
        HttpURLConnection connection;
        try {
            connection = (HttpURLConnection) url.openConnection();
        } catch (IOException e) {
            throw RegistryException.transport(what + ": cannot open a connection to " + url, e);
        }
        ScheduledFuture<?> deadline = WATCHDOG.schedule(connection::disconnect, timeoutMillis, TimeUnit.MILLISECONDS);
        long start = System.nanoTime();
        try {
            connection.setConnectTimeout(timeoutMillis);
            connection.setReadTimeout(timeoutMillis);
            // Revalidation is the caller's (If-None-Match with the ETag it holds): no HTTP cache may answer.
            connection.setUseCaches(false);
            connection.setRequestProperty("X-Request-Timeout-Ms", Integer.toString(timeoutMillis));
            for (Map.Entry<String, String> header : headers.entrySet()) {
                connection.setRequestProperty(header.getKey(), header.getValue());
            }
            if (body != null) {
                connection.setDoOutput(true);
                connection.setRequestMethod("POST");
                connection.setFixedLengthStreamingMode(body.length);
                try (OutputStream out = connection.getOutputStream()) {
                    out.write(body);
                }
            }
            int status = connection.getResponseCode();
            InputStream in = status >= 400 ? connection.getErrorStream() : connection.getInputStream();
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            if (in != null) {
                try (InputStream stream = in) {
                    byte[] buffer = new byte[8192];
                    for (int n; (n = stream.read(buffer)) >= 0; ) bytes.write(buffer, 0, n);
                }
            }
            return new HttpExchange(status, connection.getHeaderField("ETag"), connection.getContentType(),
                    bytes.toByteArray());
        } catch (IOException e) {
            long elapsed = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            String why = elapsed >= timeoutMillis ? "no answer within " + timeoutMillis + " ms" : e.toString();
            throw RegistryException.transport(what + ": " + why, e);
        } finally {
            deadline.cancel(false);
            connection.disconnect();
        }
    }
}
