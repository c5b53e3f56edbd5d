/// The date formats `model infer` tries on a column: ISO-8601 (dates and date-times), then
/// fixed patterns that `map.dateFormat` accepts. A source has one `dateFormat`, so the formats
/// a file's columns agree on are chosen together (`choose`).
package enum DateCandidates {
    /// The patterns, each a date part with an optional time part; ISO-8601 comes first.
    static let patterns: [String] = {
        let dates = ["dd/MM/yyyy", "MM/dd/yyyy", "yyyy/MM/dd", "dd.MM.yyyy", "dd-MM-yyyy", "MM-dd-yyyy"]
        let times = ["", " HH:mm", " HH:mm:ss", " HH:mm:ss.SSS"]
        return dates.flatMap { date in times.map { date + $0 } }
    }()

    /// Every candidate, ISO-8601 at index 0.
    static let formats: [DateFormat] = [.iso8601] + patterns.map { .pattern($0) }

    /// Bit `i` set: `formats[i]` still reads every value seen.
    static let all: UInt32 = (1 << UInt32(formats.count)) - 1

    /// What a pipeline writes in `map.dateFormat` for candidate `index`.
    static func name(_ index: Int) -> String {
        index == 0 ? "iso8601" : patterns[index - 1]
    }

    /// The candidate that reads the same text with day and month swapped (`dd/MM` ↔ `MM/dd`),
    /// if any: when both hold for every value the dates are ambiguous.
    static func swapped(_ index: Int) -> Int? {
        guard index > 0 else { return nil }
        let pattern = patterns[index - 1]
        let other: String
        if pattern.hasPrefix("dd/MM") {
            other = "MM/dd" + pattern.dropFirst(5)
        } else if pattern.hasPrefix("MM/dd") {
            other = "dd/MM" + pattern.dropFirst(5)
        } else if pattern.hasPrefix("dd-MM") {
            other = "MM-dd" + pattern.dropFirst(5)
        } else if pattern.hasPrefix("MM-dd") {
            other = "dd-MM" + pattern.dropFirst(5)
        } else {
            return nil
        }
        return patterns.firstIndex(of: other).map { $0 + 1 }
    }

    /// The source's one date format for columns whose surviving candidates are `columns`
    /// (bit masks): the candidate that the most columns accept, ISO-8601 first on a tie. Nil
    /// when no column is a date, and `.ambiguous` when day and month cannot be told apart.
    static func choose(_ columns: [UInt32]) -> Choice? {
        let dated = columns.filter { $0 != 0 }
        guard !dated.isEmpty else { return nil }
        var best = 0, bestCount = 0
        for index in formats.indices {
            let count = dated.filter { $0 & (1 << UInt32(index)) != 0 }.count
            if count > bestCount { (best, bestCount) = (index, count) }
        }
        if let other = swapped(best),
            dated.allSatisfy({ $0 & (1 << UInt32(best)) == 0 || $0 & (1 << UInt32(other)) != 0 })
        {
            return .ambiguous(best, other)
        }
        return .format(best)
    }

    /// A source's date format decision.
    enum Choice: Equatable {
        /// Candidate `index` reads the date columns that have it.
        case format(Int)
        /// Every value reads as either candidate (day and month both ≤ 12).
        case ambiguous(Int, Int)
    }
}
