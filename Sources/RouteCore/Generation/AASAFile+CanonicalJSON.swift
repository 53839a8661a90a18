import Foundation
import RouteMatching

extension AASAFile {
    /// The bytes `CanonicalJSON.encode(self)` makes (keys sorted, slashes unescaped), written directly.
    ///
    /// Why: every write regenerates its app's AASA, and `JSONEncoder` builds a tree of boxed values with a
    /// dictionary per object first: for an app of 1,000 routes, tens of thousands of allocations, most of
    /// generating the file. The objects with keys of the user's choosing (substitution variables, query
    /// items) are small and rare, and still go through `CanonicalJSON`; tests hold the two encodings equal.
    public func canonicalJSON() throws -> Data {
        var out = JSONBuffer()
        out.bytes.reserveCapacity(256 + applinks.details.reduce(0) { $0 + 96 * ($1.components?.count ?? 0) })
        var first = true
        out.open()
        if let appclips { out.field("appclips", appclips, &first) }
        out.key("applinks", &first)
        try out.appLinks(applinks)
        if let webcredentials { out.field("webcredentials", webcredentials, &first) }
        out.close()
        return Data(out.bytes)
    }
}

/// A JSON text being written, in the form `JSONEncoder` gives with `.sortedKeys` and
/// `.withoutEscapingSlashes`: each object below writes its keys in that order (byte order), `first` saying
/// whether a comma goes before the next.
private struct JSONBuffer {
    var bytes: [UInt8] = []

    mutating func open() { bytes.append(UInt8(ascii: "{")) }
    mutating func close() { bytes.append(UInt8(ascii: "}")) }

    /// `"name":`, after a comma unless it is the object's first key.
    mutating func key(_ name: StaticString, _ first: inout Bool) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
    }

    mutating func field(_ name: StaticString, _ value: String, _ first: inout Bool) {
        key(name, &first)
        string(value)
    }

    mutating func field(_ name: StaticString, _ values: [String], _ first: inout Bool) {
        key(name, &first)
        array(values) { $0.string($1) }
    }

    /// `[…]` of `items`, each written by `write`.
    mutating func array<Item>(_ items: [Item], _ write: (inout Self, Item) throws -> Void) rethrows {
        bytes.append(UInt8(ascii: "["))
        for (index, item) in items.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            try write(&self, item)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    mutating func field(_ name: StaticString, _ value: Bool, _ first: inout Bool) {
        key(name, &first)
        let text: StaticString = value ? "true" : "false"
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func field(_ name: StaticString, _ list: AASAAppList, _ first: inout Bool) {
        key(name, &first)
        var inner = true
        open()
        field("apps", list.apps, &inner)
        close()
    }

    /// A value whose object keys the user chose: through `CanonicalJSON`, which orders them.
    mutating func field<T: Encodable>(encoding name: StaticString, _ value: T, _ first: inout Bool) throws {
        key(name, &first)
        bytes.append(contentsOf: try CanonicalJSON.encode(value))
    }

    /// A string as `JSONEncoder` escapes it: `"` and `\`, the control characters (`\b \t \n \f \r` short,
    /// the others `\u00xx`); everything else, `/` and non-ASCII included, as it is.
    mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), byte])
            case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: Array("\\u00".utf8))
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0xF)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    mutating func appLinks(_ links: AASAAppLinks) throws {
        var first = true
        open()
        if let apps = links.apps { field("apps", apps, &first) }
        if let defaults = links.defaults {
            key("defaults", &first)
            var inner = true
            open()
            if let caseSensitive = defaults.caseSensitive { field("caseSensitive", caseSensitive, &inner) }
            if let percentEncoded = defaults.percentEncoded { field("percentEncoded", percentEncoded, &inner) }
            close()
        }
        key("details", &first)
        try array(links.details) { try $0.detail($1) }
        if let variables = links.substitutionVariables {
            try field(encoding: "substitutionVariables", variables, &first)
        }
        close()
    }

    mutating func detail(_ detail: AASADetail) throws {
        var first = true
        open()
        if let appID = detail.appID { field("appID", appID, &first) }
        if let appIDs = detail.appIDs { field("appIDs", appIDs, &first) }
        if let components = detail.components {
            key("components", &first)
            try array(components) { try $0.component($1) }
        }
        if let paths = detail.paths { field("paths", paths, &first) }
        close()
    }

    mutating func component(_ component: AASAComponent) throws {
        var first = true
        open()
        if let fragment = component.fragment { field("#", fragment, &first) }
        if let path = component.path { field("/", path, &first) }
        switch component.query {
        case .string(let text): field("?", text, &first)
        case let query?: try field(encoding: "?", query, &first)
        case nil: break
        }
        if let caseSensitive = component.caseSensitive { field("caseSensitive", caseSensitive, &first) }
        if let comment = component.comment { field("comment", comment, &first) }
        if let exclude = component.exclude { field("exclude", exclude, &first) }
        if let percentEncoded = component.percentEncoded { field("percentEncoded", percentEncoded, &first) }
        close()
    }
}
