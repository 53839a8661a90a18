/// Aligned plain-text tables: columns padded to their widest cell, two spaces apart, no trailing blanks.
enum TextTable {
    /// Renders `rows` (and `header`, upper-cased) as aligned lines, each ending in a newline except the last.
    ///
    /// - Parameter paint: colours one cell after it is padded (row index counts data rows from 0, the
    ///   header is -1), so escape codes never disturb the alignment.
    static func render(
        _ rows: [[String]], header: [String]? = nil, paint: ((_ row: Int, _ column: Int, String) -> String)? = nil
    ) -> String {
        let all = (header.map { [$0.map { $0.uppercased() }] } ?? []) + rows
        let columns = all.map(\.count).max() ?? 0
        var widths = Array(repeating: 0, count: columns)
        for row in all {
            for (column, cell) in row.enumerated() { widths[column] = max(widths[column], displayWidth(cell)) }
        }
        let offset = header == nil ? 0 : -1
        var lines: [String] = []
        for (rowIndex, row) in all.enumerated() {
            var line = ""
            for (column, cell) in row.enumerated() {
                let isLast = column == row.count - 1
                let padded = isLast ? cell : cell + String(repeating: " ", count: widths[column] - displayWidth(cell))
                line += paint?(rowIndex + offset, column, padded) ?? padded
                if !isLast { line += "  " }
            }
            lines.append(String(line.reversed().drop(while: { $0 == " " }).reversed()))
        }
        return lines.joined(separator: "\n")
    }

    /// Columns a string takes in a terminal: one per character (the symbols used here, ✓ ✗ ⊘ –, are
    /// single-width).
    static func displayWidth(_ text: String) -> Int { text.count }
}
