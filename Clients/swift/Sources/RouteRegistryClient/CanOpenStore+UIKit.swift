#if canImport(UIKit) && !os(watchOS)
    import Foundation
    import RouteMatching
    import UIKit

    extension CanOpenStore {
        /// The documented iOS pattern in one call, for `application(_:continue:restorationHandler:)`,
        /// `scene(_:continue:)` and `onOpenURL`: returns true when the app should route `url` itself (this
        /// version handles it, or it is a custom scheme the registry does not manage, such as an OAuth
        /// callback: `route(_:)` says `passThrough`); otherwise opens the fallback URL in Safari (the marker
        /// keeps iOS from sending it back here) and returns false.
        ///
        /// A `not_associated` web link (a host the table does not know) is neither handled nor reopened:
        /// sending it to the system again could bring it straight back to the app.
        @MainActor
        @available(iOSApplicationExtension, unavailable)
        public func handleOrFallBack(_ url: URL) -> Bool {
            switch route(url) {
            case .openInApp, .passThrough:
                return true
            case .ignore:
                return false
            case .openInBrowser(let fallback):
                UIApplication.shared.open(fallback, options: [:], completionHandler: nil)
                return false
            }
        }
    }
#endif
