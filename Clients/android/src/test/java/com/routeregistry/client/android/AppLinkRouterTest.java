package com.routeregistry.client.android;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import android.app.Activity;
import android.content.ActivityNotFoundException;
import android.content.Intent;
import android.content.pm.ActivityInfo;
import android.content.pm.PackageManager;
import android.content.pm.ResolveInfo;
import android.net.Uri;
import com.routeregistry.client.CanOpenStore;
import com.routeregistry.client.RouteRegistryClient;
import com.routeregistry.client.Version;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The glue's logic against the framework stand-ins in {@code src/stubs} (no device here): which links stay in
 * the app, which go to the browser, and that the browser is addressed by package and asked for a Custom Tab.
 */
class AppLinkRouterTest {
    private static final String TABLE = "{\"etag\":\"\\\"e\\\"\",\"notModified\":false,\"table\":{\"app\":\"badoo\","
            + "\"platform\":\"android\",\"version\":\"5110\",\"fallback\":{\"queryItem\":\"ul_fallback\",\"value\":\"1\"},"
            + "\"rules\":[{\"route\":\"profile\",\"path\":\"/u/*\",\"action\":\"open\",\"verdict\":\"open\",\"caseSensitive\":true,"
            + "\"percentEncoded\":true},{\"route\":\"lookalikes\",\"path\":\"/l/a/*\",\"action\":\"open\",\"verdict\":\"unsupported\","
            + "\"supportedSince\":\"5120\",\"caseSensitive\":true,\"percentEncoded\":true}],"
            + "\"domains\":[{\"name\":\"m.badoo.com\",\"rules\":[0,1]}],\"schemes\":[{\"name\":\"badoo\",\"rules\":[]}]}}";

    /** An Activity recording what it starts; the default browser is {@code browser} (null: none chosen). */
    private static final class RecordingActivity extends Activity {
        final List<Intent> started = new ArrayList<>();
        final String browser;
        boolean noBrowser;

        RecordingActivity(String browser) {
            this.browser = browser;
        }

        @Override
        public String getPackageName() {
            return "com.badoo.mobile";
        }

        @Override
        public PackageManager getPackageManager() {
            return new PackageManager() {
                @Override
                public ResolveInfo resolveActivity(Intent intent, int flags) {
                    ResolveInfo info = new ResolveInfo();
                    info.activityInfo = new ActivityInfo();
                    info.activityInfo.packageName = browser == null ? "android" : browser;
                    return info;
                }
            };
        }

        @Override
        public void startActivity(Intent intent) {
            if (noBrowser) throw new ActivityNotFoundException("no browser");
            started.add(intent);
        }

        @Override
        public void finish() {}
    }

    private static AppLinkRouter router() {
        CanOpenStore store = CanOpenStore.builder(new RouteRegistryClient("http://127.0.0.1:9"), "badoo",
                Version.ofVersionCode(5110)).bundledTable(new ByteArrayInputStream(TABLE.getBytes(StandardCharsets.UTF_8))).build();
        return new AppLinkRouter(store);
    }

    private static Intent view(String url) {
        return new Intent(Intent.ACTION_VIEW, Uri.parse(url));
    }

    @Test
    void aLinkThisVersionHandlesStaysInTheApp() {
        RecordingActivity activity = new RecordingActivity("org.mozilla.firefox");
        assertTrue(router().handleOrFallBack(activity, view("https://m.badoo.com/u/1")));
        assertTrue(activity.started.isEmpty());
    }

    @Test
    void anUnsupportedLinkOpensItsFallbackInTheDefaultBrowsersCustomTab() {
        RecordingActivity activity = new RecordingActivity("org.mozilla.firefox");
        assertFalse(router().handleOrFallBack(activity, view("https://m.badoo.com/l/a/42")));
        assertEquals(1, activity.started.size());
        Intent intent = activity.started.get(0);
        assertEquals(Intent.ACTION_VIEW, intent.getAction());
        assertEquals("https://m.badoo.com/l/a/42?ul_fallback=1", intent.getData().toString());
        assertEquals("org.mozilla.firefox", intent.getPackage(), "addressed to the browser, never back to the app");
        assertTrue(intent.getCategories().contains(Intent.CATEGORY_BROWSABLE));
        assertTrue(intent.getExtras().containsKey(AppLinkRouter.EXTRA_CUSTOM_TABS_SESSION));
        assertEquals(0, intent.getFlags() & Intent.FLAG_ACTIVITY_NEW_TASK, "started from an Activity: same task");
    }

    @Test
    void aMarkedLinkThatReachedTheAppGoesBackToTheBrowserUnchanged() {
        RecordingActivity activity = new RecordingActivity("com.android.chrome");
        assertFalse(router().handleOrFallBack(activity, view("https://m.badoo.com/u/1?ul_fallback=1")));
        assertEquals("https://m.badoo.com/u/1?ul_fallback=1", activity.started.get(0).getData().toString());
    }

    @Test
    void withoutADefaultBrowserTheSystemChooses() {
        RecordingActivity activity = new RecordingActivity(null);
        assertFalse(router().handleOrFallBack(activity, view("https://m.badoo.com/nothing")));
        assertNull(activity.started.get(0).getPackage());
        assertNull(AppLinkRouter.defaultBrowser(activity));
    }

    @Test
    void foreignLinksAndMissingBrowsersStartNothing() {
        RecordingActivity activity = new RecordingActivity("com.android.chrome");
        assertFalse(router().handleOrFallBack(activity, view("https://elsewhere.example/u/1")));
        assertFalse(router().handleOrFallBack(activity, view("badoo://other")), "no web page for this scheme link");
        assertFalse(router().handleOrFallBack(activity, null));
        assertTrue(activity.started.isEmpty());
        activity.noBrowser = true;
        assertFalse(AppLinkRouter.openInBrowser(activity, "https://m.badoo.com/x"));
    }
}
