package com.routeregistry.client.android;

import android.app.Activity;
import android.content.Intent;
import android.net.Uri;
import com.routeregistry.client.CanOpenStore;
import com.routeregistry.client.LinkOpening;
import com.routeregistry.client.LinkSource;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executor;

/**
 * One router for every way a URL reaches the app: App Links and custom schemes (the Activity's intent), notifications
 * (an FCM data message's {@code url}, shown as a notification whose tap opens {@link #viewIntent}), launcher
 * shortcuts and widgets (their intents, made with {@link #viewIntent}), in-app messages (a URL). Each goes through
 * {@link CanOpenStore#open}, so short links are resolved and every source reaches the same decision; the app's
 * {@link Router} is told the registry's route ID to show, the browser gets everything else.
 *
 * <p>Tested on the JVM against stand-ins of the framework classes only (see {@code src/stubs}).
 */
public final class LinkEntryPoint {
    /** The intent extra naming the {@link LinkSource} of an intent the app made itself (notification, shortcut). */
    public static final String EXTRA_SOURCE = "com.routeregistry.client.SOURCE";

    /** The app's screens: shows the screen of {@code route} (the registry's route ID) for {@code url}. */
    public interface Router {
        void show(String route, String url, LinkOpening opening);
    }

    private final CanOpenStore store;
    private final Router router;

    public LinkEntryPoint(CanOpenStore store, Router router) {
        this.store = store;
        this.router = router;
    }

    /**
     * An {@code ACTION_VIEW} intent for {@code url} from {@code source}, for a notification's tap
     * ({@code PendingIntent.getActivity}), a launcher shortcut ({@code ShortcutInfo.Builder.setIntent}) or a
     * widget's click; set the receiving Activity's class on it as usual.
     */
    public static Intent viewIntent(String url, LinkSource source) {
        Intent intent = new Intent(Intent.ACTION_VIEW, Uri.parse(url));
        intent.putExtra(EXTRA_SOURCE, source.name());
        return intent;
    }

    /** Where an intent's URL came from: the source the app stamped on it, else an App Link or a custom scheme. */
    public static LinkSource sourceOf(Intent intent) {
        String stamped = intent.getStringExtra(EXTRA_SOURCE);
        if (stamped != null) {
            try {
                return LinkSource.valueOf(stamped);
            } catch (IllegalArgumentException e) {
                // Another build's name: fall through to the URL's scheme.
            }
        }
        Uri data = intent.getData();
        String text = data == null ? "" : data.toString().toLowerCase(Locale.ROOT);
        return text.startsWith("https:") || text.startsWith("http:") ? LinkSource.APP_LINK : LinkSource.CUSTOM_SCHEME;
    }

    /** The URL of an FCM data message ({@code RemoteMessage.getData()}): its {@code url}, or null. */
    public static String url(Map<String, String> data) {
        String url = data == null ? null : data.get("url");
        return url == null || url.trim().isEmpty() ? null : url.trim();
    }

    /**
     * For {@code FirebaseMessagingService.onMessageReceived} (a background thread): resolves the message's short link
     * now, so the tap on the notification the app shows decides at once, offline too. Null without a URL.
     */
    public LinkOpening prefetch(Map<String, String> data) {
        String url = url(data);
        return url == null ? null : store.open(url, LinkSource.NOTIFICATION);
    }

    /**
     * Decides the intent's URL and acts on it: the router shows the route's screen, or the browser opens the
     * fallback (a Custom Tab addressed to the default browser). Blocks up to the store's short-link timeout: call it
     * off the main thread, or use {@link #handleAsync}. Null when the intent has no URL.
     */
    public LinkOpening handle(Activity activity, Intent intent) {
        Uri data = intent == null ? null : intent.getData();
        if (data == null) return null;
        return act(activity, store.open(data.toString(), sourceOf(intent)));
    }

    /** A URL the app has in hand (an in-app message's button): decided and acted on as {@link #handle} does. */
    public LinkOpening handle(Activity activity, String url, LinkSource source) {
        return act(activity, store.open(url, source));
    }

    /**
     * {@link #handle(Activity, Intent)} with the resolution on {@code background} and the action on {@code main}
     * ({@code activity.getMainExecutor()}), for {@code onCreate} and {@code onNewIntent}.
     */
    public void handleAsync(Activity activity, Intent intent, Executor background, Executor main) {
        Uri data = intent == null ? null : intent.getData();
        if (data == null) return;
        LinkSource source = sourceOf(intent);
        store.openAsync(data.toString(), source, background).thenAcceptAsync(opening -> act(activity, opening), main);
    }

    private LinkOpening act(Activity activity, LinkOpening opening) {
        switch (opening.action) {
            case OPEN_IN_APP:
                router.show(opening.route, opening.target, opening);
                break;
            case OPEN_IN_BROWSER:
                AppLinkRouter.openInBrowser(activity, opening.target);
                break;
            default:
                break;
        }
        return opening;
    }
}
