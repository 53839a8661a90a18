/// Finds text PostgreSQL cannot store anywhere in a call's params: a `\u0000` escape (text and jsonb refuse
/// U+0000, SQLSTATE 22P05) or an unpaired surrogate escape (not Unicode text at all).
///
/// One check for every method and every string, member names included, instead of one per field: a value
/// the schema does not describe (a free-form object) reaches the store too. Raw control bytes and invalid
/// UTF-8 never get here: the dispatcher's scanner refuses them first, so only escapes need looking at, and
/// params without a `\u` (nearly all of them) are passed after one scan of their bytes.
enum UnstorableText {
    /// The first unstorable string, as a violation naming its field; nil when every string can be stored.
    /// `bytes` is valid JSON (checked by the dispatcher).
    static func violation(in bytes: UnsafeBufferPointer<UInt8>) -> SchemaViolation? {
        guard mayHoldOne(bytes) else { return nil }
        var walker = Walker(bytes: bytes)
        do throws(SchemaViolation) {
            _ = try walker.value(at: 0)
            return nil
        } catch {
            return error
        }
    }

    /// Whether some `\u` escape names U+0000 or a surrogate: the cheap test that lets almost every call
    /// skip the walk.
    private static func mayHoldOne(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        while i + 5 < bytes.count {
            if bytes[i] == UInt8(ascii: "\\") {
                if bytes[i + 1] == UInt8(ascii: "u"), let scalar = hex4(bytes, at: i + 2),
                    scalar == 0 || (0xD800...0xDFFF).contains(scalar)
                {
                    return true
                }
                i += 2  // an escaped backslash must not start another escape
            } else {
                i += 1
            }
        }
        return false
    }

    static func hex4(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for offset in 0..<4 {
            let byte = bytes[index + offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"):
                digit = (byte | 0x20) - UInt8(ascii: "a") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// A walk over valid JSON that keeps the path, to name the field holding the bad string.
    private struct Walker {
        let bytes: UnsafeBufferPointer<UInt8>

        /// Checks the value at `start`; returns the index after it.
        mutating func value(at start: Int) throws(SchemaViolation) -> Int {
            var i = skipSpace(start)
            switch bytes[i] {
            case UInt8(ascii: "{"):
                i = skipSpace(i + 1)
                if bytes[i] == UInt8(ascii: "}") { return i + 1 }
                while true {
                    i = skipSpace(i)
                    let keyStart = i
                    do throws(SchemaViolation) { i = try string(at: i) } catch {
                        var error = error
                        error.rule = "has a member name that \(error.rule)"
                        throw error
                    }
                    i = skipSpace(i) + 1  // ':'
                    do throws(SchemaViolation) { i = try value(at: i) } catch {
                        var error = error
                        error.steps.append(.key(name(from: keyStart, to: i)))
                        throw error
                    }
                    i = skipSpace(i)
                    if bytes[i] == UInt8(ascii: ",") {
                        i += 1
                        continue
                    }
                    return i + 1
                }
            case UInt8(ascii: "["):
                i = skipSpace(i + 1)
                if bytes[i] == UInt8(ascii: "]") { return i + 1 }
                var index = 0
                while true {
                    do throws(SchemaViolation) { i = try value(at: i) } catch {
                        var error = error
                        error.steps.append(.index(index))
                        throw error
                    }
                    index += 1
                    i = skipSpace(i)
                    if bytes[i] == UInt8(ascii: ",") {
                        i += 1
                        continue
                    }
                    return i + 1
                }
            case UInt8(ascii: "\""):
                return try string(at: i)
            default:
                while i < bytes.count {
                    switch bytes[i] {
                    case UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), 0x20, 0x09, 0x0A, 0x0D: return i
                    default: i += 1
                    }
                }
                return i
            }
        }

        /// Checks the string at `start` (its opening quote); returns the index after its closing quote.
        private func string(at start: Int) throws(SchemaViolation) -> Int {
            var i = start + 1
            while bytes[i] != UInt8(ascii: "\"") {
                guard bytes[i] == UInt8(ascii: "\\") else {
                    i += 1
                    continue
                }
                guard bytes[i + 1] == UInt8(ascii: "u"), let scalar = hex4(bytes, at: i + 2) else {
                    i += 2
                    continue
                }
                i += 6
                if scalar == 0 {
                    throw SchemaViolation("must not contain U+0000 (NUL): the registry cannot store it")
                }
                if (0xDC00...0xDFFF).contains(scalar) { throw Self.unpaired }
                if (0xD800...0xDBFF).contains(scalar) {
                    guard bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u"),
                        let low = hex4(bytes, at: i + 2), (0xDC00...0xDFFF).contains(low)
                    else { throw Self.unpaired }
                    i += 6
                }
            }
            return i + 1
        }

        private static var unpaired: SchemaViolation {
            SchemaViolation("must be Unicode text (it holds an unpaired surrogate \\u escape)")
        }

        /// The member name whose value starts after `start`, as written, cut short for an error path.
        private func name(from start: Int, to limit: Int) -> String {
            var end = start + 1
            while end < limit && bytes[end] != UInt8(ascii: "\"") {
                end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1
            }
            return ErrorText.cut(String(decoding: bytes[(start + 1)..<min(end, limit)], as: UTF8.self), to: 64)
        }

        private func skipSpace(_ start: Int) -> Int {
            var i = start
            while i < bytes.count {
                switch bytes[i] {
                case 0x20, 0x09, 0x0A, 0x0D: i += 1
                default: return i
                }
            }
            return i
        }
    }
}
