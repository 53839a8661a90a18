import Foundation

// Exports from other shorteners are spreadsheet CSV (RFC 4180): quoted fields may hold commas, doubled quotes
// and line breaks, so the FDL reader's "split at the first comma" is not enough for them.

extension LinkImport {
    /// One CSV record and the line of the file it starts on (1-based), for messages.
    struct CSVRow {
        var line: Int
        var fields: [String]
    }

    /// The records of RFC 4180 CSV text: fields separated by commas, records by CRLF or LF, a field in double
    /// quotes may hold commas, line breaks and `""` for a quote. Blank lines are skipped; fields are trimmed.
    static func csvRows(_ text: String) throws -> [CSVRow] {
        var rows: [CSVRow] = []
        var fields: [String] = []
        var field = ""
        var quoted = false
        var line = 1
        var start = 1
        var iterator = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = nil
        func endRecord() {
            fields.append(field.trimmingCharacters(in: .whitespaces))
            if !(fields.count == 1 && fields[0].isEmpty) { rows.append(CSVRow(line: start, fields: fields)) }
            fields = []
            field = ""
        }
        while let scalar = pending ?? iterator.next() {
            pending = nil
            if quoted {
                if scalar == "\"" {
                    let next = iterator.next()
                    if next == "\"" { field.unicodeScalars.append("\"") } else { quoted = false; pending = next }
                } else {
                    if scalar == "\n" { line += 1 }
                    field.unicodeScalars.append(scalar)
                }
                continue
            }
            switch scalar {
            case "\"" where field.trimmingCharacters(in: .whitespaces).isEmpty:
                field = ""
                quoted = true
            case ",":
                fields.append(field.trimmingCharacters(in: .whitespaces))
                field = ""
            case "\r":
                continue
            case "\n":
                endRecord()
                line += 1
                start = line
            default:
                field.unicodeScalars.append(scalar)
            }
        }
        if quoted { throw CommandFailure("line \(start): a quoted field is not closed") }
        if !field.isEmpty || !fields.isEmpty { endRecord() }
        return rows
    }
}
