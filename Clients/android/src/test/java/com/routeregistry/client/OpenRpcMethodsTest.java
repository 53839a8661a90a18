package com.routeregistry.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import org.json.JSONArray;
import org.json.JSONObject;
import org.junit.jupiter.api.Test;

/** The client's methods against {@code Schema/registry.openrpc.json}, the API's source of truth. */
class OpenRpcMethodsTest {
    /** name → method object of the document. */
    private static Map<String, JSONObject> documentMethods() {
        JSONArray methods = Repo.array(Repo.readObject(Repo.openRpc()), "methods");
        Map<String, JSONObject> out = new HashMap<>();
        for (int i = 0; i < methods.length(); i++) out.put(methods.optJSONObject(i).optString("name"), methods.optJSONObject(i));
        return out;
    }

    private static Map<String, Boolean> params(JSONObject method) {
        Map<String, Boolean> out = new HashMap<>();
        JSONArray params = method.optJSONArray("params");
        for (int i = 0; i < params.length(); i++) {
            out.put(params.optJSONObject(i).optString("name"), params.optJSONObject(i).optBoolean("required", false));
        }
        return out;
    }

    @Test
    void everyMethodTheClientCallsIsDocumentedWithTheSameAccessAndParams() {
        Map<String, JSONObject> document = documentMethods();
        assertTrue(document.size() > 30, "the document lists the API");
        for (RouteRegistryClient.Method method : RouteRegistryClient.METHODS) {
            JSONObject documented = document.get(method.name);
            assertNotNull(documented, method.name + " is in the document");
            assertEquals(documented.optString("x-access"), method.access, method.name);
            Map<String, Boolean> params = params(documented);
            assertEquals(params.keySet(), new HashSet<>(method.params), method.name + ": every documented param, no other");
            Set<String> required = new HashSet<>();
            for (Map.Entry<String, Boolean> param : params.entrySet()) if (param.getValue()) required.add(param.getKey());
            assertTrue(method.required.containsAll(required), method.name + " always sends " + required);
        }
    }

    @Test
    void typedHelpersSendExactlyTheDocumentedParamsAndTheirDeadline() throws Exception {
        try (FakeRegistry fake = new FakeRegistry(request -> {
            switch (request.optString("method")) {
                case "CanOpen.GetTable": return FakeRegistry.result(request, "{\"etag\":\"\\\"e\\\"\",\"notModified\":true}");
                case "CanOpen.Check": return FakeRegistry.result(request, "{\"decision\":\"not_associated\"}");
                default: return FakeRegistry.result(request, "{\"host\":\"m.badoo.com\",\"revision\":3,\"document\":{}}");
            }
        })) {
            RouteRegistryClient client = new RouteRegistryClient(fake.url(), null, 4_000);
            Version version = Version.parse("5120");
            RouteRegistryClient.TableAnswer answer = client.getTable("badoo", "android", version, "\"e\"");
            assertTrue(answer.notModified);
            assertEquals("\"e\"", answer.etag);
            assertEquals(Decision.NOT_ASSOCIATED, client.check("badoo", "android", version, "https://m.badoo.com/"));
            assertEquals(3, client.association("m.badoo.com", "assetlinks", 3).getInt("revision"));

            Map<String, JSONObject> document = documentMethods();
            assertEquals(3, fake.requests.size());
            for (int i = 0; i < 3; i++) {
                JSONObject request = fake.requests.get(i);
                assertEquals(RouteRegistryClient.METHODS.get(i).name, request.getString("method"));
                assertEquals("2.0", request.getString("jsonrpc"));
                Map<String, Boolean> documented = params(document.get(request.getString("method")));
                JSONObject sent = request.getJSONObject("params");
                for (Iterator<String> keys = sent.keys(); keys.hasNext(); ) {
                    String key = keys.next();
                    assertTrue(documented.containsKey(key), request.getString("method") + " sends undocumented " + key);
                }
                for (Map.Entry<String, Boolean> param : documented.entrySet()) {
                    if (param.getValue()) assertTrue(sent.has(param.getKey()), request.getString("method") + " lacks " + param.getKey());
                }
                assertEquals("4000", fake.timeouts.get(i), "the server is told the deadline");
            }
            assertEquals("5120", fake.requests.get(0).getJSONObject("params").getString("version"));
        }
    }
}
