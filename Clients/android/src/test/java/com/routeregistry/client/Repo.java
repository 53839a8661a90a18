package com.routeregistry.client;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.json.JSONArray;
import org.json.JSONException;
import org.json.JSONObject;

/** The repository's files the tests read: the vectors, the OpenRPC document. */
final class Repo {
    private Repo() {}

    /** The repository root: scripts/test.sh passes it; otherwise two levels above the working directory. */
    static Path root() {
        String given = System.getProperty("routeregistry.repo");
        return given != null ? Paths.get(given) : Paths.get("../..").toAbsolutePath().normalize();
    }

    /** The shared conformance vectors, as the repository keeps them (a byte-identical copy). */
    static Path conformanceVectors() {
        return root().resolve("Tests/Conformance/aasa-matching.json");
    }

    static Path projectVectors() {
        return root().resolve("Tests/RouteCoreTests/Fixtures/route-vectors.json");
    }

    static Path openRpc() {
        return root().resolve("Schema/registry.openrpc.json");
    }

    static JSONObject readObject(Path path) {
        try {
            return new JSONObject(new String(Files.readAllBytes(path), StandardCharsets.UTF_8));
        } catch (IOException | JSONException e) {
            throw new AssertionError("cannot read " + path + ": " + e, e);
        }
    }

    /** {@code object[key]} as an array, failing the test when it is not one. */
    static JSONArray array(JSONObject object, String key) {
        JSONArray array = object.optJSONArray(key);
        if (array == null) throw new AssertionError(key + " is not an array");
        return array;
    }

    /** Builds a JSON object from alternating keys and values, for request params. */
    static JSONObject json(Object... keysAndValues) {
        JSONObject object = new JSONObject();
        try {
            for (int i = 0; i < keysAndValues.length; i += 2) object.put((String) keysAndValues[i], keysAndValues[i + 1]);
        } catch (JSONException e) {
            throw new AssertionError(e);
        }
        return object;
    }

    /** Parses JSON text written in a test. */
    static JSONObject parse(String text) {
        try {
            return new JSONObject(text);
        } catch (JSONException e) {
            throw new AssertionError("bad JSON in the test: " + e.getMessage(), e);
        }
    }
}
