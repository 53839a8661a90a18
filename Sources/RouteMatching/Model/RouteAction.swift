/// What a matching route decides.
public enum RouteAction: String, Sendable, Hashable, Codable {
    /// Open in the app, for the versions that handle the route.
    case open
    /// Never the app: always the browser (Apple's `exclude: true`).
    case exclude
}
