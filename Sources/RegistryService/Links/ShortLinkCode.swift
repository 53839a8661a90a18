/// Short link codes: drawn ones from an alphabet without look-alikes, custom ones from a plain set, none
/// that a path of the server already answers.
public enum ShortLinkCode {
    /// Digits and letters without `0 O o 1 l I`, which readers confuse.
    public static let alphabet = Array("23456789abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ")
    /// Length of a drawn code: 54⁷ ≈ 1.3 × 10¹² codes per domain.
    public static let drawnLength = 7
    /// Paths a link domain answers itself.
    static let reserved: Set<String> = [
        "apple-app-site-association", "healthz", "livez", "readyz", "metrics", "version", "rpc", "console",
        "canopen",
    ]

    /// A random code.
    public static func draw() -> String {
        var generator = SystemRandomNumberGenerator()
        return String((0..<drawnLength).map { _ in alphabet.randomElement(using: &generator)! })
    }

    /// Why a custom code cannot be used, or nil when it can.
    static func refusal(_ code: String) -> String? {
        guard (1...64).contains(code.utf8.count),
            code.utf8.allSatisfy({
                ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || $0 == 0x2D || $0 == 0x5F
            })
        else { return "must be 1 to 64 of A-Z a-z 0-9 - _" }
        if reserved.contains(code.lowercased()) { return "is a path the link domain answers itself" }
        return nil
    }
}
