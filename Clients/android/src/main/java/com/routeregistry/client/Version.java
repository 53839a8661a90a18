package com.routeregistry.client;

import java.util.Arrays;

/**
 * An app version as the registry accepts it: one to four dot-separated decimal numbers ({@code 5},
 * {@code 5.12.0}, {@code 5.12.0.4411}), each at most {@link Integer#MAX_VALUE}. An Android {@code versionCode}
 * is the one-component case ({@code 51200}).
 *
 * <p>Versions compare numerically with missing components counted as zero, so {@code 5.12} equals {@code 5.12.0},
 * exactly as the server compares them; a canOpen table is used only for a version equal to the app's.
 */
public final class Version implements Comparable<Version> {
    private final int[] components;

    private Version(int[] components) {
        this.components = components;
    }

    /**
     * Parses {@code text}.
     *
     * @throws IllegalArgumentException naming the text and what is wrong with it, in the server's words
     */
    public static Version parse(String text) {
        if (text == null || text.isEmpty()) throw refused(text == null ? "" : text, "is empty");
        int[] parts = new int[4];
        int count = 0;
        long current = 0;
        int digits = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '.') {
                if (digits == 0) throw refused(text, "has an empty component");
                parts[count++] = (int) current;
                current = 0;
                digits = 0;
            } else if (c >= '0' && c <= '9') {
                current = current * 10 + (c - '0');
                digits++;
                if (current > Integer.MAX_VALUE) {
                    throw refused(text, "has a component above " + Integer.MAX_VALUE);
                }
            } else {
                throw refused(text, "must be 1 to 4 dot-separated numbers, like 5.12.0");
            }
            if (count >= 4) throw refused(text, "has more than 4 components");
        }
        if (digits == 0) throw refused(text, "has an empty component");
        parts[count++] = (int) current;
        return new Version(Arrays.copyOf(parts, count));
    }

    /** An Android {@code versionCode} ({@code PackageInfo.getLongVersionCode()}). */
    public static Version ofVersionCode(long versionCode) {
        if (versionCode < 0 || versionCode > Integer.MAX_VALUE) {
            throw refused(Long.toString(versionCode), "has a component above " + Integer.MAX_VALUE);
        }
        return new Version(new int[] {(int) versionCode});
    }

    private static IllegalArgumentException refused(String text, String reason) {
        String shown = text.length() > 40 ? text.substring(0, 40) : text;
        return new IllegalArgumentException("version \"" + shown + "\" " + reason);
    }

    private int component(int index) {
        return index < components.length ? components[index] : 0;
    }

    @Override
    public int compareTo(Version other) {
        for (int i = 0; i < 4; i++) {
            int c = Integer.compare(component(i), other.component(i));
            if (c != 0) return c;
        }
        return 0;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Version && compareTo((Version) other) == 0;
    }

    @Override
    public int hashCode() {
        int hash = 17;
        for (int i = 0; i < 4; i++) hash = hash * 31 + component(i);
        return hash;
    }

    /** The components joined with dots, as the server writes the version back. */
    @Override
    public String toString() {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < components.length; i++) {
            if (i > 0) out.append('.');
            out.append(components[i]);
        }
        return out.toString();
    }
}
