/// How a webhook delivery is signed, as Stripe and Dub sign theirs: the header
/// `RouteRegistry-Signature: t={unix seconds},v1={hex HMAC-SHA256(secret, "{t}.{body}")}`. A receiver recomputes
/// the HMAC over the raw body with the secret `Webhooks.Create` returned, compares in constant time, and refuses
/// a `t` too far from its clock (five minutes is usual), so a captured delivery cannot be replayed later.
public enum WebhookSignature {
    public static let header = "RouteRegistry-Signature"

    /// The header's value for `body` sent at `timestamp`.
    public static func header(secret: String, timestamp: Int, body: [UInt8]) -> String {
        "t=\(timestamp),v1=\(hex(hmac(key: Array(secret.utf8), message: Array("\(timestamp).".utf8) + body)))"
    }

    /// Whether `header` signs `body` with `secret`, its time within `tolerance` seconds of `now`.
    public static func verify(header: String, secret: String, body: [UInt8], now: Int, tolerance: Int = 300) -> Bool {
        var timestamp: Int?
        var signatures: [String] = []
        for part in header.split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2 else { continue }
            if pair[0] == "t" { timestamp = Int(pair[1]) } else if pair[0] == "v1" { signatures.append(pair[1]) }
        }
        guard let timestamp, abs(now - timestamp) <= tolerance else { return false }
        let expected = Array(hex(hmac(key: Array(secret.utf8), message: Array("\(timestamp).".utf8) + body)).utf8)
        return signatures.contains { constantTimeEqual(Array($0.utf8), expected) }
    }

    /// HMAC-SHA256 (RFC 2104) over the project's SHA-256.
    public static func hmac(key: [UInt8], message: [UInt8]) -> [UInt8] {
        let blockSize = 64
        var key = key.count > blockSize ? SHA256.digest(key) : key
        key += [UInt8](repeating: 0, count: blockSize - key.count)
        let inner = SHA256.digest(key.map { $0 ^ 0x36 } + message)
        return SHA256.digest(key.map { $0 ^ 0x5C } + inner)
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes { out += [digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]] }
        return String(decoding: out, as: UTF8.self)
    }

    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for i in a.indices { difference |= a[i] ^ b[i] }
        return difference == 0
    }
}
