import Foundation

/// Who holds a bearer token: its id, what it may do, which apps it may do it to, and until when. The
/// transport resolves a call's token to one, and the registry's snapshot keeps one per active token, so both
/// speak this one type.
public struct Principal: Sendable, Hashable, Codable {
    /// The token's id (the actor recorded in the audit log), never the token itself.
    public var id: String
    /// What the token may do: `reader`, `releaser` or `admin`.
    public var role: Access
    /// The apps it may act on; nil: every app (the registry-wide tokens issued before scopes existed).
    public var apps: [String]?
    /// When it stops authenticating; nil: never.
    public var expiresAt: Date?

    public init(id: String, role: Access, apps: [String]? = nil, expiresAt: Date? = nil) {
        self.id = id
        self.role = role
        self.apps = apps
        self.expiresAt = expiresAt
    }

    /// Whether the token may act on `app`.
    public func covers(app: String) -> Bool { apps?.contains(app) ?? true }

    /// Whether the token's scope holds every app of `scope` (nil: every app, which only an all-apps token
    /// holds).
    public func covers(apps scope: [String]?) -> Bool {
        guard let mine = apps else { return true }
        guard let scope else { return false }
        return scope.allSatisfy(mine.contains)
    }
}

/// What part of the registry a call reaches, declared once per method (`RPCMethodDescriptor.scope`) and
/// checked against the caller's token before the handler runs: a token scoped to some apps is refused
/// PERMISSION_DENIED, naming the app, for anything outside them. Reads of a shared domain need one of its
/// apps; writes to it need all of them.
public enum CallScope: Sendable, Hashable {
    /// Nothing app-specific: a public method, or one about the caller itself (`Tokens.WhoAmI`).
    case unscoped
    /// One app's resources (its routes, releases, matrix, links).
    case app(String)
    /// Several apps at once.
    case apps([String])
    /// A new domain: its apps, and the domain whose rules it would serve as an alias (all of whose apps the
    /// token must hold: the alias publishes their sections on another host).
    case newDomain(apps: [String], aliasOf: String?)
    /// A domain: its apps, as the registry holds them.
    case domain(String)
    /// A short link: the app that owns it.
    case link(domain: String, code: String)
    /// An existing token: a scoped admin manages only tokens whose apps it holds.
    case token(String)
    /// A token to create with these apps (nil: every app, which only an all-apps admin may create).
    case newToken(apps: [String]?)
    /// A list the service filters to the caller's apps; `app`, when the call filters by one, must be held.
    case list(app: String?)
}
