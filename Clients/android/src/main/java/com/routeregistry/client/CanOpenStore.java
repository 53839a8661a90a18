package com.routeregistry.client;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;

/**
 * The app's canOpen table, kept current and answering locally: what an Android app uses, in the Activity that
 * receives an App Link, to decide whether <em>this</em> version can handle the link or must send it to the
 * browser.
 *
 * <ul>
 *   <li>{@link #decide} is local, lock-free and thread-safe: no network, ever (safe on the main thread).
 *   <li>The table comes from, in order of preference: the last table fetched from the registry (memory, then the
 *       cache file on disk), or the table bundled into the app (a raw resource or asset). A cached or bundled table
 *       is used only if it was made for exactly this app, platform and version, so an upgraded app never decides
 *       with its previous version's table.
 *   <li>{@link #refresh()} revalidates with {@code ifNoneMatch} (cheap when nothing changed);
 *       {@link #refresh(long, TimeUnit)} only when the table is older than a limit: call it at app start, when the
 *       app returns to the foreground, and on an FCM data message announcing a switch-off (with a zero limit).
 *       Both block up to the client's deadline: call them off the main thread, or use {@link #refreshAsync}.
 * </ul>
 *
 * <p>With no table at all (nothing bundled, never fetched), {@code decide} answers {@code open_in_browser} with
 * reason {@code no_route} and a marked fallback URL: the website can show every link, while an app version that
 * may not know the route could only show a dead end. Bundle a table so this never happens.
 */
public final class CanOpenStore {
    /** Where the table in use came from. */
    public enum Source { NONE, BUNDLED, DISK, SERVER }

    /** What a refresh did. */
    public enum RefreshOutcome {
        /** The registry sent a new table; it is in use and saved. */
        UPDATED,
        /** The table in use is current. */
        NOT_MODIFIED,
        /** The table was confirmed recently enough; the registry was not asked. */
        FRESH
    }

    /** A snapshot of the store's state, for diagnostics and tests. */
    public static final class Status {
        public final Source source;
        /** The ETag of the table in use, if known. */
        public final String etag;
        /** When the registry last confirmed or replaced the table (milliseconds since the epoch); -1 for never. */
        public final long lastCheckedMillis;

        Status(Source source, String etag, long lastCheckedMillis) {
            this.source = source;
            this.etag = etag;
            this.lastCheckedMillis = lastCheckedMillis;
        }
    }

    /** Immutable, swapped whole: a reader sees one table and its ETag, never a mix. */
    private static final class State {
        final CanOpenTable table;
        final String etag;
        final Source source;
        final long lastChecked;

        State(CanOpenTable table, String etag, Source source, long lastChecked) {
            this.table = table;
            this.etag = etag;
            this.source = source;
            this.lastChecked = lastChecked;
        }
    }

    /** The app ID in the registry. */
    public final String app;
    /** The platform tables are fetched for ({@code android}). */
    public final String platform;
    /** The running app's version ({@code versionCode} or {@code versionName}, as its releases are published). */
    public final Version version;

    private final RouteRegistryClient client;
    private final File cacheFile;
    private final FallbackPolicy defaultFallback;
    private final LongSupplier clock;
    private final int shortLinkTimeoutMillis;
    private final ShortLinkCache shortLinks;
    private final AtomicReference<State> state;
    private final AtomicReference<CompletableFuture<RefreshOutcome>> inFlight = new AtomicReference<>();

    private CanOpenStore(Builder builder) {
        client = builder.client;
        app = builder.app;
        platform = builder.platform;
        version = builder.version;
        defaultFallback = builder.defaultFallback;
        clock = builder.clock;
        cacheFile = builder.cacheDirectory == null ? null
                : new File(builder.cacheDirectory, CanOpenTableFile.cacheFileName(app, platform));
        shortLinkTimeoutMillis = builder.shortLinkTimeoutMillis;
        shortLinks = new ShortLinkCache(builder.cacheDirectory == null ? null
                : new File(builder.cacheDirectory, ShortLinkCache.fileName(app, platform)), builder.shortLinkLifetimeMillis);
        State initial = new State(null, null, Source.NONE, -1);
        // The cache is newer than the bundle: it was fetched after this version was built.
        CanOpenTableFile cached = cacheFile == null ? null : CanOpenTableFile.read(cacheFile);
        CanOpenTableFile bundled = builder.bundledTable == null ? null : CanOpenTableFile.read(builder.bundledTable);
        if (cached != null && cached.table.isFor(app, platform, version)) {
            initial = new State(cached.table, cached.etag, Source.DISK, -1);
        } else if (bundled != null && bundled.table.isFor(app, platform, version)) {
            initial = new State(bundled.table, bundled.etag, Source.BUNDLED, -1);
        }
        state = new AtomicReference<>(initial);
    }

