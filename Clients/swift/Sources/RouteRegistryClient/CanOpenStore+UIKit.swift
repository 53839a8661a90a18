#if canImport(UIKit) && !os(watchOS)
    import Foundation
    import RouteCore
    import UIKit

    extension CanOpenStore {
        /// The documented iOS pattern in one call, for `application(_:continue:restorationHandler:)`,
        /// `scene(_:continue:)` and `onOpenURL`: returns true when this version should handle `url`;
        /// otherwise opens the fallback URL in Safari (the marker keeps iOS from sending it back here)
        /// and returns false.
        ///
        /// A `not_associated` link (a host or scheme the table does not know) is neither handled nor
        /// reopened: sending it to the system again could bring it straight back to the app.
        @MainActor
        @available(iOSApplicationExtension, unavailable)
        public func handleOrFallBack(_ url: URL) -> Bool {
            let decision = decide(url)
            switch decision.decision {
            case .openInApp:
                return true
            case .notAssociated:
                return false
            case .openInBrowser:
                if let fallback = fallbackURL(for: url) {
                    UIApplication.shared.open(fallback, options: [:], completionHandler: nil)
                }
                return false
            }
        }
    }
#endif
