/// Terminal colours, used only when stdout is a terminal and `NO_COLOR` is unset (https://no-color.org).
struct Style: Sendable {
    /// Colour escape codes are written.
    let enabled: Bool

    /// Colour on a TTY, unless `NO_COLOR` is set (to anything non-empty), `TERM` is `dumb`, or `--no-color`.
    init(isTTY: Bool, environment: [String: String], noColorFlag: Bool) {
        let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
        enabled = isTTY && !noColor && !noColorFlag && environment["TERM"] != "dumb"
    }

    init(enabled: Bool) { self.enabled = enabled }

    func red(_ text: String) -> String { wrap(text, "31") }
    func green(_ text: String) -> String { wrap(text, "32") }
    func yellow(_ text: String) -> String { wrap(text, "33") }
    func cyan(_ text: String) -> String { wrap(text, "36") }
    func dim(_ text: String) -> String { wrap(text, "2") }
    func bold(_ text: String) -> String { wrap(text, "1") }

    private func wrap(_ text: String, _ code: String) -> String {
        enabled && !text.isEmpty ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
