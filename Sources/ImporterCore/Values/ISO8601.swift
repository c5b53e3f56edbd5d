import Foundation

/// ISO-8601 dates to and from milliseconds since the Unix epoch, without Foundation's formatters.
package enum ISO8601 {
    /// Parses `YYYY-MM-DD`, `YYYY-MM-DDTHH:MM[:SS[.fff]]` with `Z`, `±HH:MM`, `±HHMM` or no
    /// offset (UTC). A space may replace the `T`. Digits past milliseconds must be zero.
    package static func parse(_ text: String) -> Result<Int64, DateProblem> {
        var text = text
        return text.withUTF8 { parse(ByteScanner($0)) }
    }

    /// `parse(_:)` for UTF-8 bytes (no String made).
    static func parse(bytes: UnsafeBufferPointer<UInt8>) -> Result<Int64, DateProblem> {
        parse(ByteScanner(bytes))
    }

    private static func parse(_ scanner: ByteScanner) -> Result<Int64, DateProblem> {
        var scanner = scanner
        guard let year = scanner.number(digits: 4), scanner.skip("-"),
            let month = scanner.number(digits: 2), scanner.skip("-"),
            let day = scanner.number(digits: 2)
        else { return .failure(.notADate) }
        var hour = 0, minute = 0, second = 0, millis = 0, offsetMinutes = 0
        if !scanner.atEnd {
            guard scanner.skip("T") || scanner.skip("t") || scanner.skip(" "),
                let h = scanner.number(digits: 2), scanner.skip(":"),
                let m = scanner.number(digits: 2)
            else { return .failure(.notADate) }
            hour = h
            minute = m
            if scanner.skip(":") {
                guard let s = scanner.number(digits: 2) else { return .failure(.notADate) }
                second = s
                if scanner.skip(".") || scanner.skip(",") {
                    var count = 0
                    while let digit = scanner.digit() {
                        if count < 3 {
                            millis = millis * 10 + digit
                        } else if digit != 0 {
                            return .failure(.subMillisecond)
                        }
                        count += 1
                    }
                    guard count > 0 else { return .failure(.notADate) }
                    for _ in count..<max(count, 3) { millis *= 10 }
                }
            }
            if scanner.skip("Z") || scanner.skip("z") {
            } else if let sign = scanner.sign() {
                guard let oh = scanner.number(digits: 2) else { return .failure(.notADate) }
                _ = scanner.skip(":")
                guard let om = scanner.number(digits: 2), oh <= 23, om <= 59 else { return .failure(.notADate) }
                offsetMinutes = sign * (oh * 60 + om)
            }
        }
        guard scanner.atEnd else { return .failure(.notADate) }
        return make(
            year: year, month: month, day: day, hour: hour, minute: minute, second: second,
            millis: millis, offsetMinutes: offsetMinutes)
    }

    /// Milliseconds for a civil date and time, checking every field's range.
    package static func make(
        year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, millis: Int, offsetMinutes: Int = 0
    ) -> Result<Int64, DateProblem> {
        guard (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
            (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second)
        else { return .failure(.outOfRange) }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second - offsetMinutes * 60)
        return .success(seconds * 1000 + Int64(millis))
    }

    /// The moments a date attribute holds: the years 0000 to 9999, which four digits write.
    package static let representable: ClosedRange<Int64> =
        Int64(daysFromCivil(year: 0, month: 1, day: 1)) * 86_400_000...Int64(
            daysFromCivil(year: 10_000, month: 1, day: 1)) * 86_400_000 - 1

    /// `millis` if it lies in `representable`, else `.yearOutOfRange` (an epoch number too large
    /// would otherwise become a date whose year no longer fits its text).
    static func checkedYear(_ millis: Int64) -> Result<Int64, DateProblem> {
        representable.contains(millis) ? .success(millis) : .failure(.yearOutOfRange)
    }

    /// `YYYY-MM-DDTHH:MM:SS.sssZ`
    package static func format(millis: Int64) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maximumLength) { buffer in
            String(
                decoding: UnsafeBufferPointer(rebasing: buffer[..<format(millis: millis, into: buffer)]), as: UTF8.self)
        }
    }

    /// `YYYY-MM-DDTHH:MM:SS.sssZ` of a moment (milliseconds truncated), for timestamps.
    package static func format(_ date: Date) -> String {
        format(millis: Int64(date.timeIntervalSince1970 * 1000))
    }

    /// The moment a timestamp `format(_:)` wrote names; nil for text that is not one.
    package static func date(_ text: String) -> Date? {
        guard case .success(let millis) = parse(text) else { return nil }
        return Date(timeIntervalSince1970: Double(millis) / 1000)
    }

    /// Room for any formatted date (a sign and a five-digit year included).
    package static let maximumLength = 26

    /// Writes `YYYY-MM-DDTHH:MM:SS.sssZ` into `buffer` (at least `maximumLength` bytes) and
    /// returns its length. Two digits at a time: the write stage formats every date it stores.
    package static func format(millis: Int64, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        precondition(buffer.count >= maximumLength)
        let (seconds, milli) = millis.floorDivided(by: 1000)
        let (days, secondOfDay) = seconds.floorDivided(by: 86_400)
        let (year, month, day) = civilFromDays(Int(days))
        let out = buffer.baseAddress!
        var position = 0
        func two(_ value: Int) {
            let (tens, ones) = value.quotientAndRemainder(dividingBy: 10)
            out[position] = UInt8(truncatingIfNeeded: 48 + tens)
            out[position + 1] = UInt8(truncatingIfNeeded: 48 + ones)
            position += 2
        }
        func put(_ byte: UInt8) {
            out[position] = byte
            position += 1
        }
        if year < 0 { put(45) }
        let magnitude = abs(year)
        if magnitude > 9999 { put(UInt8(truncatingIfNeeded: 48 + magnitude / 10000 % 10)) }
        two(magnitude / 100 % 100); two(magnitude % 100); put(45); two(month); put(45); two(day); put(84)
        let second = Int(secondOfDay)
        two(second / 3600); put(58); two(second % 3600 / 60); put(58); two(second % 60); put(46)
        put(UInt8(truncatingIfNeeded: 48 + Int(milli) / 100)); two(Int(milli) % 100); put(90)
        return position
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    // Howard Hinnant's days_from_civil / civil_from_days.
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civilFromDays(_ days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

/// Why a text is not a date.
package enum DateProblem: Error, Sendable {
    case notADate, outOfRange, subMillisecond, yearOutOfRange

    package var message: String {
        switch self {
        case .notADate: return "is not a date in the expected format"
        case .outOfRange: return "has a month, day or time out of range"
        case .yearOutOfRange: return "is a moment outside the years 0000 to 9999 that a date attribute holds"
        case .subMillisecond:
            return "has precision below a millisecond, which a date attribute cannot keep; use a string attribute"
        }
    }
}

extension Int64 {
    func floorDivided(by divisor: Int64) -> (Int64, Int64) {
        let quotient = self / divisor, remainder = self % divisor
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }
}

/// A cursor over ASCII bytes for small hand-written parsers; valid only inside the
/// `withUTF8` that lends the bytes.
struct ByteScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    var atEnd: Bool { index == bytes.count }

    mutating func skip(_ character: Unicode.Scalar) -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
        index += 1
        return true
    }

    mutating func digit() -> Int? {
        guard index < bytes.count, (48...57).contains(bytes[index]) else { return nil }
        index += 1
        return Int(bytes[index - 1] - 48)
    }

    mutating func number(digits: Int) -> Int? {
        var value = 0
        for _ in 0..<digits {
            guard let digit = digit() else { return nil }
            value = value * 10 + digit
        }
        return value
    }

    mutating func sign() -> Int? {
        if skip("+") { return 1 }
        if skip("-") { return -1 }
        return nil
    }
}
