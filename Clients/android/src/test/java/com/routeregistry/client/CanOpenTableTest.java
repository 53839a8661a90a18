package com.routeregistry.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Table evaluation and fallback URLs on hand-written tables, for the rules a random test rarely reaches: marker
 * spellings, fragments, custom-scheme hosts and ports, templates, unknown verdicts, damaged indices.
 */
class CanOpenTableTest {
    private static final String TABLE = "{\"app\":\"badoo\",\"platform\":\"android\",\"version\":5120,"
            + "\"fallback\":{\"queryItem\":\"ul_fallback\",\"value\":\"1\"},"
            + "\"rules\":["
            + "{\"route\":\"help\",\"path\":\"/help/*\",\"action\":\"exclude\",\"verdict\":\"exclude\",\"caseSensitive\":true,\"percentEncoded\":true},"
            + "{\"route\":\"profile\",\"path\":\"/$(lang)/u/*\",\"action\":\"open\",\"verdict\":\"open\",\"caseSensitive\":false,\"percentEncoded\":false},"
            + "{\"route\":\"lookalikes\",\"path\":\"/l/$(kind)/*\",\"action\":\"open\",\"verdict\":\"unsupported\",\"supportedSince\":\"5130\",\"caseSensitive\":true,\"percentEncoded\":true},"
            + "{\"route\":\"chat\",\"path\":\"/chat\",\"query\":{\"id\":\"$(digit)*\"},\"action\":\"open\",\"verdict\":\"switched_off\",\"caseSensitive\":true,\"percentEncoded\":true},"
            + "{\"route\":\"future\",\"path\":\"/f\",\"action\":\"open\",\"verdict\":\"teleport\",\"caseSensitive\":true,\"percentEncoded\":true},"
            + "{\"route\":\"offer\",\"path\":\"/offer/*\",\"action\":\"open\",\"verdict\":\"unsupported\",\"supportedSince\":\"6000\","
            + "\"caseSensitive\":true,\"percentEncoded\":true,\"webFallback\":\"https://badoo.com/web{path}?{query}\"},"
            + "{\"route\":\"deep\",\"path\":\"/deep/*\",\"action\":\"open\",\"verdict\":\"open\",\"caseSensitive\":true,\"percentEncoded\":true}],"
            + "\"domains\":[{\"name\":\"M.Badoo.com\",\"rules\":[0,1,2,3,4,99,-1],\"substitutionVariables\":{\"kind\":[\"a\",\"b\"]}}],"
            + "\"schemes\":[{\"name\":\"badoo\",\"rules\":[5,6]}]}";

    private static final CanOpenTable table = CanOpenTable.fromJson(Repo.parse(TABLE));

    private static Decision browser(String reason, String route, String fallback, String since) {
        return new Decision(Decision.Outcome.OPEN_IN_BROWSER, reason, route, fallback, since);
    }

    @Test
    void webLinksFollowTheFirstMatchingRuleOfTheirHost() {
        assertEquals(new Decision(Decision.Outcome.OPEN_IN_APP, "route", "profile", null, null),
                table.decide("https://m.badoo.com/EN/U/%31"));
        assertEquals(browser("excluded", "help", "https://m.badoo.com/help/x?ul_fallback=1", null),
                table.decide("https://m.badoo.com/help/x"));
        assertEquals(browser("unsupported_version", "lookalikes", "https://m.badoo.com/l/b/42?ul_fallback=1#top", "5130"),
                table.decide("https://m.badoo.com/l/b/42#top"));
        assertEquals("no_route", table.decide("https://m.badoo.com/l/c/42").reason, "$(kind) is a or b");
        assertEquals(browser("switched_off", "chat", "https://m.badoo.com/chat?id=7&ul_fallback=1", null),
                table.decide("https://m.badoo.com/chat?id=7"));
        assertEquals("no_route", table.decide("https://m.badoo.com/chat?id=x").reason);
        assertEquals(browser("no_route", null, "https://m.badoo.com/nothing?ul_fallback=1", null),
                table.decide("https://m.badoo.com/nothing?ul_fallback="), "an empty marker is no marker, and is replaced");
        assertEquals(Decision.NOT_ASSOCIATED, table.decide("https://badoo.com/en/u/1"));
        assertEquals(Decision.NOT_ASSOCIATED, table.decide("not a url"));
        assertEquals("profile", table.decide("https://user@M.BADOO.COM.:443/en/u/1").route);
    }

