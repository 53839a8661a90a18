import Foundation

/// "3 minutes ago" for the RFC 3339 timestamps the server sends.
enum RelativeTime {
    /// The time between `timestamp` and `now` in words; the timestamp unchanged when it does not parse,
    /// and the date when it is more than 30 days away.
    static func describe(_ timestamp: String, now: Date) -> String {
        guard let date = parse(timestamp) else { return timestamp }
        return describe(date, now: now)
    }

    /// The time between `date` and `now` in words.
    static func describe(_ date: Date, now: Date) -> String {
        let seconds = now.timeIntervalSince(date)
        let magnitude = abs(seconds)
        if magnitude < 45 { return "just now" }
        let (value, unit): (Int, String)
        switch magnitude {
        case ..<(90): (value, unit) = (1, "minute")
        case ..<(45 * 60): (value, unit) = (Int((magnitude / 60).rounded()), "minute")
        case ..<(90 * 60): (value, unit) = (1, "hour")
        case ..<(22 * 3600): (value, unit) = (Int((magnitude / 3600).rounded()), "hour")
        case ..<(36 * 3600): (value, unit) = (1, "day")
        case ..<(30 * 86400): (value, unit) = (Int((magnitude / 86400).rounded()), "day")
        default:
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = "yyyy-MM-dd"
            return formatter.string(from: date)
        }
        let words = "\(value) \(unit)\(value == 1 ? "" : "s")"
        return seconds >= 0 ? "\(words) ago" : "in \(words)"
    }

    /// Parses RFC 3339 with or without fractional seconds.
    static func parse(_ timestamp: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: timestamp) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: timestamp)
    }
}
