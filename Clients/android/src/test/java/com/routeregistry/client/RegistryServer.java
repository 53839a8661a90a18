package com.routeregistry.client;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.stream.Stream;
import org.json.JSONObject;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * The real registry for the tests that need one: {@code $ROUTEREG_BIN serve --listen 127.0.0.1:0} on a fresh
 * temporary data directory (its embedded PostgreSQL; {@code DATABASE_URL} is passed through when set), started
 * once per run and stopped when the run ends, whatever its outcome (JUnit closes it as a resource of the root
 * context; a shutdown hook covers a JVM that is told to exit).
 *
 * <p>Tests get it as a parameter through {@link Extension} and isolate themselves with their own app IDs.
 */
final class RegistryServer implements ExtensionContext.Store.CloseableResource {
    private static final long STARTUP_SECONDS = 120;

    final String url;
    final String adminToken;
    private final Process process;
    private final Path dataDir;
    private final StringBuffer log;
    private final Thread hook;

    private RegistryServer(String url, String adminToken, Process process, Path dataDir, StringBuffer log) {
        this.url = url;
        this.adminToken = adminToken;
        this.process = process;
        this.dataDir = dataDir;
        this.log = log;
        this.hook = new Thread(this::stop, "routereg-stop");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /** Resolves a {@code RegistryServer} parameter with the run's one server. */
    static final class Extension implements ParameterResolver {
        private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(RegistryServer.class);

        @Override
        public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
            return parameter.getParameter().getType() == RegistryServer.class;
        }

        /** A failed start, so the other tests fail at once with its reason instead of waiting to start again. */
        private static volatile IllegalStateException failure;

        @Override
        public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
            if (failure != null) throw new IllegalStateException("routereg failed to start earlier in this run", failure);
            try {
                return context.getRoot().getStore(NAMESPACE)
                        .getOrComputeIfAbsent("server", key -> start(), RegistryServer.class);
            } catch (IllegalStateException e) {
                failure = e;
                throw e;
            }
        }
    }

    static RegistryServer start() {
        String binary = System.getenv("ROUTEREG_BIN");
        if (binary == null || binary.isEmpty()) {
            throw new IllegalStateException("ROUTEREG_BIN must name the routereg executable (make test sets it)");
        }
        String token = "android-admin-" + UUID.randomUUID();
        Path dataDir = null;
        Process process = null;
        StringBuffer log = new StringBuffer();
        try {
            ProcessBuilder builder = new ProcessBuilder(binary, "serve", "--listen", "127.0.0.1:0", "--no-delivery-watch");
            if (System.getenv("DATABASE_URL") == null) {
                dataDir = Files.createTempDirectory("routereg-android-");
                // As root the embedded cluster runs as `postgres`, which must reach the directory (created 0700).
                Files.setPosixFilePermissions(dataDir, PosixFilePermissions.fromString("rwx--x--x"));
                builder.command().add("--data-dir");
                builder.command().add(dataDir.toString());
            }
            builder.environment().put("ROUTEREG_ADMIN_TOKEN", token);
            builder.redirectErrorStream(true).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            process = builder.start();
            CompletableFuture<String> listening = new CompletableFuture<>();
            Process started = process;
            Thread drain = new Thread(() -> drain(started, log, listening), "routereg-output");
            drain.setDaemon(true);
            drain.start();
            String url = listening.get(STARTUP_SECONDS, TimeUnit.SECONDS);
            return new RegistryServer(url, token, process, dataDir, log);
        } catch (Exception e) {
            if (process != null) stop(process);
            deleteTree(dataDir);
            throw new IllegalStateException("routereg serve did not start: " + e + "\n" + log, e);
        }
    }

    /** Keeps the pipe flowing for the server's whole life and reports where it listens. */
    private static void drain(Process process, StringBuffer log, CompletableFuture<String> listening) {
        java.util.regex.Pattern pattern = java.util.regex.Pattern.compile("listening on (https?://[^\\s/]+)");
        try (BufferedReader reader = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = reader.readLine()) != null; ) {
                log.append(line).append('\n');
                Matcher found = pattern.matcher(line);
                if (found.find()) listening.complete(found.group(1));
            }
        } catch (IOException e) {
            log.append("(output: ").append(e).append(")\n");
        }
        listening.completeExceptionally(new IllegalStateException("routereg exited before listening"));
    }

    /**
     * A client for the public methods. Deadlines here are generous: a shared build machine at a load average of 70
     * made writes take over 30 s; they bound a hang, they do not measure speed.
     */
    RouteRegistryClient anonymous() {
        return new RouteRegistryClient(url, null, 30_000);
    }

    /** A client holding the admin token. */
    RouteRegistryClient admin() {
        return new RouteRegistryClient(url, adminToken, 60_000);
    }

    /** Calls an admin method, failing the test with the server's message when refused. */
    JSONObject adminCall(String method, JSONObject params) {
        try {
            return admin().call(method, params);
        } catch (RegistryException e) {
            throw new AssertionError(method + " " + params + " failed: " + e.getMessage() + " " + e.data, e);
        }
    }

    /** The server's output so far, for failure messages. */
    String log() {
        return log.toString();
    }

    @Override
    public void close() {
        stop();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // The hook is running or about to: it stops the same process.
        }
    }

    private synchronized void stop() {
        stop(process);
        deleteTree(dataDir);
    }

    /** SIGTERM (the server stops its cluster), then SIGKILL after 20 s. */
    private static void stop(Process process) {
        if (!process.isAlive()) return;
        process.destroy();
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private static void deleteTree(Path root) {
        if (root == null || !Files.exists(root)) return;
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            // Best effort: a temporary directory left behind is not a test failure.
        }
    }
}