    @Test
    void theMarkerKeepsALinkInTheBrowserWhateverItsPath() {
        assertEquals(browser("fallback_marker", null, null, null), table.decide("https://m.badoo.com/en/u/1?ul_fallback=1"));
        assertEquals("fallback_marker", table.decide("https://m.badoo.com/x?a=1&ul_fallback=yes#f").reason);
        assertEquals("route", table.decide("https://m.badoo.com/en/u/1?ul_fallback").reason, "a valueless marker is none");
    }

    @Test
    void anUnknownVerdictFallsBackToTheBrowser() {
        Decision decision = table.decide("https://m.badoo.com/f");
        assertEquals(Decision.Outcome.OPEN_IN_BROWSER, decision.decision);
        assertEquals("future", decision.route);
        assertEquals("https://m.badoo.com/f?ul_fallback=1", decision.fallbackUrl);
    }

    @Test
    void customSchemesReadTheHostAsTheFirstPathSegment() {
        assertEquals(browser("unsupported_version", "offer", "https://badoo.com/web/offer/7?a=b&ul_fallback=1", "6000"),
                table.decide("BADOO://Offer:12/7?a=b"));
        assertEquals(new Decision(Decision.Outcome.OPEN_IN_APP, "route", "deep", null, null), table.decide("badoo:/deep/1"));
        assertEquals(browser("no_route", null, null, null), table.decide("badoo://other"));
        assertEquals(Decision.NOT_ASSOCIATED, table.decide("other://offer/1"));
    }

    @Test
    void tablesAreForOneVersionComparedNumerically() {
        assertTrue(table.isFor("badoo", "android", Version.parse("5120.0")));
        assertFalse(table.isFor("badoo", "android", Version.parse("5121")));
        assertFalse(table.isFor("badoo", "ios", Version.parse("5120")));
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> CanOpenTable.fromJson(Repo.parse("{\"app\":\"a\",\"platform\":\"android\",\"version\":\"5.x\"}")));
        assertTrue(error.getMessage().contains("5.x"), error.getMessage());
        assertThrows(IllegalArgumentException.class, () -> CanOpenTable.fromJson(Repo.parse(
                "{\"app\":\"a\",\"platform\":\"android\",\"version\":\"1\",\"rules\":[{\"route\":\"r\",\"query\":[1]}]}")));
    }

    @Test
    void fallbackUrlsCarryExactlyOneMarkerBeforeTheFragment() {
        FallbackPolicy marker = FallbackPolicy.DEFAULT;
        assertEquals("https://h/p?ul_fallback=1", FallbackUrl.make("https://h/p", marker));
        assertEquals("https://h/p?ul_fallback=1", FallbackUrl.make("https://h/p?", marker));
        assertEquals("https://h/p?a=1&ul_fallback=1#frag", FallbackUrl.make("https://h/p?a=1#frag", marker));
        assertEquals("https://h/p?a=1&ul_fallback=1", FallbackUrl.make("https://h/p?ul_fallback=&a=1", marker));
        assertEquals("https://h/p?a&ul_fallback=1", FallbackUrl.make("https://h/p?ul%5Ffallback=0&&a", marker));
        assertEquals("https://h/p?%ZZ=1&ul_fallback=1", FallbackUrl.make("https://h/p?%ZZ=1", marker));
        assertEquals("https://h/p?ul_fallback=1#x?y", FallbackUrl.make("https://h/p#x?y", marker));
        assertEquals("https://h/p?from%20app=%C3%A9", FallbackUrl.make("https://h/p", new FallbackPolicy("from app", "é")));
    }

    @Test
    void versionsParseAsTheServerAcceptsThem() {
        assertEquals(Version.parse("5.12"), Version.parse("5.12.0.0"));
        assertTrue(Version.parse("5.9").compareTo(Version.parse("5.12")) < 0);
        assertTrue(Version.ofVersionCode(51200).compareTo(Version.parse("5120")) > 0);
        assertEquals("5.1.0", Version.parse("05.01.0").toString());
        assertEquals(Version.parse("2147483647"), Version.ofVersionCode(Integer.MAX_VALUE));
        String[][] refused = {{"", "is empty"}, {"5.", "has an empty component"}, {".5", "has an empty component"},
                {"1.2.3.4.5", "has more than 4 components"}, {"5.x", "must be 1 to 4"}, {"2147483648", "above 2147483647"},
                {"-1", "must be 1 to 4"}, {" 5", "must be 1 to 4"}};
        for (String[] bad : refused) {
            IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> Version.parse(bad[0]));
            assertTrue(error.getMessage().contains(bad[1]), bad[0] + ": " + error.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> Version.ofVersionCode(-1));
    }
}
