/// A gRPC status code: the vocabulary of every application error on the wire (`error.code` is `rawValue`,
/// `error.data.status` is `name`), shared by the JSON-RPC engine, the registry and the Swift client. A struct rather than an enum so a client meets codes newer than itself
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

    /// Every status's name and HTTP status, by code: the one table. The JSON-RPC `error.code` of an application
    /// error is the code itself; the HTTP status is what a plain GET answering the same error sends (the
    /// mapping of google.rpc.Code to HTTP that gRPC gateways use).
    private static let table: [(name: String, http: Int)] = [
        ("OK", 200), ("CANCELLED", 499), ("UNKNOWN", 500), ("INVALID_ARGUMENT", 400), ("DEADLINE_EXCEEDED", 504),
        ("NOT_FOUND", 404), ("ALREADY_EXISTS", 409), ("PERMISSION_DENIED", 403), ("RESOURCE_EXHAUSTED", 429),
        ("FAILED_PRECONDITION", 400), ("ABORTED", 409), ("OUT_OF_RANGE", 400), ("UNIMPLEMENTED", 501),
        ("INTERNAL", 500), ("UNAVAILABLE", 503), ("DATA_LOSS", 500), ("UNAUTHENTICATED", 401),
    ]

    /// The canonical upper-case name (`NOT_FOUND`), or `CODE_<n>` for a code this build does not know.
    public var name: String {
        StatusCode.table.indices.contains(rawValue) ? StatusCode.table[rawValue].name : "CODE_\(rawValue)"
    }

    /// The HTTP status of a plain GET answering this status (500 for a code this build does not know).
    public var httpStatus: Int {
        StatusCode.table.indices.contains(rawValue) ? StatusCode.table[rawValue].http : 500
    }

    /// Every code this build knows, in order.
    public static var known: [StatusCode] { table.indices.map { StatusCode(rawValue: $0) } }

    /// The code for a canonical name, if known.
    public init?(name: String) {
        guard let index = StatusCode.table.firstIndex(where: { $0.name == name }) else { return nil }
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
