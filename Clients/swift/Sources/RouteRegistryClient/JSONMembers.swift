import Foundation

/// The top-level members of a JSON object as byte ranges of the original text, so a JSON-RPC `result`
/// can be handed on byte for byte (the CLI's `--json` prints the server's JSON unchanged) and decoded
/// without parsing the whole response twice.
struct JSONMembers {
    /// Member name → the bytes of its value, exactly as sent.
    let values: [String: Data]

    /// Scans `bytes`, which must hold one JSON object; nil when they do not.
    init?(_ bytes: Data) {
        var scanner = Scanner(bytes: [UInt8](bytes))
        guard let values = scanner.topLevelObject() else { return nil }
        self.values = values
    }

    subscript(name: String) -> Data? { values[name] }

    /// True when the member is present and not `null`.
    func hasValue(_ name: String) -> Bool {
        guard let value = values[name] else { return false }
        return value != Data("null".utf8)
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        mutating func topLevelObject() -> [String: Data]? {
            skipSpace()
            guard take(UInt8(ascii: "{")) else { return nil }
            var members: [String: Data] = [:]
            skipSpace()
            if take(UInt8(ascii: "}")) { return finished() ? members : nil }
            while true {
                skipSpace()
                guard let keyRange = skipString(), let key = decodeKey(keyRange) else { return nil }
                skipSpace()
                guard take(UInt8(ascii: ":")) else { return nil }
                skipSpace()
                let start = index
                guard skipValue() else { return nil }
                members[key] = Data(bytes[start..<index])
                skipSpace()
                if take(UInt8(ascii: ",")) { continue }
                guard take(UInt8(ascii: "}")) else { return nil }
                return finished() ? members : nil
            }
        }

        private mutating func finished() -> Bool {
            skipSpace()
            return index == bytes.count
        }

        private func decodeKey(_ range: Range<Int>) -> String? {
            try? JSONDecoder().decode(String.self, from: Data(bytes[range]))
        }

        private mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        private mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        /// Skips a string starting at `index`, returning its range including the quotes.
        private mutating func skipString() -> Range<Int>? {
            let start = index
            guard take(UInt8(ascii: "\"")) else { return nil }
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\\"): index += 2
                case UInt8(ascii: "\""):
                    index += 1
                    return start..<index
                default: index += 1
                }
            }
            return nil
        }

        /// Skips one value; nested containers are only balanced here, their syntax is checked by the
        /// decoder that reads them later.
        private mutating func skipValue() -> Bool {
            guard index < bytes.count else { return false }
            switch bytes[index] {
            case UInt8(ascii: "\""):
                return skipString() != nil
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                var depth = 0
                while index < bytes.count {
                    switch bytes[index] {
                    case UInt8(ascii: "\""):
                        guard skipString() != nil else { return false }
                        continue
                    case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        depth -= 1
                        if depth == 0 {
                            index += 1
                            return true
                        }
                    default: break
                    }
                    index += 1
                }
                return false
            default:
                let start = index
                while index < bytes.count, !",}] \t\r\n".utf8.contains(bytes[index]) { index += 1 }
                return index > start
            }
        }
    }
}
