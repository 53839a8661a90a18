/// A gRPC status code: the vocabulary of every application error on the wire (`error.code` is `rawValue`,
/// `error.data.status` is `name`). A struct rather than an enum so a client meets codes newer than itself
/// without failing to decode.
public struct StatusCode: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The gRPC code number.
    public let rawValue: Int

    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let ok = StatusCode(rawValue: 0)
    public static let cancelled = StatusCode(rawValue: 1)
    public static let unknown = StatusCode(rawValue: 2)
    public static let invalidArgument = StatusCode(rawValue: 3)
    public static let deadlineExceeded = StatusCode(rawValue: 4)
    public static let notFound = StatusCode(rawValue: 5)
    public static let alreadyExists = StatusCode(rawValue: 6)
    public static let permissionDenied = StatusCode(rawValue: 7)
    public static let resourceExhausted = StatusCode(rawValue: 8)
    public static let failedPrecondition = StatusCode(rawValue: 9)
    public static let aborted = StatusCode(rawValue: 10)
    public static let outOfRange = StatusCode(rawValue: 11)
    public static let unimplemented = StatusCode(rawValue: 12)
    public static let `internal` = StatusCode(rawValue: 13)
    public static let unavailable = StatusCode(rawValue: 14)
    public static let dataLoss = StatusCode(rawValue: 15)
    public static let unauthenticated = StatusCode(rawValue: 16)

    private static let names = [
        "OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND", "ALREADY_EXISTS",
        "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE",
        "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED",
    ]

    /// The canonical upper-case name (`NOT_FOUND`), or `CODE_<n>` for a code this build does not know.
    public var name: String {
        StatusCode.names.indices.contains(rawValue) ? StatusCode.names[rawValue] : "CODE_\(rawValue)"
    }

    /// The code for a canonical name, if known.
    public init?(name: String) {
        guard let index = StatusCode.names.firstIndex(of: name) else { return nil }
        self.rawValue = index
    }

    public var description: String { name }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(Int.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
