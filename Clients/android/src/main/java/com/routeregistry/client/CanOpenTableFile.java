package com.routeregistry.client;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.json.JSONObject;

/**
 * A canOpen table with its ETag, as kept on disk: the store's cache file and the table bundled into the app share
 * the format of a {@code CanOpen.GetTable} result ({@code {"etag", "table", ...}}), which is what
 * {@code routereg canopen-table ... --output} writes. A bare table is read too (it has no ETag, so the first
 * refresh fetches it whole).
 */
final class CanOpenTableFile {
    final String etag;
    final CanOpenTable table;

    CanOpenTableFile(String etag, CanOpenTable table) {
        this.etag = etag;
        this.table = table;
    }

    /** Reads and closes {@code in}; null when it is not a table (a damaged cache never stops the app). */
    static CanOpenTableFile read(InputStream in) {
        try (InputStream stream = in) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            byte[] buffer = new byte[8192];
            for (int n; (n = stream.read(buffer)) >= 0; ) bytes.write(buffer, 0, n);
            JSONObject json = Json.parse(new String(bytes.toByteArray(), StandardCharsets.UTF_8));
            JSONObject table = json.optJSONObject("table");
            if (table != null) return new CanOpenTableFile(Json.string(json, "etag"), CanOpenTable.fromJson(table));
            return new CanOpenTableFile(null, CanOpenTable.fromJson(json));
        } catch (IOException | IllegalArgumentException e) {
            return null;
        }
    }

    /** Reads {@code file}; null when it is missing or not a table. */
    static CanOpenTableFile read(File file) {
        try {
            return read(new java.io.FileInputStream(file));
        } catch (IOException e) {
            return null;
        }
    }

    /** Writes the file atomically (a reader never sees half a table), creating its directory. */
    void write(File file) throws IOException {
        File directory = file.getAbsoluteFile().getParentFile();
        if (!directory.isDirectory() && !directory.mkdirs()) throw new IOException("cannot create " + directory);
        JSONObject json = new JSONObject();
        Json.put(json, "etag", etag);
        Json.put(json, "table", table.json);
        File temporary = File.createTempFile(file.getName(), ".tmp", directory);
        try {
            try (FileOutputStream out = new FileOutputStream(temporary)) {
                out.write(json.toString().getBytes(StandardCharsets.UTF_8));
                out.getFD().sync();
            }
            if (!temporary.renameTo(file)) throw new IOException("cannot rename " + temporary + " to " + file);
        } finally {
            if (temporary.exists() && !temporary.delete()) temporary.deleteOnExit();
        }
    }

    /** The cache file's name for an app and platform, safe for any app ID. */
    static String cacheFileName(String app, String platform) {
        StringBuilder safe = new StringBuilder();
        for (char c : app.toCharArray()) {
            boolean allowed = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '-' || c == '_' || c == '.';
            safe.append(allowed ? c : '_');
        }
        return "canopen-" + safe + "-" + platform + ".json";
    }
}
