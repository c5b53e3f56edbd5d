import Foundation

/// The page's charts, as inline SVG: each has a `<title>` for screen readers and the figures
/// it draws are also in a table or a sentence beside it. Series differ in dash pattern as well
/// as colour.
enum PageCharts {
    /// A series of the timeline chart.
    struct Series {
        let name: String
        let values: [Double]
        let colour: String
        /// SVG `stroke-dasharray` (empty: solid).
        let dashes: String
    }

    /// Lines of records per second over the run: `values[i]` is the rate in interval `i`.
    static func timeline(_ series: [Series], intervalSeconds: Int, title: String) -> String {
        let width = 720.0, height = 180.0, left = 56.0, bottom = 22.0, top = 8.0
        let intervals = series.map(\.values.count).max() ?? 0
        let count = max(intervals, 2)
        let peak = max(1, series.flatMap(\.values).max() ?? 1)
        let plotWidth = width - left - 8, plotHeight = height - bottom - top
        func x(_ index: Int) -> Double { left + (count <= 1 ? 0 : Double(index) / Double(count - 1) * plotWidth) }
        func y(_ value: Double) -> Double { top + plotHeight - value / peak * plotHeight }
        var svg =
            "<svg viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"\(HTMLText.escaped(title))\"><title>\(HTMLText.escaped(title))</title>"
        svg +=
            "<line x1=\"\(left)\" y1=\"\(y(0))\" x2=\"\(width - 8)\" y2=\"\(y(0))\" stroke=\"#9aa5b1\"/><line x1=\"\(left)\" y1=\"\(top)\" x2=\"\(left)\" y2=\"\(y(0))\" stroke=\"#9aa5b1\"/>"
        svg += "<text x=\"\(left - 4)\" y=\"\(top + 10)\" text-anchor=\"end\">\(HTMLText.figure(Int(peak)))/s</text>"
        svg += "<text x=\"\(left - 4)\" y=\"\(y(0))\" text-anchor=\"end\">0</text>"
        svg +=
            "<text x=\"\(width - 8)\" y=\"\(height - 6)\" text-anchor=\"end\">\(HTMLText.duration(Double(intervals * intervalSeconds)))</text>"
        for line in series where !line.values.isEmpty {
            // One interval (a short run): a level line across.
            let values = line.values.count == 1 ? line.values + line.values : line.values
            let points = values.enumerated().map { String(format: "%.1f,%.1f", x($0.offset), y($0.element)) }
            svg +=
                "<polyline fill=\"none\" stroke=\"\(line.colour)\" stroke-width=\"2\" stroke-dasharray=\"\(line.dashes)\" points=\"\(points.joined(separator: " "))\"><title>\(HTMLText.escaped(line.name))</title></polyline>"
        }
        return svg + "</svg>"
    }

    /// One bar per run, oldest first; the bar of `marked` (this run) is hatched and labelled.
    static func history(_ values: [Double], marked: Int?, unit: (Double) -> String, title: String) -> String {
        let width = 340.0, height = 120.0, bottom = 18.0, top = 16.0
        let peak = max(values.max() ?? 0, 1e-9)
        let slot = min(32, (width - 8) / Double(max(values.count, 1)))
        var svg =
            "<svg viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"\(HTMLText.escaped(title))\"><title>\(HTMLText.escaped(title))</title>"
        svg +=
            "<defs><pattern id=\"hatch\" width=\"4\" height=\"4\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\"><rect width=\"4\" height=\"4\" fill=\"#1d4ed8\"/><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"4\" stroke=\"#93c5fd\" stroke-width=\"2\"/></pattern></defs>"
        for (index, value) in values.enumerated() {
            let isMarked = index == marked
            // This run's bar shows even at 0: a stub on the baseline.
            let barHeight = max(value > 0 || isMarked ? 2 : 0, value / peak * (height - bottom - top))
            let x = 4 + Double(index) * slot
            svg += String(
                format:
                    "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%@\"><title>%@</title></rect>",
                x + 1, height - bottom - barHeight, max(1, slot - 2), barHeight,
                isMarked ? "url(#hatch)" : "#9aa5b1", HTMLText.escaped((isMarked ? "this run: " : "") + unit(value)))
            if isMarked {
                svg += String(
                    format: "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">this run</text>",
                    min(max(x + slot / 2, 24), width - 24), height - 4)
            }
        }
        svg += "<text x=\"4\" y=\"11\">\(HTMLText.escaped(unit(values.max() ?? 0))) max</text>"
        return svg + "</svg>"
    }

    /// A horizontal bar `share` (0…1) of its cell wide; its figure is text in the next cell.
    static func bar(_ share: Double) -> String {
        "<span class=\"bar\" style=\"width:\(String(format: "%.1f", max(0.5, share * 100)))%\" aria-hidden=\"true\"></span>"
    }
}
