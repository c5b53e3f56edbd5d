/// Text on the report pages: escaped as XML text is (HTML's element content and double-quoted
/// attributes need no more), figures and sizes as people read them.
enum HTMLText {
    static func escaped(_ text: String) -> String { XMLText.escaped(text) }

    /// `1234567` → `1,234,567`: figures as people read them, and as text (screen readers, copy).
    static func figure(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var grouped = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { grouped += "," }
            grouped.append(digit)
        }
        return (value < 0 ? "-" : "") + grouped
    }

    /// Seconds as `0.42 s`, `12.3 s`, `4 min 05 s`, `2 h 03 min`.
    static func duration(_ seconds: Double) -> String {
        if seconds < 10 { return String(format: "%.2f s", seconds) }
        if seconds < 60 { return String(format: "%.1f s", seconds) }
        let whole = Int(seconds.rounded())
        if whole < 3600 { return String(format: "%d min %02d s", whole / 60, whole % 60) }
        return String(format: "%d h %02d min", whole / 3600, whole / 60 % 60)
    }

    /// Bytes as `512 B`, `1.5 KB`, `64.1 MB`, `2.00 GB`.
    static func bytes(_ count: Int64) -> String {
        let value = Double(count)
        if value < 1000 { return "\(count) B" }
        if value < 1_000_000 { return String(format: "%.1f KB", value / 1000) }
        if value < 1_000_000_000 { return String(format: "%.1f MB", value / 1_000_000) }
        return String(format: "%.2f GB", value / 1_000_000_000)
    }
}
