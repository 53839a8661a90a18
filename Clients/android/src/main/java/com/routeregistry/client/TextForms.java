package com.routeregistry.client;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * The transformations both sides of a comparison go through: percent-decoding, case folding and path
 * canonicalisation. Patterns and URLs use the same functions (as RouteCore's {@code TextForms} does), so a folded
 * pattern literal is always comparable with a folded URL.
 */
final class TextForms {
    private TextForms() {}

    /**
     * Decodes each run of escapes as UTF-8. A malformed escape, or a run that is not valid UTF-8, stays as written:
     * what cannot be decoded is compared literally rather than rejecting the URL.
     */
    static String percentDecoded(String text) {
        if (text.indexOf('%') < 0) return text;
        StringBuilder out = new StringBuilder(text.length());
        int i = 0;
        int n = text.length();
        while (i < n) {
            int runStart = i;
            byte[] run = new byte[n / 3 + 1];
            int count = 0;
            while (i + 2 < n && text.charAt(i) == '%' && hex(text.charAt(i + 1)) >= 0 && hex(text.charAt(i + 2)) >= 0) {
                run[count++] = (byte) (hex(text.charAt(i + 1)) << 4 | hex(text.charAt(i + 2)));
                i += 3;
            }
            if (count == 0) {
                out.append(text.charAt(i));
                i++;
                continue;
            }
            String decoded = utf8OrNull(ByteBuffer.wrap(run, 0, count));
            out.append(decoded != null ? decoded : text.substring(runStart, i));
        }
        return out.toString();
    }

    /** The bytes as text, or null when they are not valid UTF-8. */
    static String utf8OrNull(ByteBuffer bytes) {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(bytes)
                    .toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    static int hex(char c) {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        return -1;
    }

    /**
     * Lower-cases code point by code point (context-free, so folding pieces of a pattern gives the same text as
     * folding the whole; no final-sigma rule), with the full mapping ({@code İ} becomes {@code i̇}).
     */
    static String folded(String text) {
        boolean ascii = true;
        for (int i = 0; i < text.length() && ascii; i++) ascii = text.charAt(i) < 0x80;
        if (ascii) return text.toLowerCase(Locale.ROOT);
        StringBuilder out = new StringBuilder(text.length());
        text.codePoints().forEach(cp -> out.append(new String(Character.toChars(cp)).toLowerCase(Locale.ROOT)));
        return out.toString();
    }

    /**
     * A leading {@code /}, no repeated {@code /}, no trailing {@code /} except for the root path {@code /} (so ""
     * and "/" are the same path, and so are "/buy" and "/buy/").
     */
    static String canonicalPath(String path) {
        StringBuilder out = new StringBuilder(path.length() + 1).append('/');
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c == '/' && out.charAt(out.length() - 1) == '/') continue;
            out.append(c);
        }
        int end = out.length();
        while (end > 1 && out.charAt(end - 1) == '/') end--;
        out.setLength(end);
        return out.toString();
    }

    /** Every run of {@code /} collapsed to one. */
    static String collapsingSlashes(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '/' && out.length() > 0 && out.charAt(out.length() - 1) == '/') continue;
            out.append(c);
        }
        return out.toString();
    }

    /** {@code text} as UTF-8 with everything but ASCII letters, digits and {@code -._~} percent-escaped. */
    static String percentEscaped(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xFF;
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.'
                    || c == '_' || c == '~') {
                out.append((char) c);
            } else {
                out.append('%').append("0123456789ABCDEF".charAt(c >> 4)).append("0123456789ABCDEF".charAt(c & 15));
            }
        }
        return out.toString();
    }
}
