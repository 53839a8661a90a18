extension DecodingError {
    /// The failure as field violations with lowerCamelCase paths (`route.platforms.ios.since`,
    /// `routes[2].id`), so a client can point at the bad field.
    var fieldViolations: [RPCFieldViolation] {
        switch self {
        case .keyNotFound(let key, let context):
            return [RPCFieldViolation(field: Self.path(context.codingPath + [key]), description: "is required")]
        case .typeMismatch(let type, let context):
            return [
                RPCFieldViolation(field: Self.path(context.codingPath), description: "must be \(Self.describe(type))")
            ]
        case .valueNotFound(let type, let context):
            return [
                RPCFieldViolation(field: Self.path(context.codingPath), description: "must be \(Self.describe(type))")
            ]
        case .dataCorrupted(let context):
            return [
                RPCFieldViolation(
                    field: Self.path(context.codingPath),
                    description: ErrorText.decoderDescription(context.debugDescription))
            ]
        @unknown default:
            return []
        }
    }

    static func path(_ keys: [any CodingKey]) -> String {
        var out = ""
        for key in keys {
            if let index = key.intValue, key.stringValue == "Index \(index)" || key.stringValue == "\(index)" {
                out += "[\(index)]"
            } else {
                if !out.isEmpty { out += "." }
                out += key.stringValue
            }
        }
        return out
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "a boolean"
        case is Int.Type, is Int64.Type, is Int32.Type, is UInt.Type, is UInt64.Type, is UInt32.Type: "an integer"
        case is Double.Type, is Float.Type: "a number"
        default:
            String(describing: type).hasPrefix("Array<") ? "an array" : "an object"
        }
    }
}
