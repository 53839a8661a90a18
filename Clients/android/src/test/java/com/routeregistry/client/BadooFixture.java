package com.routeregistry.client;

import static com.routeregistry.client.Repo.json;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.json.JSONArray;
import org.json.JSONObject;

/**
 * The reference scenario (ARCHITECTURE.md) on Android, set up on the real registry under names of its own: profile {@code /u/*}
 * since versionCode 5000, help {@code /help/*} excluded ahead of it, lookalikes {@code /l/a/*} since 5120, and
 * the custom-scheme route {@code offer} with a web fallback. Release 5110 is live.
 */
final class BadooFixture {
    final RegistryServer server;
    final String app;
    final String host;
    final String scheme;

    static final Version OLD = Version.ofVersionCode(5110);
    static final Version NEW = Version.ofVersionCode(5120);

    BadooFixture(RegistryServer server) {
        this.server = server;
        String suffix = UUID.randomUUID().toString().replace("-", "").substring(0, 8);
        app = "badoo-" + suffix;
        host = "m.badoo-" + suffix + ".com";
        scheme = "badoo" + suffix;
        server.adminCall("Apps.Create", json("app", json(
                "id", app,
                "android", json("packageName", "com.badoo.mobile",
                        "sha256CertFingerprints", new JSONArray(Arrays.asList(String.join(":", java.util.Collections.nCopies(32, "AB"))))),
                "schemes", new JSONArray(Arrays.asList(scheme)),
                "fallback", json("queryItem", "ul_fallback")),
                // Every fixture names badoo's package: the admin (for every app) shares it on purpose.
                "shareNames", true));
        server.adminCall("Domains.Create", json("domain", json("host", host, "apps", new JSONArray(Arrays.asList(app)))));
        route(json("id", "profile", "pattern", json("path", "/u/*"), "platforms", android("5000")));
        route(json("id", "lookalikes", "pattern", json("path", "/l/a/*"), "platforms", android("5120")));
        route(json("id", "offer", "pattern", json("scheme", scheme, "path", "/offer/*"),
                "webFallback", "https://" + host + "{path}?{query}", "platforms", android("5000")));
        server.adminCall("Routes.Create", json("app", app, "before", "profile",
                "route", json("id", "help", "pattern", json("path", "/help/*"), "action", "exclude")));
        publish(OLD);
    }

    private static JSONObject android(String since) {
        return json("android", json("since", since));
    }

    void route(JSONObject route) {
        server.adminCall("Routes.Create", json("app", app, "route", route));
    }

    void publish(Version version) {
        server.adminCall("Releases.Publish", json("app", app, "platform", "android", "version", version.toString()));
    }

    void switchOff(String route, Version version) {
        server.adminCall("Routes.SwitchOff", json("app", app, "route", route, "platform", "android",
                "versions", new JSONArray(Arrays.asList(version.toString())), "reason", "crash"));
    }

    /** Links covering every kind of decision. */
    List<String> urls() {
        String web = "https://" + host;
        return Arrays.asList(web + "/u/1", web + "/u/1?ul_fallback=1", web + "/help/faq", web + "/l/a/42",
                web + "/l/a/42?x=1#top", web + "/nothing/here", "https://elsewhere.invalid/u/1",
                "HTTPS://" + host.toUpperCase() + "./u/2", scheme + "://offer/7?a=b", scheme + "://other", "mailto:x@y.z");
    }

    /** The server's decision for {@code url} at {@code version}. */
    Decision check(Version version, String url) {
        try {
            return server.anonymous().check(app, "android", version, url);
        } catch (RegistryException e) {
            throw new AssertionError("CanOpen.Check " + url + ": " + e.getMessage(), e);
        }
    }

    /**
     * A loopback address nothing listens on: the port stays bound (never listening) while the socket is open,
     * so no server started meanwhile can take it.
     */
    static Socket closedPort() throws IOException {
        Socket socket = new Socket();
        socket.bind(new InetSocketAddress("127.0.0.1", 0));
        return socket;
    }

    static String urlOf(Socket closed) {
        return "http://127.0.0.1:" + closed.getLocalPort();
    }
}
