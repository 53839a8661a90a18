package com.routeregistry.client;

import java.io.File;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.json.JSONObject;

/**
 * Short-link resolutions kept in memory and in one small file beside the canOpen table's cache, so a short link
 * opened before resolves at once, and offline. An entry is kept for the app version that resolved it (another
 * version is told other minimums) and used without asking again for {@code lifetimeMillis}; after that it is
 * asked again, and used only when the registry cannot be reached. The entry contributes the target and the link's
 * own minimum; the target's route is always decided by the current table, so a switch-off reaches short links
 * with the table.
 */
final class ShortLinkCache {
    static final int CAPACITY = 500;

    static final class Entry {
        final ShortLinkResolution resolution;
        final String version;
        final long resolvedAt;

        Entry(ShortLinkResolution resolution, String version, long resolvedAt) {
            this.resolution = resolution;
            this.version = version;
            this.resolvedAt = resolvedAt;
        }
    }

    private final File file;
    private final long lifetimeMillis;
    private final Map<String, Entry> entries = new HashMap<>();

    ShortLinkCache(File file, long lifetimeMillis) {
        this.file = file;
        this.lifetimeMillis = lifetimeMillis;
        if (file != null) load();
    }

    /** The cache file's name for an app and platform (beside {@code canopen-<app>-<platform>.json}). */
    static String fileName(String app, String platform) {
        return "shortlinks-" + CanOpenTableFile.cacheFileName(app, platform).substring("canopen-".length());
    }

    /** The entry for {@code key} made for {@code version}; with {@code fresh}, only one younger than the lifetime. */
    synchronized Entry entry(String key, Version version, boolean fresh, long now) {
        Entry entry = entries.get(key);
        if (entry == null || !entry.version.equals(version.toString())) return null;
        if (fresh && now - entry.resolvedAt >= lifetimeMillis) return null;
        return entry;
    }

    /** Keeps {@code resolution}, dropping the oldest entries past the capacity, and saves the file (best effort). */
    synchronized void store(String key, ShortLinkResolution resolution, Version version, long now) {
        entries.put(key, new Entry(resolution, version.toString(), now));
        while (entries.size() > CAPACITY) {
            String oldest = null;
            for (Map.Entry<String, Entry> e : entries.entrySet()) {
                if (oldest == null || e.getValue().resolvedAt < entries.get(oldest).resolvedAt) oldest = e.getKey();
            }
            entries.remove(oldest);
        }
        save();
    }

    /** Forgets {@code key} (a link the registry no longer knows). */
    synchronized void remove(String key) {
        if (entries.remove(key) != null) save();
    }

    private void load() {
        try (InputStream in = new FileInputStream(file)) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            byte[] buffer = new byte[8192];
            for (int n; (n = in.read(buffer)) >= 0; ) bytes.write(buffer, 0, n);
            JSONObject all = Json.parse(new String(bytes.toByteArray(), StandardCharsets.UTF_8)).optJSONObject("entries");
            if (all == null) return;
            for (Iterator<String> keys = all.keys(); keys.hasNext(); ) {
                String key = keys.next();
                JSONObject entry = all.optJSONObject(key);
                JSONObject resolution = entry == null ? null : entry.optJSONObject("resolution");
                if (resolution == null) continue;
                entries.put(key, new Entry(ShortLinkResolution.fromJson(resolution), Json.requiredString(entry, "version"),
                        entry.optLong("resolvedAt", 0)));
            }
        } catch (IOException | IllegalArgumentException e) {
            entries.clear();  // missing or damaged: start empty, never stop the app
        }
    }

    /** Writes every entry atomically (called with the lock held, so writes happen in order). */
    private void save() {
        if (file == null) return;
        JSONObject all = new JSONObject();
        List<String> keys = new ArrayList<>(entries.keySet());
        for (String key : keys) {
            Entry entry = entries.get(key);
            JSONObject json = new JSONObject();
            Json.put(json, "resolution", entry.resolution.toJson());
            Json.put(json, "version", entry.version);
            Json.put(json, "resolvedAt", entry.resolvedAt);
            Json.put(all, key, json);
        }
        JSONObject root = new JSONObject();
        Json.put(root, "entries", all);
        try {
            File directory = file.getAbsoluteFile().getParentFile();
            if (!directory.isDirectory() && !directory.mkdirs()) return;
            File temporary = File.createTempFile(file.getName(), ".tmp", directory);
            try {
                try (FileOutputStream out = new FileOutputStream(temporary)) {
                    out.write(root.toString().getBytes(StandardCharsets.UTF_8));
                }
                if (!temporary.renameTo(file)) return;
            } finally {
                if (temporary.exists() && !temporary.delete()) temporary.deleteOnExit();
            }
        } catch (IOException e) {
            // Best effort: the entry is in memory either way.
        }
    }
}
