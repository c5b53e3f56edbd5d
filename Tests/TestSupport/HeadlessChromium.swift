import Foundation

/// Debian's `chromium`, headless (installed by scripts/setup): renders a page's DOM after
/// layout, and screenshots it.
public enum HeadlessChromium {
    public struct Missing: Error, CustomStringConvertible {
        public var description: String {
            "chromium is not installed: run scripts/setup (it installs Debian's chromium)"
        }
    }

    /// The DOM of `file` as the browser built it (scripts would have run; the pages have none).
    public static func dom(of file: String) throws -> String {
        try run(["--dump-dom", "file://" + file]).stdout
    }

    /// `file` printed to a PDF at `pdf` (A4 as the page's `@page` asks), without the browser's
    /// header and footer; returns its number of pages.
    public static func printedPages(of file: String, to pdf: String) throws -> Int {
        _ = try run(["--no-pdf-header-footer", "--print-to-pdf=" + pdf, "file://" + file])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: pdf))
        let text = String(decoding: bytes, as: UTF8.self)
        let pattern = try NSRegularExpression(pattern: #"/Type\s*/Page[^s]"#)
        return pattern.numberOfMatches(in: text, range: NSRange(text.startIndex..., in: text))
    }

    /// The DOM of `file`, and the seconds the browser took to start, load it, lay it out and
    /// dump it.
    public static func timedDOM(of file: String) throws -> (dom: String, seconds: Double) {
        let (dom, seconds) = try run(["--dump-dom", "file://" + file])
        return (dom, seconds)
    }

    /// A PNG of `file` rendered `width`×`height` pixels, written to `png`.
    public static func screenshot(of file: String, to png: String, width: Int = 1200, height: Int = 1600) throws {
        _ = try run(["--screenshot=" + png, "--window-size=\(width),\(height)", "--hide-scrollbars", "file://" + file])
    }

    private static func run(_ arguments: [String]) throws -> (stdout: String, seconds: Double) {
        let executable = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
        guard let executable else { throw Missing() }
        let profile = NSTemporaryDirectory() + "chromium-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments =
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                "--user-data-dir=" + profile,
            ] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let started = Date()
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (String(decoding: data, as: UTF8.self), Date().timeIntervalSince(started))
    }
}
