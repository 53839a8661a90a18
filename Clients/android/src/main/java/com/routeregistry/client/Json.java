package com.routeregistry.client;

import org.json.JSONException;
import org.json.JSONObject;

/**
 * Small helpers over {@code org.json} as Android ships it, whose {@code optString} turns a JSON {@code null} into
 * the text "null", and whose {@code JSONException} is checked: every field is read through here so absent and
 * null both mean null and a malformed value is an {@code IllegalArgumentException} naming the field.
 */
final class Json {
    private Json() {}

    /** The string at {@code key}; null when absent or null; an error naming the field for another type. */
    static String string(JSONObject json, String key) {
        Object value = json.opt(key);
        if (value == null || value == JSONObject.NULL) return null;
        if (!(value instanceof String)) throw new IllegalArgumentException(key + " is not a string");
        return (String) value;
    }

    /** The string at {@code key}, which must be present. */
    static String requiredString(JSONObject json, String key) {
        String value = string(json, key);
        if (value == null) throw new IllegalArgumentException(key + " is missing");
        return value;
    }

    /** Parses a JSON object; an {@code IllegalArgumentException} saying why when {@code text} is not one. */
    static JSONObject parse(String text) {
        try {
            return new JSONObject(text);
        } catch (JSONException e) {
            throw new IllegalArgumentException("not a JSON object: " + e.getMessage(), e);
        }
    }

    /** Puts {@code value} unless it is null. */
    static void put(JSONObject json, String key, Object value) {
        if (value == null) return;
        try {
            json.put(key, value);
        } catch (JSONException e) {
            throw new IllegalArgumentException(key + ": " + e.getMessage(), e);
        }
    }
}
