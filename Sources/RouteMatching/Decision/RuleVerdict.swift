/// What the first matching rule means for one app version: the part of a decision that depends on the
/// version. The decision engine derives it from the route; a canOpen table stores it per rule.
public enum RuleVerdict: String, Sendable, Hashable, Codable {
    /// The version opens the rule's links in the app.
    case open
    /// An `exclude` rule: always the browser.
    case exclude
    /// In range but switched off for this version: fall back to the browser.
    case switchedOff = "switched_off"
    /// Not handled by this version: fall back to the browser.
    case unsupported
}
