import Foundation
import JSONBytes

/// What a delivered document means, as a hash: two documents with the same meaning have the same hash,
/// whatever their key order, whitespace or escapes. The delivery watch matches what Apple's CDN or Google
/// serves to our revisions by it, so a CDN that re-serialises the file still matches the revision it copied.
public enum DeliveryMeaning {
    /// The relation Google's Digital Asset Links API is asked about, and the one App Links verification uses.
    public static let handleAllURLs = "delegate_permission/common.handle_all_urls"

    /// Why a body has no meaning.
    public enum Failure: Error, Sendable, Equatable {
        /// Not strict JSON (RFC 8259): iOS ignores such a file whole.
        case invalidJSON(String)
        /// JSON, but not the shape expected (Google's answer without a statements list, say).
        case unexpectedShape(String)
    }

    /// The meaning of an AASA (or any JSON document): SHA-256 of its canonical JSON (sorted keys, no
    /// insignificant whitespace, one spelling per string and number).
    public static func document(_ bytes: Data) -> Result<String, Failure> {
        switch value(bytes) {
        case .failure(let failure): return .failure(failure)
        case .success(let value): return canonicalHash(value)
        }
    }

    /// The meaning of one of our `assetlinks.json` revisions as Google's `statements:list` reports it: the
    /// sorted set of (package, certificate fingerprint) pairs the file grants `handle_all_urls` to. Dynamic
    /// rules and other relations are not part of what the API lists, so two revisions differing only there
    /// have the same meaning (the newest of them is the match).
    public static func assetLinksFile(_ bytes: Data) -> Result<String, Failure> {
        switch value(bytes) {
        case .failure(let failure): return .failure(failure)
        case .success(let value):
            guard case .array(let statements) = value else { return .failure(.unexpectedShape("not an array")) }
            var pairs: Set<String> = []
            for case .object(let statement) in statements {
                guard case .array(let relations)? = statement["relation"],
                    relations.contains(.string(handleAllURLs)),
                    case .object(let target)? = statement["target"],
                    case .string(let package)? = target["package_name"],
                    case .array(let fingerprints)? = target["sha256_cert_fingerprints"]
                else { continue }
                for case .string(let fingerprint) in fingerprints { pairs.insert(pair(package, fingerprint)) }
            }
            return canonicalHash(.array(pairs.sorted().map(JSONValue.string)))
        }
    }

    /// The meaning of Google's `statements:list` answer, comparable with `assetLinksFile`'s: the Android apps
    /// (package, fingerprint) it lists for the relation. No `statements` member means none.
    public static func statementsList(_ bytes: Data) -> Result<String, Failure> {
        switch value(bytes) {
        case .failure(let failure): return .failure(failure)
        case .success(let value):
            guard case .object(let answer) = value else { return .failure(.unexpectedShape("not an object")) }
            var pairs: Set<String> = []
            if let statements = answer["statements"] {
                guard case .array(let list) = statements else {
                    return .failure(.unexpectedShape("statements is not a list"))
                }
                for case .object(let statement) in list {
                    if case .string(let relation)? = statement["relation"], relation != handleAllURLs { continue }
                    guard case .object(let target)? = statement["target"],
                        case .object(let app)? = target["androidApp"],
                        case .string(let package)? = app["packageName"],
                        case .object(let certificate)? = app["certificate"],
                        case .string(let fingerprint)? = certificate["sha256Fingerprint"]
                    else { continue }
                    pairs.insert(pair(package, fingerprint))
                }
            }
            return canonicalHash(.array(pairs.sorted().map(JSONValue.string)))
        }
    }

    private static func pair(_ package: String, _ fingerprint: String) -> String {
        package + " " + fingerprint.uppercased()
    }

    private static func value(_ bytes: Data) -> Result<JSONValue, Failure> {
        do {
            try StrictJSON.validate(bytes)
        } catch {
            return .failure(.invalidJSON(error.description))
        }
        do {
            return .success(try JSONDecoder().decode(JSONValue.self, from: bytes))
        } catch {
            return .failure(.invalidJSON("undecodable"))
        }
    }

    private static func canonicalHash(_ value: JSONValue) -> Result<String, Failure> {
        guard let bytes = try? CanonicalJSON.encode(value) else { return .failure(.unexpectedShape("unencodable")) }
        return .success(SHA256.hex(bytes))
    }
}
