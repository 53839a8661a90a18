package com.routeregistry.client.android;

import android.app.Activity;
import android.content.ActivityNotFoundException;
import android.content.Context;
import android.content.Intent;
import android.content.pm.PackageManager;
import android.content.pm.ResolveInfo;
import android.net.Uri;
import android.os.Bundle;
import com.routeregistry.client.CanOpenStore;
import com.routeregistry.client.Decision;

/**
 * The Android side of the documented pattern, for the Activity that receives App Links (and custom-scheme links):
 * decide locally with a {@link CanOpenStore}, show the link when this version handles it, otherwise open the
 * fallback URL in the browser, in a Custom Tab where the browser supports them.
 *
 * <p>The browser is addressed by package: before Android 15 an App Link intent filter cannot exclude the
 * fallback marker, so an implicit {@code ACTION_VIEW} of the marked URL could come straight back to this app.
 *
 * <p>Tested on the JVM against stand-ins of the framework classes only (see {@code src/stubs}); not run on a
 * device here.
 */
public final class AppLinkRouter {
    /** The Custom Tabs session extra (a null binder asks for a tab without a session); no support library needed. */
    static final String EXTRA_CUSTOM_TABS_SESSION = "android.support.customtabs.extra.SESSION";

    private final CanOpenStore store;

    public AppLinkRouter(CanOpenStore store) {
        this.store = store;
    }

    /**
     * For {@code onCreate} and {@code onNewIntent}: true when this version should show the intent's link (the
     * caller then routes {@code intent.getData()} to its screen). Otherwise the link has been sent to the browser
     * (or there was nothing to send) and the caller should {@code finish()} a trampoline Activity.
     */
    public boolean handleOrFallBack(Activity activity, Intent intent) {
        Uri data = intent == null ? null : intent.getData();
        if (data == null) return false;
        String url = data.toString();
        Decision decision = store.decide(url);
        switch (decision.decision) {
            case OPEN_IN_APP:
                return true;
            case NOT_ASSOCIATED:
                // Not one of the app's hosts or schemes: handing it back to the system could bring it right back.
                return false;
            default:
                String fallback = store.fallbackUrl(url);
                if (fallback != null) openInBrowser(activity, fallback);
                return false;
        }
    }

    /**
     * Opens {@code url} in the default browser, as a Custom Tab where supported; falls back to any browser that
     * takes an explicit {@code ACTION_VIEW}. Returns false when no browser could be started.
     */
    public static boolean openInBrowser(Context context, String url) {
        Intent intent = new Intent(Intent.ACTION_VIEW, Uri.parse(url));
        intent.addCategory(Intent.CATEGORY_BROWSABLE);
        Bundle extras = new Bundle();
        extras.putBinder(EXTRA_CUSTOM_TABS_SESSION, null);
        intent.putExtras(extras);
        String browser = defaultBrowser(context);
        if (browser != null) intent.setPackage(browser);
        if (!(context instanceof Activity)) intent.addFlags(Intent.FLAG_ACTIVITY_NEW_TASK);
        try {
            context.startActivity(intent);
            return true;
        } catch (ActivityNotFoundException e) {
            return false;
        }
    }

    /**
     * The package of the default browser: what handles a neutral web URL. Null when that is the resolver (no
     * default chosen) or this app itself, in which case the system chooser is left to the user.
     */
    static String defaultBrowser(Context context) {
        Intent probe = new Intent(Intent.ACTION_VIEW, Uri.parse("https://example.invalid/"));
        probe.addCategory(Intent.CATEGORY_BROWSABLE);
        ResolveInfo info = context.getPackageManager().resolveActivity(probe, PackageManager.MATCH_DEFAULT_ONLY);
        if (info == null || info.activityInfo == null) return null;
        String name = info.activityInfo.packageName;
        if (name == null || name.equals("android") || name.equals(context.getPackageName())) return null;
        return name;
    }
}