    /** Starts a store for {@code app} at {@code version}, reaching the registry through {@code client}. */
    public static Builder builder(RouteRegistryClient client, String app, Version version) {
        return new Builder(client, app, version);
    }

    /** Configures a {@link CanOpenStore}. */
    public static final class Builder {
        private final RouteRegistryClient client;
        private final String app;
        private final Version version;
        private String platform = "android";
        private File cacheDirectory;
        private InputStream bundledTable;
        private FallbackPolicy defaultFallback = FallbackPolicy.DEFAULT;
        private LongSupplier clock = System::currentTimeMillis;
        private int shortLinkTimeoutMillis = 3_000;
        private long shortLinkLifetimeMillis = TimeUnit.DAYS.toMillis(1);

        private Builder(RouteRegistryClient client, String app, Version version) {
            if (client == null || app == null || version == null) {
                throw new IllegalArgumentException("client, app and version are required");
            }
            this.client = client;
            this.app = app;
            this.version = version;
        }

        /** The platform of the tables ({@code android} unless set). */
        public Builder platform(String platform) {
            this.platform = platform;
            return this;
        }

        /** Where to keep the last fetched table ({@code context.getCacheDir()}); unset keeps it in memory only. */
        public Builder cacheDirectory(File directory) {
            this.cacheDirectory = directory;
            return this;
        }

        /** The table bundled into the app ({@code resources.openRawResource(R.raw.canopen_table)}); read and closed by {@link #build}. */
        public Builder bundledTable(InputStream table) {
            this.bundledTable = table;
            return this;
        }

        /** The fallback marker used while no table (which carries the app's real policy) is known. */
        public Builder defaultFallback(FallbackPolicy policy) {
            this.defaultFallback = policy;
            return this;
        }

        /**
         * The most {@link CanOpenStore#open} waits for the registry to resolve a short link (3 s unless set); past it
         * the short link opens in the browser (its landing page) unless a cached resolution answers.
         */
        public Builder shortLinkTimeout(long timeout, TimeUnit unit) {
            long millis = unit.toMillis(timeout);
            if (millis <= 0 || millis > Integer.MAX_VALUE) throw new IllegalArgumentException("timeout out of range");
            this.shortLinkTimeoutMillis = (int) millis;
            return this;
        }

        /**
         * How long a resolved short link is used without asking the registry again (a day unless set); an older one
         * is still used when the registry cannot be reached.
         */
        public Builder shortLinkCacheLifetime(long lifetime, TimeUnit unit) {
            this.shortLinkLifetimeMillis = unit.toMillis(lifetime);
            return this;
        }

        /** The wall clock (milliseconds), for tests. */
        Builder clock(LongSupplier clock) {
            this.clock = clock;
            return this;
        }

        /** Makes the store, loading the cached or bundled table at once (a small file read). */
        public CanOpenStore build() {
            return new CanOpenStore(this);
        }
    }

    /** Where the table in use came from, its ETag and when it was last confirmed. */
    public Status status() {
        State current = state.get();
        return new Status(current.source, current.etag, current.lastChecked);
    }

    /** The table in use, if any. */
    public CanOpenTable table() {
        return state.get().table;
    }

    /**
     * What this app version should do with {@code url}, decided locally from the table in use: identical to the
     * registry's {@code CanOpen.Check} for that table. Safe from any thread, never blocks.
     */
    public Decision decide(String url) {
        CanOpenTable table = state.get().table;
        if (table != null) return table.decide(url);
        return new Decision(Decision.Outcome.OPEN_IN_BROWSER, Decision.REASON_NO_ROUTE, null,
                isWeb(url) ? FallbackUrl.make(url, defaultFallback) : null, null);
    }

