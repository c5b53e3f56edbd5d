import Foundation
@testable import ImporterCore
import ImporterFormats

/// A pipeline of the Locations sample model over CSV files written into a temporary folder,
/// and the run inputs, recorder and channels that stages are built with.
final class StageFixture {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    let directory = NSTemporaryDirectory() + "stages-" + UUID().uuidString
    private(set) var config: PipelineConfig!
    private(set) var model: Model!
    private(set) var inputs: [RunInput] = []

    /// `files`: entity → CSV text, one input each.
    init(_ files: [(entity: String, csv: String)], write: String = "{ mode: upsert }") throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var sources = ""
        for (index, file) in files.enumerated() {
            let path = "\(directory)/\(index).csv"
            try file.csv.write(toFile: path, atomically: false, encoding: .utf8)
            sources += "  - entity: \(file.entity)\n    path: \(path)\n"
        }
        let modelPath = Self.root.appendingPathComponent("SampleData/Locations/Model/v1.yaml").path
        let pipeline =
            "model: \(modelPath)\nsources:\n\(sources)destination: { path: \(directory)/store.sqlite }\nwrite: \(write)\n"
        config = try PipelineLoader().parse(text: pipeline, file: directory + "/pipeline.yaml")
        model = try ModelLoader.loadFile(modelPath)
        inputs = try RunInput.ordered(config, model, nil)
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    /// The Orders sample model (orders → lines → adjustments).
    static let ordersModel = root.appendingPathComponent("SampleData/Orders/Model/v1.yaml").path

    /// A pipeline of one NDJSON document source of orders at `path`, under document `policy`,
    /// into a store in `directory`.
    static func ordersPipeline(path: String, policy: String, directory: String) throws -> PipelineConfig {
        let pipeline = """
            model: \(ordersModel)
            sources:
              - entity: Order
                path: \(path)
                documents: \(policy)
                map: { fields: { currency: currency.code } }
                children:
                  lines:
                    entity: Line
                    parent: order
                    position: lineNo
                    children:
                      adjustments:
                        entity: Adjustment
                        parent: line
                        map: { rename: { _id: adjustmentId } }
            destination: { path: \(directory)/store.sqlite }
            errors: { maxErrors: 1000, maxErrorRatio: 1.0 }
            """
        return try PipelineLoader().parse(text: pipeline, file: directory + "/pipeline.yaml")
    }

    func recorder(maxErrors: Int = 1000) -> RunRecorder {
        var limits = config.errors
        limits.maxErrors = maxErrors
        limits.maxErrorRatio = 1
        return RunRecorder(
            inputs: inputs.map { .init(source: $0.path, entity: $0.entity.name, format: "csv") }, limits: limits)
    }

    /// Runs a read stage over every input on a thread of its own; the items come out of `parsed`.
    func startReading(into parsed: Sequencer<ParsedItem>, recorder: RunRecorder, written: Handback<[PreparedRecord]>)
        -> StageThread<Void>
    {
        let stage = ReadStage(
            inputs: inputs, pipelineFile: config.file, makeReader: ReaderFactory.makeReader, recorder: recorder,
            parsed: parsed, written: written, progress: nil)
        return StageThread("read stage", owning: stage) { $0.run() }
    }

    /// `count` Location rows with ids `L0`, `L1`, …, after a header.
    static func locations(_ count: Int, extra: [String] = []) -> String {
        var text = "locationId,name,createdAt\n"
        for index in 0..<count { text += "L\(index),Place \(index),2024-01-01T00:00:00Z\n" }
        for line in extra { text += line + "\n" }
        return text
    }
}
