/// Text written into XML (Core Data models, S3 request bodies).
package enum XMLText {
    /// Text for a double-quoted attribute value or an element: line breaks and tabs as
    /// character references (a reader turns literal ones in attributes into spaces); other
    /// control characters, which XML 1.0 cannot hold at all, as `?`.
    package static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "\n", "\r", "\t": result += "&#\(scalar.value);"
            case _ where scalar.value < 0x20: result += "?"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