    /** {@link #decide(String)} for a {@code java.net.URI} (on Android pass {@code uri.toString()}). */
    public Decision decide(URI url) {
        return decide(url.toString());
    }

    /**
     * The URL to open in the browser instead of handling {@code url} in the app: the decision's fallback URL (the
     * link plus the app's marker, so Android does not hand it straight back; for a custom-scheme link, the
     * route's web equivalent). A link that already carries the marker is returned as is. Null when there is no
     * web page to go to (a custom-scheme link without a web fallback).
     */
    public String fallbackUrl(String url) {
        Decision decision = decide(url);
        if (decision.fallbackUrl != null) return decision.fallbackUrl;
        if (Decision.REASON_FALLBACK_MARKER.equals(decision.reason)) return url;
        if (!isWeb(url)) return null;
        CanOpenTable table = state.get().table;
        return FallbackUrl.make(url, table == null ? defaultFallback : table.fallback);
    }

    /**
     * The app's link domains ({@code go.badoo.com}), from the table in use: the hosts whose paths are short links.
     * Empty without a table.
     */
    public java.util.Set<String> linkDomains() {
        CanOpenTable table = state.get().table;
        return table == null ? java.util.Collections.<String>emptySet() : table.linkDomains();
    }

    /**
     * Where {@code url} should go, locally and at once (no network): {@link #decide} plus which custom schemes are
     * someone else's ({@link LinkOpening.Action#PASS_THROUGH}). A short link answers from its cached resolution,
     * else as its link domain's route decides it; {@link #open} resolves it.
     */
    public LinkOpening route(String url, LinkSource source) {
        LinkUrl link = LinkUrl.parse(url);
        boolean web = link != null && (link.scheme.equals("https") || link.scheme.equals("http"));
        if (!web && !managesScheme(link == null ? "" : link.scheme)) return passThrough(url, source);
        Decision decision = decide(url);
        String key = shortLinkKey(url, decision);
        if (key != null) {
            ShortLinkCache.Entry entry = shortLinks.entry(key, version, false, clock.getAsLong());
            if (entry != null) return resolved(entry.resolution, url, source, LinkOpening.Resolution.CACHE);
        }
        return plain(url, decision, source, web);
    }

    /**
     * The one entry point for every URL the app is handed (App Links, custom schemes, notification data messages,
     * shortcuts, widgets, in-app messages): {@link #route}, after resolving a short link (a code on one of the
     * app's link domains, which this version opens) with {@code Links.Resolve}: within the short-link timeout, kept
     * on disk for next time; its target decided by the table like any link, the link's own minimum version on top
     * (a version below it gets {@code unsupported_version} with {@code supportedSince}); registry unreachable or
     * late with nothing cached: the short URL plus the fallback marker in the browser, where the landing page takes
     * over. Blocks for at most the short-link timeout: call it off the main thread, or use {@link #openAsync}.
     * Never throws for a network problem.
     */
    public LinkOpening open(String url, LinkSource source) {
        LinkUrl link = LinkUrl.parse(url);
        boolean web = link != null && (link.scheme.equals("https") || link.scheme.equals("http"));
        if (!web && !managesScheme(link == null ? "" : link.scheme)) return passThrough(url, source);
        Decision decision = decide(url);
        String key = shortLinkKey(url, decision);
        if (key == null) return plain(url, decision, source, web);
        ShortLinkCache.Entry fresh = shortLinks.entry(key, version, true, clock.getAsLong());
        if (fresh != null) return resolved(fresh.resolution, url, source, LinkOpening.Resolution.CACHE);
        try {
            ShortLinkResolution answer = client.resolveLink(key, platform, version, shortLinkTimeoutMillis);
            if (!app.equals(answer.app)) return browser(url, source, LinkOpening.Resolution.OTHER_APP);
            shortLinks.store(key, answer, version, clock.getAsLong());
            return resolved(answer, url, source, LinkOpening.Resolution.SERVER);
        } catch (RegistryException e) {
            if ("NOT_FOUND".equals(e.status)) {
                shortLinks.remove(key);
                return browser(url, source, LinkOpening.Resolution.NOT_FOUND);
            }
            ShortLinkCache.Entry stale = shortLinks.entry(key, version, false, clock.getAsLong());
            if (stale != null) return resolved(stale.resolution, url, source, LinkOpening.Resolution.CACHE);
            return browser(url, source, LinkOpening.Resolution.UNAVAILABLE);
        }
    }

