package com.routeregistry.client;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One component pattern ({@code /}, {@code ?} or {@code #}), compiled into tokens over code points and matched
 * without regular expressions, so many stars cannot blow up.
 *
 * <p>Apple's syntax as RouteCore implements it: {@code *} any run (none, and {@code /}, included), {@code ?} one
 * character (one code point), {@code $(name)} a substitution variable; repeated stars are one star. Path patterns
 * are canonicalised like paths (leading {@code /} optional, repeated {@code /} collapsed, trailing {@code /}
 * dropped) and a final {@code /*} also matches the bare path ({@code /buy/*} matches {@code /buy}, not
 * {@code /buyer}).
 */
final class Pattern {
    private static final Token ANY_RUN = new Token(Kind.ANY_RUN);
    private static final Token ANY_CHAR = new Token(Kind.ANY_CHAR);
    private static final Token SUBPATH_TAIL = new Token(Kind.SUBPATH_TAIL);

    private final Token[] tokens;
    private final boolean deterministic;

    /**
     * Compiles {@code pattern}. {@code folded}: the rule compares case-insensitively; {@code variables}: the
     * document's own {@code $(name)} lists.
     */
    Pattern(String pattern, boolean isPath, boolean folded, Map<String, List<String>> variables) {
        List<Object> raw = tokenize(pattern, variables);
        if (isPath) raw = canonicalPathTokens(raw);
        tokens = compiled(raw, folded);
        boolean plain = true;
        for (Token token : tokens) plain &= token.kind != Kind.ONE_OF;
        deterministic = plain;
    }

    /** True when all of {@code text} (already in the rule's form) matches. */
    boolean matches(String text) {
        return matches(text.codePoints().toArray());
    }

    /** {@link #matches(String)} on text already split into code points. */
    boolean matches(int[] s) {
        return deterministic ? greedyMatch(tokens, s, 0, s.length) : new Backtracking(tokens, s).from(0, 0);
    }

    enum Kind { LITERAL, ANY_CHAR, ANY_RUN, SUBPATH_TAIL, CLASS, CODE, ONE_OF }

    /** One step of a compiled pattern. */
    static final class Token {
        final Kind kind;
        int[] literal;
        String className;
        Set<String> codes;
        List<Token[]> values;

        Token(Kind kind) {
            this.kind = kind;
        }
    }

    /** Raw tokens: Strings for literal text, Tokens for the rest; a user value's Token holds raw lists. */
    private static List<Object> tokenize(String pattern, Map<String, List<String>> variables) {
        List<Object> tokens = new ArrayList<>();
        StringBuilder literal = new StringBuilder();
        int i = 0;
        while (i < pattern.length()) {
            char c = pattern.charAt(i);
            if (c == '*') {
                flush(tokens, literal);
                if (tokens.isEmpty() || tokens.get(tokens.size() - 1) != ANY_RUN) tokens.add(ANY_RUN);
                i++;
            } else if (c == '?') {
                flush(tokens, literal);
                tokens.add(ANY_CHAR);
                i++;
            } else if (c == '$' && variables != null && pattern.startsWith("(", i + 1)
                    && pattern.indexOf(')', i + 2) >= 0) {
                int close = pattern.indexOf(')', i + 2);
                Object token = variable(pattern.substring(i + 2, close), variables);
                if (token == null) {
                    literal.append(c);
                    i++;
                } else {
                    flush(tokens, literal);
                    tokens.add(token);
                    i = close + 1;
                }
            } else {
                literal.append(c);
                i++;
            }
        }
        flush(tokens, literal);
        return tokens;
    }

    private static void flush(List<Object> tokens, StringBuilder literal) {
        if (literal.length() > 0) {
            tokens.add(literal.toString());
            literal.setLength(0);
        }
    }

    /** Predefined names win over user lists of the same name; user values cannot reference variables. */
    private static Object variable(String name, Map<String, List<String>> variables) {
        switch (name) {
            case "alpha": case "upper": case "lower": case "alnum": case "digit": case "xdigit": {
                Token token = new Token(Kind.CLASS);
                token.className = name;
                return token;
            }
            case "lang": case "region": {
                Token token = new Token(Kind.CODE);
                token.codes = name.equals("lang") ? IsoCodes.LANGUAGES : IsoCodes.REGIONS;
                return token;
            }
            default: {
                List<String> values = variables.get(name);
                if (values == null) return null;
                List<List<Object>> alternatives = new ArrayList<>();
                for (String value : values) alternatives.add(tokenize(value, null));
                return new RawOneOf(alternatives);
            }
        }
    }

    private static final class RawOneOf {
        final List<List<Object>> alternatives;

        RawOneOf(List<List<Object>> alternatives) {
            this.alternatives = alternatives;
        }
    }

    /** The pattern-side twin of {@link TextForms#canonicalPath}, with a final {@code /*} as the subpath tail. */
    private static List<Object> canonicalPathTokens(List<Object> input) {
        List<Object> tokens = new ArrayList<>(input);
        if (tokens.isEmpty() || !(tokens.get(0) instanceof String) || !((String) tokens.get(0)).startsWith("/")) {
            tokens.add(0, "/");
        }
        List<Object> merged = new ArrayList<>();
        for (Object token : tokens) {
            if (token instanceof String) {
                if (((String) token).isEmpty()) continue;
                if (!merged.isEmpty() && merged.get(merged.size() - 1) instanceof String) {
                    merged.set(merged.size() - 1, merged.get(merged.size() - 1) + (String) token);
                    continue;
                }
            }
            merged.add(token);
        }
        tokens = new ArrayList<>();
        for (Object token : merged) tokens.add(token instanceof String ? TextForms.collapsingSlashes((String) token) : token);
        boolean root = tokens.size() == 1 && "/".equals(tokens.get(0));
        if (!root && tokens.get(tokens.size() - 1) instanceof String) {
            String last = (String) tokens.remove(tokens.size() - 1);
            int end = last.length();
            while (end > 0 && last.charAt(end - 1) == '/') end--;
            if (end > 0) tokens.add(last.substring(0, end));
        }
        int n = tokens.size();
        if (n >= 2 && tokens.get(n - 1) == ANY_RUN && tokens.get(n - 2) instanceof String
                && ((String) tokens.get(n - 2)).endsWith("/")) {
            String before = (String) tokens.get(n - 2);
            tokens.remove(n - 1);
            tokens.remove(n - 2);
            if (before.length() > 1) tokens.add(before.substring(0, before.length() - 1));
            tokens.add(SUBPATH_TAIL);
        }
        return tokens;
    }

    /** Tokens ready for a subject in the rule's form: literals folded, classes widened, codes folded. */
    private static Token[] compiled(List<Object> raw, boolean folded) {
        Token[] out = new Token[raw.size()];
        for (int i = 0; i < out.length; i++) {
            Object token = raw.get(i);
            if (token instanceof String) {
                Token literal = new Token(Kind.LITERAL);
                literal.literal = (folded ? TextForms.folded((String) token) : (String) token).codePoints().toArray();
                out[i] = literal;
            } else if (token instanceof RawOneOf) {
                Token oneOf = new Token(Kind.ONE_OF);
                oneOf.values = new ArrayList<>();
                for (List<Object> value : ((RawOneOf) token).alternatives) oneOf.values.add(compiled(value, folded));
                out[i] = oneOf;
            } else {
                Token plain = (Token) token;
                if (folded && plain.kind == Kind.CLASS && (plain.className.equals("upper") || plain.className.equals("lower"))) {
                    Token alpha = new Token(Kind.CLASS);
                    alpha.className = "alpha";
                    out[i] = alpha;
                } else if (folded && plain.kind == Kind.CODE) {
                    Token code = new Token(Kind.CODE);
                    code.codes = new HashSet<>();
                    for (String c : plain.codes) code.codes.add(TextForms.folded(c));
                    out[i] = code;
                } else {
                    out[i] = plain;
                }
            }
        }
        return out;
    }

    private static boolean inClass(String name, int c) {
        boolean upper = c >= 'A' && c <= 'Z';
        boolean lower = c >= 'a' && c <= 'z';
        boolean digit = c >= '0' && c <= '9';
        switch (name) {
            case "alpha": return upper || lower;
            case "upper": return upper;
            case "lower": return lower;
            case "alnum": return upper || lower || digit;
            case "digit": return digit;
            default: return digit || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
        }
    }

    /** Consumes one fixed-width token at {@code si} of {@code s[..end)}; -1 when it does not match there. */
    private static int step(Token token, int[] s, int si, int end) {
        switch (token.kind) {
            case LITERAL: {
                int[] lit = token.literal;
                if (end - si < lit.length) return -1;
                for (int k = 0; k < lit.length; k++) if (s[si + k] != lit[k]) return -1;
                return si + lit.length;
            }
            case ANY_CHAR:
                return si < end ? si + 1 : -1;
            case CLASS:
                return si < end && inClass(token.className, s[si]) ? si + 1 : -1;
            case CODE:
                if (end - si < 2) return -1;
                return token.codes.contains(new String(s, si, 2)) ? si + 2 : -1;
            default:
                return -1;
        }
    }

    /**
     * Glob matching of {@code s[start..end)} with one backtrack point: every token between two stars has a fixed
     * width, so the leftmost place a star-free segment matches is always the best one.
     */
    private static boolean greedyMatch(Token[] tokens, int[] s, int start, int end) {
        int ti = 0;
        int si = start;
        int starT = -1;
        int starS = start;
        while (true) {
            if (ti < tokens.length) {
                Token token = tokens[ti];
                if (token.kind == Kind.ANY_RUN) {
                    starT = ti;
                    starS = si;
                    ti++;
                    continue;
                }
                if (token.kind == Kind.SUBPATH_TAIL && (si == end || s[si] == '/')) return true;
                int next = step(token, s, si, end);
                if (next >= 0) {
                    ti++;
                    si = next;
                    continue;
                }
            } else if (si == end) {
                return true;
            }
            if (starT < 0 || starS >= end) return false;
            starS++;
            si = starS;
            ti = starT + 1;
        }
    }

    /** Memoised matching for patterns with user variables, whose alternatives have different shapes. */
    private static final class Backtracking {
        private final Token[] tokens;
        private final int[] s;
        private final Map<Long, Boolean> memo = new HashMap<>();

        Backtracking(Token[] tokens, int[] s) {
            this.tokens = tokens;
            this.s = s;
        }

        boolean from(int ti, int si) {
            long key = (long) ti << 32 | si;
            Boolean known = memo.get(key);
            if (known != null) return known;
            boolean result = run(ti, si);
            memo.put(key, result);
            return result;
        }

        private boolean run(int ti, int si) {
            int n = s.length;
            while (ti < tokens.length) {
                Token token = tokens[ti];
                if (token.kind == Kind.ANY_RUN) {
                    for (int k = si; k <= n; k++) if (from(ti + 1, k)) return true;
                    return false;
                }
                if (token.kind == Kind.SUBPATH_TAIL) return si == n || s[si] == '/';
                if (token.kind == Kind.ONE_OF) {
                    for (Token[] value : token.values) {
                        for (int end = si; end <= n; end++) {
                            if (greedyMatch(value, s, si, end) && from(ti + 1, end)) return true;
                        }
                    }
                    return false;
                }
                int next = step(token, s, si, n);
                if (next < 0) return false;
                ti++;
                si = next;
            }
            return si == n;
        }
    }
}
