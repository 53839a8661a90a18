// The README's "Every entry point" examples. Only the one import the README tells apps to write, plus the
// platform's UI frameworks where they exist: the UIKit, SwiftUI and UserNotifications parts compile on Apple
// platforms (guarded by `#if canImport`), the wiring they call compiles and runs everywhere, Linux included.
import Foundation
import RouteRegistryClient

#if canImport(SwiftUI)
    import SwiftUI
#endif
#if canImport(UserNotifications)
    import UserNotifications
#endif
#if canImport(UIKit)
    import UIKit
#endif

/// An app's one router for links: every delegate below hands its URL to `handle(_:from:)`, which asks the
/// store and shows the route's screen, opens the web page (offering the update when the decision says which
/// version handles it), or passes a foreign scheme on.
final class EntryPointWiring: Sendable {
    let store: CanOpenStore
    /// What the app's router was asked to show, as "route url" (the test's stand-in for screens).
    let routed = Locked<[String]>([])
    /// What was opened in the browser.
    let browsed = Locked<[URL]>([])
    /// The versions the app offered an update to.
    let offeredUpdates = Locked<[String]>([])

    init(store: CanOpenStore) { self.store = store }

    // README: begin wiring
    @discardableResult
    func handle(_ url: URL, from source: LinkSource) async -> LinkOpening {
        let opening = await store.open(url, from: source)
        switch opening.route {
        case .openInApp(let route, let target):
            routed.withLock { $0.append("\(route) \(target.absoluteString)") }  // router.show(route, target)
        case .openInBrowser(let web):
            if let version = opening.supportedSince {
                offeredUpdates.withLock { $0.append(version) }  // "Update to \(version) to open this"
            }
            browsed.withLock { $0.append(web) }  // UIApplication.shared.open(web) / SFSafariViewController
        case .passThrough:
            break  // an OAuth callback, an SDK's scheme: hand it to its owner
        case .ignore:
            break
        }
        return opening
    }

    /// A notification's or quick action's payload: `userInfo["url"]`.
    @discardableResult
    func handle(payload: [AnyHashable: Any], from source: LinkSource) async -> LinkOpening? {
        guard let url = LinkSource.url(in: payload) else { return nil }
        return await handle(url, from: source)
    }
    // README: end wiring

    /// `link` delivered once from every source, the way each delegate below receives it.
    func deliverFromEverySource(_ link: String) async -> [(LinkSource, LinkOpening)] {
        let url = URL(string: link)!
        var out: [(LinkSource, LinkOpening)] = []
        for source in LinkSource.allCases {
            let opening: LinkOpening?
            switch source {
            case .notification:
                opening = await handle(payload: ["url": link, "aps": ["alert": "Hi"]], from: .notification)
            case .shortcut:
                opening = await handle(payload: ["url": url], from: .shortcut)
            default:
                opening = await handle(url, from: source)
            }
            if let opening { out.append((source, opening)) }
        }
        return out
    }
}

#if canImport(SwiftUI)
    /// SwiftUI: universal links and custom schemes arrive in `onOpenURL`, widget taps too (`widgetURL`).
    @available(iOS 17, macOS 14, *)
    struct LinkRootView: View {
        let links: EntryPointWiring

        var body: some View {
            Text("Badoo")
                .onOpenURL { url in
                    let source: LinkSource =
                        LinkURL.isWebScheme(url.scheme?.lowercased() ?? "") ? .universalLink : .customScheme
                    Task { await links.handle(url, from: source) }
                }
                .onContinueUserActivity(NSUserActivityTypeBrowsingWeb) { activity in
                    if let url = activity.webpageURL { Task { await links.handle(url, from: .universalLink) } }
                }
        }
    }
#endif

#if canImport(UserNotifications) && !os(tvOS)
    /// Notifications: the tapped notification's `userInfo["url"]`.
    final class NotificationLinks: NSObject, UNUserNotificationCenterDelegate {
        let links: EntryPointWiring

        init(links: EntryPointWiring) { self.links = links }

        func userNotificationCenter(
            _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse
        ) async {
            let userInfo = response.notification.request.content.userInfo
            guard let url = LinkSource.url(in: userInfo) else { return }
            await links.handle(url, from: .notification)
        }
    }
#endif

#if canImport(UIKit) && os(iOS)
    /// Home-screen quick actions: `UIApplicationShortcutItem.userInfo["url"]`.
    @MainActor
    final class ShortcutLinks: NSObject, UIWindowSceneDelegate {
        var links: EntryPointWiring?

        func windowScene(
            _ windowScene: UIWindowScene, performActionFor shortcutItem: UIApplicationShortcutItem,
            completionHandler: @escaping (Bool) -> Void
        ) {
            guard let links, let payload = shortcutItem.userInfo, let url = LinkSource.url(in: payload) else {
                return completionHandler(false)
            }
            Task { await links.handle(url, from: .shortcut) }
            completionHandler(true)  // handled; the task shows the screen (or the browser) when it is decided
        }
    }
#endif
