import Foundation

/// Parses PostgreSQL's text output of a one-dimensional array (`{a,"b c",NULL}`).
enum SQLArrayParser {
    /// The elements (nil for NULL), or nil when the text is not a one-dimensional array literal.
    static func parse(_ text: String) -> [String?]? {
        let scalars = Array(text.unicodeScalars)
        guard scalars.first == "{", scalars.last == "}" else { return nil }
        if scalars.count == 2 { return [] }
        var elements: [String?] = []
        var index = 1
        let end = scalars.count - 1
        while index < end {
            var element = String.UnicodeScalarView()
            if scalars[index] == "\"" {
                index += 1
                while index < end, scalars[index] != "\"" {
                    if scalars[index] == "\\" { index += 1 }
                    guard index < end else { return nil }
                    element.append(scalars[index])
                    index += 1
                }
                guard index < end else { return nil }
                index += 1
                elements.append(String(element))
            } else {
                while index < end, scalars[index] != "," {
                    if scalars[index] == "{" || scalars[index] == "\"" { return nil }
                    element.append(scalars[index])
                    index += 1
                }
                let word = String(element)
                elements.append(word == "NULL" ? nil : word)
            }
            if index < end {
                guard scalars[index] == "," else { return nil }
                index += 1
                if index == end { return nil }
            }
        }
        return elements
    }
}

/// Parses `timestamptz` output under `DateStyle=ISO, TimeZone=UTC`: `2026-11-29 17:52:21.123456+00`.
enum SQLTimestamp {
    static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 22, bytes[4] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: " "),
            bytes.suffix(3) == Array("+00".utf8)
        else { return nil }
        func number(_ from: Int, _ count: Int) -> Int? {
            var value = 0
            for byte in bytes[from..<from + count] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
            let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2)
        else { return nil }
        var fraction = 0.0
        if bytes[19] == UInt8(ascii: ".") {
            let digits = bytes.count - 3 - 20
            guard digits > 0, let value = number(20, digits) else { return nil }
            fraction = Double(value) / pow(10, Double(digits))
        }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = Double(days * 86_400 + hour * 3_600 + minute * 60 + second) + fraction
        return Date(timeIntervalSince1970: seconds)
    }

    /// Days since 1970-01-01 in the proleptic Gregorian calendar (Howard Hinnant's algorithm).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