    /** {@link #open} on {@code executor}, for callers on the main thread. */
    public CompletableFuture<LinkOpening> openAsync(String url, LinkSource source, Executor executor) {
        return CompletableFuture.supplyAsync(() -> open(url, source), executor);
    }

    /** The decision for a resolved short link: the table's for its target, the link's own minimum on top. */
    Decision decideTarget(ShortLinkResolution resolution) {
        Decision decision = decide(resolution.target);
        Version minimum = resolution.linkMinimum();
        if (decision.decision == Decision.Outcome.OPEN_IN_APP && minimum != null && version.compareTo(minimum) < 0) {
            CanOpenTable table = state.get().table;
            decision = new Decision(Decision.Outcome.OPEN_IN_BROWSER, Decision.REASON_UNSUPPORTED_VERSION,
                    decision.route, FallbackUrl.make(resolution.target, table == null ? defaultFallback : table.fallback),
                    minimum.toString());
        }
        return decision;
    }

    /**
     * {@code https://{link domain}/{code}} when {@code url} is a short link this version opens itself: one path
     * segment on a host the table marks {@code links}, decided {@code open_in_app} (by the link domain's route).
     * Null otherwise: an older version, told by its table that it cannot, goes to the browser's landing page.
     */
    private String shortLinkKey(String url, Decision decision) {
        if (decision.decision != Decision.Outcome.OPEN_IN_APP) return null;
        LinkUrl link = LinkUrl.parse(url);
        if (link == null || !link.scheme.equals("https") || !linkDomains().contains(link.host)) return null;
        String code = link.path;
        while (code.startsWith("/")) code = code.substring(1);
        if (code.isEmpty() || code.contains("/")) return null;
        return "https://" + link.host + "/" + code;
    }

    private boolean managesScheme(String scheme) {
        CanOpenTable table = state.get().table;
        return table != null && table.managesScheme(scheme);
    }

    private LinkOpening passThrough(String url, LinkSource source) {
        return new LinkOpening(source, url, decide(url), LinkOpening.Action.PASS_THROUGH, null, null, null, null);
    }

    private LinkOpening plain(String url, Decision decision, LinkSource source, boolean web) {
        switch (decision.decision) {
            case OPEN_IN_APP:
                return new LinkOpening(source, url, decision, LinkOpening.Action.OPEN_IN_APP, decision.route, url, null,
                        null);
            case NOT_ASSOCIATED:
                // The app's own surfaces may send a web link the table does not know to the browser: the system did
                // not route it here, so it cannot route it back.
                if (web && !source.isSystemRouted()) {
                    return new LinkOpening(source, url, decision, LinkOpening.Action.OPEN_IN_BROWSER, null, url, null,
                            null);
                }
                return new LinkOpening(source, url, decision, LinkOpening.Action.IGNORE, null, null, null, null);
            default:
                String page = decision.fallbackUrl != null ? decision.fallbackUrl : fallbackUrl(url);
                return new LinkOpening(source, url, decision,
                        page == null ? LinkOpening.Action.IGNORE : LinkOpening.Action.OPEN_IN_BROWSER, null, page, null,
                        null);
        }
    }

    private LinkOpening resolved(ShortLinkResolution answer, String url, LinkSource source,
            LinkOpening.Resolution resolution) {
        Decision decision = decideTarget(answer);
        LinkOpening target = plain(answer.target, decision, source, true);
        return new LinkOpening(source, url, decision, target.action, target.route, target.target, resolution, answer);
    }

    /** The short URL in the browser with the fallback marker: the registry's landing page, not the app again. */
    private LinkOpening browser(String url, LinkSource source, LinkOpening.Resolution resolution) {
        CanOpenTable table = state.get().table;
        String fallback = FallbackUrl.make(url, table == null ? defaultFallback : table.fallback);
        Decision decision = new Decision(Decision.Outcome.OPEN_IN_BROWSER, Decision.REASON_NO_ROUTE, null, fallback, null);
        return new LinkOpening(source, url, decision, LinkOpening.Action.OPEN_IN_BROWSER, null, fallback, resolution,
                null);
    }

