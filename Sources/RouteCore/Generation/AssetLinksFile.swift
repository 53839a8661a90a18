/// One statement of `assetlinks.json` (Digital Asset Links), with the Android 15 dynamic rules.
public struct AssetLinksStatement: Sendable, Hashable, Codable {
    /// Always `delegate_permission/common.handle_all_urls`.
    public var relation: [String]
    /// The Android app.
    public var target: Target
    /// `{"delegate_permission/common.handle_all_urls": {"dynamic_app_link_components": [...]}}`.
    public var relationExtensions: [String: DynamicRules]?

    /// The app the statement names.
    public struct Target: Sendable, Hashable, Codable {
        /// Always `android_app`.
        public var namespace: String
        /// The application ID.
        public var packageName: String
        /// Signing certificate fingerprints.
        public var sha256CertFingerprints: [String]

        enum CodingKeys: String, CodingKey {
            case namespace
            case packageName = "package_name"
            case sha256CertFingerprints = "sha256_cert_fingerprints"
        }
    }

    /// Android 15 dynamic App Links rules.
    public struct DynamicRules: Sendable, Hashable, Codable {
        /// The rules, in evaluation order.
        public var dynamicAppLinkComponents: [Component]

        enum CodingKeys: String, CodingKey {
            case dynamicAppLinkComponents = "dynamic_app_link_components"
        }
    }

    /// One dynamic rule. Android only takes a dictionary for `?`, and spells the comment `comments`.
    public struct Component: Sendable, Hashable, Codable {
        /// Path pattern (`/`).
        public var path: String?
        /// Query items (`?`).
        public var query: [String: String]?
        /// Fragment pattern (`#`).
        public var fragment: String?
        /// `true` when a match means "not the app".
        public var exclude: Bool?
        /// Names the route the rule came from.
        public var comments: String?

        enum CodingKeys: String, CodingKey {
            case path = "/"
            case query = "?"
            case fragment = "#"
            case exclude, comments
        }
    }

    enum CodingKeys: String, CodingKey {
        case relation, target
        case relationExtensions = "relation_extensions"
    }
}
