import Foundation

/// Checks of model values before they are stored: each failure is `INVALID_ARGUMENT` naming the field by
/// its lowerCamelCase request path (`route.pattern.path`), so clients can show it next to the input.
public enum ModelValidation {
    /// `[a-z][a-z0-9-]{0,62}`: app and route IDs.
    public static func id(_ text: String, field: String) throws(RegistryError) {
        let bytes = Array(text.utf8)
        guard let first = bytes.first, isLower(first), bytes.count <= 63,
            bytes.allSatisfy({ isLower($0) || isDigit($0) || $0 == UInt8(ascii: "-") })
        else {
            throw .invalidArgument(
                field: field, "must start with a lower-case letter and hold up to 63 lower-case letters, digits or -")
        }
    }

    /// A lower-case DNS host name without port or trailing dot, with at least two labels.
    public static func host(_ text: String, field: String) throws(RegistryError) {
        let labels = text.split(separator: ".", omittingEmptySubsequences: false)
        let valid =
            text.utf8.count <= 253 && labels.count >= 2
            && labels.allSatisfy { label in
                let bytes = Array(label.utf8)
                return !bytes.isEmpty && bytes.count <= 63 && bytes.first != UInt8(ascii: "-")
                    && bytes.last != UInt8(ascii: "-")
                    && bytes.allSatisfy { isLower($0) || isDigit($0) || $0 == UInt8(ascii: "-") }
            }
        guard valid else {
            throw .invalidArgument(
                field: field, "must be a lower-case host name like m.example.com (no scheme, port or trailing dot)")
        }
    }

    /// `TEAMID.bundle.id`: a 10-character team ID of upper-case letters and digits, then a bundle ID.
    public static func appID(_ text: String, field: String) throws(RegistryError) {
        let bytes = Array(text.utf8)
        let valid =
            bytes.count > 11 && bytes.count <= 255 && bytes[10] == UInt8(ascii: ".")
            && bytes[0..<10].allSatisfy { isUpper($0) || isDigit($0) }
            && bytes[11...].allSatisfy { isAlnum($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") }
            && bytes.last != UInt8(ascii: ".")
        guard valid else {
            throw .invalidArgument(field: field, "must be TEAMID.bundle.id, like ABCDE12345.com.example.app")
        }
    }

    /// 32 colon-separated upper-case hex pairs (a SHA-256 certificate fingerprint).
    public static func fingerprint(_ text: String, field: String) throws(RegistryError) {
        let pairs = text.split(separator: ":", omittingEmptySubsequences: false)
        let valid =
            pairs.count == 32
            && pairs.allSatisfy { pair in
                pair.utf8.count == 2
                    && pair.utf8.allSatisfy { isDigit($0) || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains($0) }
            }
        guard valid else {
            throw .invalidArgument(field: field, "must be 32 colon-separated upper-case hex pairs (AA:BB:…)")
        }
    }

    /// A Java package name with at least two segments (`com.example.app`).
    public static func packageName(_ text: String, field: String) throws(RegistryError) {
        let segments = text.split(separator: ".", omittingEmptySubsequences: false)
        let valid =
            segments.count >= 2 && text.utf8.count <= 255
            && segments.allSatisfy { segment in
                guard let first = segment.utf8.first, isLower(first) || isUpper(first) else { return false }
                return segment.utf8.allSatisfy { isAlnum($0) || $0 == UInt8(ascii: "_") }
            }
        guard valid else {
            throw .invalidArgument(field: field, "must be an Android package name like com.example.app")
        }
    }

    /// A lower-case custom URL scheme without `://`, and not a web scheme.
    public static func scheme(_ text: String, field: String) throws(RegistryError) {
        let bytes = Array(text.utf8)
        guard let first = bytes.first, isLower(first), bytes.count <= 64,
            bytes.allSatisfy({
                isLower($0) || isDigit($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-")
                    || $0 == UInt8(ascii: ".")
            })
        else { throw .invalidArgument(field: field, "must be a lower-case URL scheme like myapp (without ://)") }
        if text == "http" || text == "https" {
            throw .invalidArgument(field: field, "http and https links are routes on domains, not custom schemes")
        }
    }

    /// A pattern text: bounded length, no control characters, and well-formed `$(name)` variables.
    public static func patternText(_ text: String, field: String) throws(RegistryError) {
        // Characters, as the API's maxLength counts them.
        guard text.unicodeScalars.count <= 1024 else {
            throw .invalidArgument(field: field, "is longer than 1024 characters (maxLength 1024)")
        }
        guard !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f }) else {
            throw .invalidArgument(field: field, "must not contain control characters")
        }
        var rest = Substring(text)
        while let start = rest.range(of: "$(") {
            guard let close = rest[start.upperBound...].firstIndex(of: ")") else {
                throw .invalidArgument(field: field, "has a $( without its closing )")
            }
            let name = rest[start.upperBound..<close]
            guard !name.isEmpty, name.utf8.allSatisfy({ isAlnum($0) || $0 == UInt8(ascii: "_") }) else {
                throw .invalidArgument(field: field, "has a substitution variable with an invalid name")
            }
            rest = rest[rest.index(after: close)...]
        }
    }

    private static func isLower(_ b: UInt8) -> Bool { b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z") }
    private static func isUpper(_ b: UInt8) -> Bool { b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z") }
    private static func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
    private static func isAlnum(_ b: UInt8) -> Bool { isLower(b) || isUpper(b) || isDigit(b) }
}