    private static boolean isWeb(String url) {
        LinkUrl link = LinkUrl.parse(url);
        return link != null && (link.scheme.equals("https") || link.scheme.equals("http"));
    }

    /**
     * Revalidates the table with the registry (the cacheable {@code GET /canopen/v1/...} with {@code If-None-Match};
     * {@code CanOpen.GetTable} with {@code ifNoneMatch} on a registry without it), replacing and saving it when it
     * changed. Concurrent calls share one request. Blocks up to the client's deadline.
     *
     * <p>On failure (offline, registry down) the table in use stays in use and the error is thrown: decisions never
     * depend on the registry being reachable.
     */
    public RefreshOutcome refresh() throws RegistryException {
        CompletableFuture<RefreshOutcome> mine = new CompletableFuture<>();
        while (!inFlight.compareAndSet(null, mine)) {
            CompletableFuture<RefreshOutcome> running = inFlight.get();
            if (running != null) return await(running);
        }
        try {
            RefreshOutcome outcome = fetch();
            mine.complete(outcome);
            return outcome;
        } catch (Throwable e) {
            // Whatever went wrong, callers waiting for this refresh hear it now rather than at their deadline.
            mine.completeExceptionally(e);
            throw e;
        } finally {
            inFlight.compareAndSet(mine, null);
        }
    }

    /**
     * {@link #refresh()} unless the registry confirmed the table less than {@code ifOlderThan} ago (then
     * {@link RefreshOutcome#FRESH}). For app start and foreground (an hour, say) and FCM data messages (zero).
     */
    public RefreshOutcome refresh(long ifOlderThan, TimeUnit unit) throws RegistryException {
        long last = state.get().lastChecked;
        if (last >= 0 && clock.getAsLong() - last < unit.toMillis(ifOlderThan)) return RefreshOutcome.FRESH;
        return refresh();
    }

    /** {@link #refresh(long, TimeUnit)} on {@code executor}, for callers on the main thread. */
    public CompletableFuture<RefreshOutcome> refreshAsync(long ifOlderThan, TimeUnit unit, Executor executor) {
        CompletableFuture<RefreshOutcome> result = new CompletableFuture<>();
        executor.execute(() -> {
            try {
                result.complete(refresh(ifOlderThan, unit));
            } catch (RegistryException | RuntimeException e) {
                result.completeExceptionally(e);
            }
        });
        return result;
    }

    /** Waits for another caller's refresh, no longer than that refresh's own deadline (plus a margin). */
    private RefreshOutcome await(CompletableFuture<RefreshOutcome> running) throws RegistryException {
        try {
            return running.get(client.timeoutMillis() + 1000L, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RegistryException) throw (RegistryException) e.getCause();
            if (e.getCause() instanceof RuntimeException) throw (RuntimeException) e.getCause();
            throw RegistryException.transport("refresh failed", e.getCause());
        } catch (TimeoutException e) {
            throw RegistryException.transport("the refresh in flight did not finish in time", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw RegistryException.transport("interrupted while waiting for the refresh in flight", e);
        }
    }

    /** One table round trip (the cacheable GET, or {@code CanOpen.GetTable} on an older registry) and its effect. */
    private RefreshOutcome fetch() throws RegistryException {
        State current = state.get();
        String etag = current.table == null ? null : current.etag;
        RouteRegistryClient.TableAnswer answer = client.getTableByGet(app, platform, version, etag);
        long now = clock.getAsLong();
        if (answer.notModified && etag != null) {
            state.set(new State(current.table, current.etag, current.source, now));
            return RefreshOutcome.NOT_MODIFIED;
        }
        if (answer.table == null) throw RegistryException.protocol("the registry returned no table");
        if (!answer.table.isFor(app, platform, version)) {
            throw RegistryException.protocol("the registry returned the table of another app version");
        }
        state.set(new State(answer.table, answer.etag, Source.SERVER, now));
        if (cacheFile != null) {
            try {
                new CanOpenTableFile(answer.etag, answer.table).write(cacheFile);
            } catch (IOException e) {
                // Best effort: the table is in use either way; the next launch starts from the older cache or bundle.
            }
        }
        return RefreshOutcome.UPDATED;
    }
}
